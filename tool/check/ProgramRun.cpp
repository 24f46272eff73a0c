#include "ProgramRun.h"

#include "CheckDiagnostics.h"
#include "CheckRegistry.h"
#include "CheckContext.h"
#include "FileIO.h"
#include "LockwrightConfig.h"
#include "output/Sarif.h"
#include "spec/SpecLoader.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace lockwright {

std::string SummaryCache::keyFor(const std::vector<std::vector<std::string>> &Commands, const std::string &Arch) const {
  std::string Text = Salt + '\0' + Arch;
  for (const std::vector<std::string> &Command : Commands)
    for (const std::string &Part : Command)
      Text += '\0' + Part;
  return contentHash(Text);
}

std::string SummaryCache::pathFor(const std::string &Key) const {
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, Key.substr(0, 2), Key + ".json");
  return Path.str().str();
}

std::optional<TuSummary> SummaryCache::lookup(const std::string &Key) const {
  if (!enabled())
    return std::nullopt;
  std::optional<std::string> Text = readFile(pathFor(Key));
  if (!Text)
    return std::nullopt;
  std::string Error;
  std::optional<TuSummary> S = readSummary(*Text, Error);
  if (!S)
    return std::nullopt; // another version's, or damaged: parse again and overwrite it
  for (const auto &[Path, Hash] : S->Inputs)
    if (inputHash(Path) != Hash)
      return std::nullopt;
  return S;
}

std::optional<std::string> SummaryCache::inputHash(const std::string &Path) const {
  {
    std::lock_guard<std::mutex> Guard(HashesLock);
    if (auto It = InputHashes.find(Path); It != InputHashes.end())
      return It->second;
  }
  std::optional<std::string> Content = readFile(Path);
  std::optional<std::string> Hash = Content ? std::optional<std::string>(contentHash(*Content)) : std::nullopt;
  std::lock_guard<std::mutex> Guard(HashesLock);
  return InputHashes.emplace(Path, std::move(Hash)).first->second;
}

void SummaryCache::store(const std::string &Key, const TuSummary &S) {
  if (!enabled())
    return;
  std::string Error;
  if (writeFileIfChanged(pathFor(Key), writeSummary(S), Error) == WriteOutcome::Failed && !WarnedStore) {
    llvm::errs() << "lockwright: warning: cannot write to the summary cache (" << Error
                 << "); every run parses every file\n";
    WarnedStore = true;
  }
}

std::string defaultCacheDir() {
  llvm::SmallString<256> Path;
  if (std::optional<std::string> Xdg = llvm::sys::Process::GetEnv("XDG_CACHE_HOME"); Xdg && !Xdg->empty())
    Path = *Xdg;
  else if (std::optional<std::string> Home = llvm::sys::Process::GetEnv("HOME"); Home && !Home->empty())
    llvm::sys::path::append(Path, *Home, ".cache");
  else
    return "";
  llvm::sys::path::append(Path, "lockwright");
  return Path.str().str();
}

std::string treeHash(const std::string &Dir) {
  std::vector<std::string> Files;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC))
    if (It->type() == llvm::sys::fs::file_type::regular_file)
      Files.push_back(It->path());
  std::sort(Files.begin(), Files.end());
  std::string Text;
  for (const std::string &F : Files)
    Text += F + '\0' + contentHash(readFile(F).value_or("")) + '\0';
  return contentHash(Text);
}

std::string summaryFileName(const std::string &Source, const std::string &Arch) {
  std::string Name;
  for (char C : Source)
    Name += (C == '/' || C == '\\' || C == ':') ? '_' : C;
  while (!Name.empty() && Name.front() == '_')
    Name.erase(Name.begin());
  return Name + (Arch.empty() ? "" : "." + Arch) + ".lwsum.json";
}

namespace {

std::optional<SampleProfile> loadSampleProfile(const std::string &Path) {
  std::optional<std::string> Text =
      llvm::sys::fs::is_directory(Path) ? std::nullopt : readFile(Path);
  if (!Text) {
    llvm::errs() << "lockwright: error: --sample-profile " << Path << ": cannot read it: "
                 << (llvm::sys::fs::is_directory(Path) ? "a directory" : std::strerror(errno)) << "\n";
    return std::nullopt;
  }
  std::string Error;
  std::optional<SampleProfile> Profile = readSampleProfile(*Text, Error);
  if (!Profile) {
    llvm::errs() << Path << ":" << Error.substr(0, Error.find(": ")) << ": error: "
                 << Error.substr(Error.find(": ") + 2) << "\n";
    return std::nullopt;
  }
  Profile->Path = Path;
  return Profile;
}

} // namespace

int profileFromOptions(bool Given, const std::string &Path, bool ShareGiven, double Share, const char *Command,
                       std::optional<SampleProfile> &Profile) {
  if (ShareGiven && !Given) {
    llvm::errs() << "lockwright: error: " << Command << "--hot-share needs --sample-profile=FILE\n";
    return 2;
  }
  if (!(Share >= 0 && Share <= 1)) {
    llvm::errs() << "lockwright: error: " << Command << "--hot-share must be a share from 0 to 1, not " << Share
                 << "\n";
    return 2;
  }
  if (Given && Path.empty()) {
    llvm::errs() << "lockwright: error: " << Command << "--sample-profile needs a file\n";
    return 2;
  }
  if (Given && !(Profile = loadSampleProfile(Path)))
    return 1;
  if (Profile)
    Profile->HotShare = Share;
  return 0;
}

std::vector<Finding> reduceProgram(const std::vector<const TuSummary *> &Summaries, unsigned &Suppressed,
                                   const SampleProfile *Profile, bool Quiet) {
  std::vector<Finding> Out;
  if (Summaries.empty())
    return Out;
  ProgramSummary Program;
  for (const TuSummary *S : Summaries)
    Program.add(*S);
  Program.inheritCallerLocks();
  Program.coolWritersCalledOnlyFromCold();
  Program.assignThreadRoles();
  if (Profile) {
    ProfileMatch Match = Program.coolWritersOffProfile(*Profile);
    if (Match.Writers && !Match.Ran)
      llvm::errs() << "lockwright: warning: --sample-profile " << Profile->Path << ": the profile saw none of the "
                   << Match.Writers << " functions that write the checked records' fields run (a profile of "
                   << "another program?); it is not applied\n";
    else if (!Quiet && !Match.Writers)
      llvm::errs() << "lockwright: --sample-profile " << Profile->Path << ": every function that writes the "
                   << "checked records' fields is a header's or a lambda, which a profile cannot judge\n";
    else if (!Quiet)
      llvm::errs() << "lockwright: --sample-profile " << Profile->Path << ": " << Match.Ran << " of the "
                   << Match.Writers << " functions that write the checked records' fields ran in it\n";
  }
  // Each TU was checked with its own config (.lockwright.yaml per directory): a check runs
  // when any TU's enables it, and a finding stays when the config of the TU whose main file
  // holds it enables it (in a header: the first TU's that does), at that TU's level.
  std::vector<std::pair<CheckFilter, CheckFilter>> Configs; // (enabled, as errors) per summary
  for (const TuSummary *S : Summaries)
    Configs.emplace_back(CheckFilter(S->Checks), CheckFilter(S->WarningsAsErrors));
  std::map<std::string, size_t> ByMainFile;
  for (size_t I = 0; I < Summaries.size(); ++I)
    ByMainFile.emplace(Summaries[I]->File, I);
  for (const CheckInfo &C : allChecks()) {
    if (!C.JudgeProgram)
      continue;
    std::optional<size_t> AnyEnabling;
    for (size_t I = 0; I < Summaries.size() && !AnyEnabling; ++I)
      if (Configs[I].first.enabled(C.Name))
        AnyEnabling = I;
    if (!AnyEnabling)
      continue;
    std::vector<Finding> Found;
    C.JudgeProgram(Program, Finding::Level::Warning, Found, Suppressed);
    for (Finding &F : Found) {
      auto Main = ByMainFile.find(F.At.File);
      size_t Owner = Main != ByMainFile.end() ? Main->second : *AnyEnabling;
      if (!Configs[Owner].first.enabled(C.Name))
        continue;
      if (!Summaries[Owner]->WarningsAsErrors.empty() && Configs[Owner].second.enabled(C.Name))
        F.Severity = Finding::Level::Error;
      Out.push_back(std::move(F));
    }
  }
  return Out;
}

void printFindings(CheckDiagnostics &Consumer, const std::vector<const std::vector<Finding> *> &Findings) {
  auto Opts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  Opts->ShowColors = false;
  FindingPrinter Printer(Opts.get(), Consumer);
  for (const std::vector<Finding> *List : Findings)
    for (const Finding &F : *List)
      Printer.print(F);
}

std::vector<SarifRule> sarifRules(const char *Argv0) {
  std::vector<SarifRule> Rules;
  std::string DocsDir = defaultDocsDir(Argv0);
  for (const CheckInfo &C : allChecks())
    Rules.push_back(sarifRule(C.Name, C.Summary, DocsDir, LOCKWRIGHT_DOCS_URL));
  Rules.push_back({NolintCheckName, "a NOLINTBEGIN or NOLINTEND comment that matches none", "", "", "", "error"});
  Rules.push_back({TimeoutCheckName, "a file given up on after --timeout: it was not checked", "", "", "", "error"});
  Rules.push_back({"clang-diagnostic-error", "the compiler's error: the file was not checked", "", "", "", "error"});
  return Rules;
}

/// Writes a report the user named (--sarif, --export-fixes, --baseline): into an existing
/// directory only (a typo must not create /nonexistent/dir), and never to stdout, which keeps
/// the text. Says what went wrong under Option's name.
bool writeReport(const std::string &Path, const std::string &Content, const char *Option) {
  std::string Error;
  llvm::SmallString<256> Parent(absolutePath(Path));
  llvm::sys::path::remove_filename(Parent);
  if (Path == "-")
    Error = "stdout keeps the text output; name a file";
  else if (!llvm::sys::fs::is_directory(Parent))
    Error = "no directory '" + Parent.str().str() + "' to write '" + Path + "' in";
  else if (llvm::sys::fs::is_directory(Path))
    Error = "'" + Path + "' is a directory";
  else if (writeFileIfChanged(Path, Content, Error) != WriteOutcome::Failed)
    return true;
  llvm::errs() << "lockwright: error: " << Option << ": " << Error << "\n";
  return false;
}

int runReportTool(const char *Argv0, const std::vector<std::string> &Args) {
  std::vector<std::string> Dirs;
  bool Quiet = false;
  std::string SarifPath, SarifRoot, ProfilePath;
  double HotShare = SampleProfile::DefaultHotShare;
  bool ProfileGiven = false, HotShareGiven = false;
  for (const std::string &A : Args) {
    if (A == "-h" || A == "--help") {
      llvm::outs() << "usage: lockwright report [--quiet] [--sarif=FILE [--sarif-root=DIR]]\n"
                      "                        [--sample-profile=FILE [--hot-share=SHARE]] DIR|SUMMARY...\n\n"
                      "The reduce step of `lockwright check`: prints the findings recorded in the summaries that\n"
                      "`lockwright check --summaries DIR` wrote (one per translation unit), and the findings of\n"
                      "the checks judged on the whole program, each once. --sarif also writes them to FILE as\n"
                      "one SARIF 2.1.0 document, paths relative to --sarif-root (default: the current directory).\n"
                      "--sample-profile reads a profile of the program (perf script output or folded stacks):\n"
                      "fields written only by functions it never saw run (or on fewer than --hot-share of its\n"
                      "samples) do not false-share (docs/profiles.md).\n\n"
                      "exit status: 0 no error; 1 a compiler error, a --warnings-as-errors finding, or an\n"
                      "unreadable summary; 2 a usage error\n";
      return 0;
    }
    llvm::StringRef Arg(A);
    if (A == "--quiet")
      Quiet = true;
    else if (Arg.consume_front("--sarif="))
      SarifPath = Arg.str();
    else if (Arg.consume_front("--sarif-root="))
      SarifRoot = Arg.str();
    else if (Arg.consume_front("--sample-profile=")) {
      ProfilePath = Arg.str();
      ProfileGiven = true;
    } else if (Arg.consume_front("--hot-share=")) {
      HotShareGiven = true;
      char *End = nullptr;
      std::string Text = Arg.str();
      HotShare = std::strtod(Text.c_str(), &End);
      if (Text.empty() || *End || !(HotShare >= 0 && HotShare <= 1)) {
        llvm::errs() << "lockwright: error: --hot-share must be a share from 0 to 1, not '" << Text << "'\n";
        return 2;
      }
    }
    else if (!A.empty() && A[0] == '-') {
      llvm::errs() << "lockwright: error: report: unknown option '" << A << "'\n";
      return 2;
    } else
      Dirs.push_back(A);
  }
  if (Dirs.empty()) {
    llvm::errs() << "lockwright: error: report: no summary directory given\n";
    return 2;
  }
  std::optional<SampleProfile> Profile;
  if (int Status = profileFromOptions(ProfileGiven, ProfilePath, HotShareGiven, HotShare, "report: ", Profile))
    return Status;
  std::vector<TuSummary> Summaries;
  int Failures = 0;
  for (const std::string &Dir : Dirs) {
    std::vector<std::string> Files;
    std::error_code EC;
    if (llvm::sys::fs::is_regular_file(Dir)) {
      Files.push_back(Dir); // a summary named on its own (a build system lists its outputs)
    } else {
      for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC))
        if (llvm::StringRef(It->path()).ends_with(".lwsum.json"))
          Files.push_back(It->path());
    }
    if (EC) {
      llvm::errs() << "lockwright: error: report: cannot read '" << Dir << "': " << EC.message() << "\n";
      return 1;
    }
    std::sort(Files.begin(), Files.end());
    for (const std::string &F : Files) {
      std::string Error;
      std::optional<std::string> Text = readFile(F);
      std::optional<TuSummary> S = Text ? readSummary(*Text, Error) : std::nullopt;
      if (!S) {
        llvm::errs() << "lockwright: error: " << F << ": " << (Text ? Error : "cannot read") << "\n";
        ++Failures;
        continue;
      }
      Summaries.push_back(std::move(*S));
    }
  }
  // The order of a check run over the same files: by source, then by target.
  std::stable_sort(Summaries.begin(), Summaries.end(), [](const TuSummary &A, const TuSummary &B) {
    return std::tie(A.File, A.Target.Label) < std::tie(B.File, B.Target.Label);
  });
  std::vector<const TuSummary *> All;
  std::vector<const std::vector<Finding> *> Lists;
  unsigned Suppressed = 0;
  for (const TuSummary &S : Summaries) {
    All.push_back(&S);
    Lists.push_back(&S.Findings);
    Suppressed += S.Suppressed;
  }
  std::vector<Finding> Program = reduceProgram(All, Suppressed, Profile ? &*Profile : nullptr, Quiet);
  Lists.push_back(&Program);
  // Paths as the summaries spell them: absolute and real, or relative to the directory the map
  // step ran in (--relative-paths), which is where the report runs.
  auto Opts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  Opts->ShowColors = false;
  CheckDiagnostics Consumer(Opts.get());
  printFindings(Consumer, Lists);
  if (!SarifPath.empty()) {
    // Each finding once (a header's, met by several TUs), in the order printed.
    SarifOptions Sarif;
    Sarif.Root = absolutePath(SarifRoot.empty() ? "." : SarifRoot);
    // Summaries written with --relative-paths name files relative to where the map step ran
    // (a Bazel execution root, different in each sandbox): without --sarif-root, the document
    // does not pin SRCROOT to this directory.
    Sarif.DeclareRoot = !SarifRoot.empty() || std::all_of(Summaries.begin(), Summaries.end(), [](const TuSummary &S) {
                          return llvm::sys::path::is_absolute(S.File);
                        });
    Sarif.ToolVersion = LOCKWRIGHT_VERSION;
    Sarif.Rules = sarifRules(Argv0);
    Sarif.ExecutionSuccessful = std::none_of(Summaries.begin(), Summaries.end(),
                                             [](const TuSummary &S) { return S.CompileErrors; });
    SourceOffsets Offsets;
    Fingerprinter Prints(Sarif.Root, Offsets);
    std::set<std::tuple<std::string, SourcePoint, std::string>> Seen;
    std::vector<ReportedFinding> Reported;
    for (const std::vector<Finding> *List : Lists)
      for (const Finding &F : *List)
        if (Seen.insert({F.Check, F.At, F.Message}).second)
          Reported.push_back({&F, "", Prints.next(F)});
    if (!writeReport(SarifPath, sarifDocument(Reported, Sarif, Offsets), "--sarif"))
      ++Failures;
  }
  if (!Quiet)
    llvm::errs() << "lockwright: " << Consumer.Warnings << " warning" << (Consumer.Warnings == 1 ? "" : "s") << ", "
                 << Consumer.Errors << " error" << (Consumer.Errors == 1 ? "" : "s") << " in " << Summaries.size()
                 << " summar" << (Summaries.size() == 1 ? "y" : "ies")
                 << (Suppressed ? " (" + std::to_string(Suppressed) + " suppressed by NOLINT)" : "") << "\n";
  return Failures || Consumer.Errors ? 1 : 0;
}

} // namespace lockwright
