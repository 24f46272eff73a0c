// `lockwright check`: clang-tidy's command line and conventions over the
// layout checks. Each translation unit is parsed for its own target (or the
// --arch given, or every architecture with --arch all) and judged against the
// spec of that architecture; a TU that fails to compile does not stop the others.
// This is the driver (options, database expansion, one pass per architecture); the per-TU
// runner is CheckRunner, printing is CheckDiagnostics and --fix is FixApplier.
#include "CheckTool.h"

#include "CheckContext.h"
#include "CheckDiagnostics.h"
#include "CheckRegistry.h"
#include "CheckRunner.h"
#include "FixApplier.h"
#include "ParseTarget.h"
#include "api/ApiNames.h"

#include "CommandHelp.h"
#include "LockwrightConfig.h"
#include "spec/SpecLoader.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/Timer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace clang;
using namespace clang::tooling;

namespace lockwright {

namespace {

llvm::cl::OptionCategory CheckCategory("lockwright check options");

const std::string ChecksHelp = std::string("Comma-separated globs of checks to run; '-' removes (default '") +
                               DefaultChecks + "': the pairing barrier checks are opt-in)";
llvm::cl::opt<std::string> ChecksOpt("checks", llvm::cl::desc(ChecksHelp), llvm::cl::init(DefaultChecks),
                                     llvm::cl::cat(CheckCategory));
llvm::cl::opt<bool> ListChecksOpt("list-checks", llvm::cl::desc("List the enabled checks and exit"),
                                  llvm::cl::cat(CheckCategory));
llvm::cl::opt<std::string> ArchOpt("arch", llvm::cl::desc("Judge against this architecture's spec instead of the "
                                                          "TU's target; 'all' judges against every spec"),
                                   llvm::cl::cat(CheckCategory));
llvm::cl::opt<std::string> CpuOpt("cpu", llvm::cl::desc("CPU variant of the architecture"), llvm::cl::cat(CheckCategory));
llvm::cl::opt<std::string> SpecDirOpt("spec-dir", llvm::cl::desc("Directory with arch/ and api/ specs"),
                                      llvm::cl::cat(CheckCategory));
llvm::cl::opt<bool> FixOpt("fix", llvm::cl::desc("Apply the suggested fixes: all of a file's, or none of them "
                                                 "when any two conflict"),
                           llvm::cl::cat(CheckCategory));
llvm::cl::opt<std::string> WarningsAsErrorsOpt("warnings-as-errors",
                                               llvm::cl::desc("Globs of checks whose warnings are errors (exit 1)"),
                                               llvm::cl::cat(CheckCategory));
// LLVM's own -h matches any unknown option that starts with it (`--hx`, `--header-filter=.*`): it
// printed the help and exited 0, checking nothing. This -h replaces it and matches only itself.
llvm::cl::opt<bool> ShortHelpOpt("h", llvm::cl::desc("Alias for --help"), llvm::cl::cat(CheckCategory));
// clang-tidy users pass these in CI.
llvm::cl::opt<std::string> HeaderFilterOpt("header-filter",
                                           llvm::cl::desc("Regular expression: report findings in headers whose "
                                                          "path matches (default: every non-system header); the "
                                                          "main file's are always reported"),
                                           llvm::cl::cat(CheckCategory));
llvm::cl::opt<std::string> ExcludeHeaderFilterOpt("exclude-header-filter",
                                                  llvm::cl::desc("Regular expression: do not report findings in "
                                                                 "headers whose path matches"),
                                                  llvm::cl::cat(CheckCategory));
llvm::cl::opt<bool> QuietOpt("quiet", llvm::cl::desc("No summary line"), llvm::cl::cat(CheckCategory));
llvm::cl::opt<bool> ProfileOpt("enable-check-profile",
                               llvm::cl::desc("Print where the time went: the compiler front end, the sync-object "
                                              "model, each check"),
                               llvm::cl::cat(CheckCategory));
llvm::cl::opt<bool> DumpOrderingOpt("dump-ordering",
                                    llvm::cl::desc("Print each function's ordering events and the writer/reader "
                                                   "pairs the barrier checks judge (to stdout)"),
                                    llvm::cl::cat(CheckCategory));
llvm::cl::list<std::string> LockTypesOpt("lock-type", llvm::cl::desc("Also treat this type name as a lock ('*' globs)"),
                                         llvm::cl::cat(CheckCategory));
llvm::cl::list<std::string> AtomicTypesOpt("atomic-type",
                                           llvm::cl::desc("Also treat this type name as an atomic ('*' globs)"),
                                           llvm::cl::cat(CheckCategory));
llvm::cl::list<std::string> CheckOptionOpt("check-option",
                                           llvm::cl::desc("NAME.Option=VALUE: set one check's option, as "
                                                          "clang-tidy's CheckOptions (see each check's page)"),
                                           llvm::cl::cat(CheckCategory));
llvm::cl::opt<bool> OverPaddingOpt("report-over-padding",
                                   llvm::cl::desc("layout-hardcoded-line-size: also report padding above the "
                                                  "destructive size"),
                                   llvm::cl::cat(CheckCategory));
llvm::cl::opt<std::string> PaddingConstantOpt("padding-constant",
                                              llvm::cl::desc("Name fix-its write instead of the destructive size "
                                                             "(e.g. LW_DESTRUCTIVE_SIZE)"),
                                              llvm::cl::cat(CheckCategory));

const char Overview[] =
    "Layout checks for lock code, judged against lockwright's architecture specs.\n"
    "Diagnostics are clang's: file:line:col: warning: message [check-name], with notes.\n";

/// --help in the shape of the other subcommands' (usage lines, what it does, options, exit
/// status), rather than LLVM's OVERVIEW/USAGE/OPTIONS.
void printHelp() {
  llvm::outs() << "usage: lockwright check [options] SOURCE... [-- COMPILER ARGS]\n"
                  "       lockwright check [options] -p BUILD_DIR [SOURCE...]\n\n"
               << Overview << "\noptions:\n";
  std::vector<std::pair<std::string, std::string>> Rows;
  for (const auto &Entry : llvm::cl::getRegisteredOptions()) {
    const llvm::cl::Option *O = Entry.getValue();
    if (O->ArgStr.empty() || O->getOptionHiddenFlag() != llvm::cl::NotHidden ||
        std::find(O->Categories.begin(), O->Categories.end(), &CheckCategory) == O->Categories.end())
      continue;
    std::string Spelling = (O->ArgStr.size() == 1 ? "-" : "--") + O->ArgStr.str() +
                           (O->getValueExpectedFlag() == llvm::cl::ValueRequired ? "=<value>" : "");
    Rows.push_back({Spelling, O->HelpStr.str()});
  }
  std::sort(Rows.begin(), Rows.end());
  Rows.erase(std::unique(Rows.begin(), Rows.end()), Rows.end());
  for (const auto &[Spelling, Help] : Rows)
    llvm::outs() << "  " << llvm::left_justify(Spelling, 30) << " " << Help << "\n";
  llvm::outs() << "  " << llvm::left_justify("-p <build-path>", 30) << " the directory of compile_commands.json\n"
               << "  " << llvm::left_justify("--extra-arg=<string>", 30) << " an argument to append to each compile command\n"
               << ExitStatusHelp;
}

/// Whether Args holds option Name, in any of its spellings.
bool given(const std::vector<std::string> &Args, llvm::StringRef Name) {
  return std::any_of(Args.begin(), Args.end(), [&](llvm::StringRef A) {
    return A == "-" + Name.str() || A == "--" + Name.str() || A.starts_with("-" + Name.str() + "=") ||
           A.starts_with("--" + Name.str() + "=");
  });
}

/// Parses the command line as clang-tidy does. As run-clang-tidy, -p and no sources checks
/// every file of compile_commands.json: the parse is redone with them named, so that
/// --extra-arg and friends apply as usual. On a usage error, says so and returns nullopt.
std::optional<CommonOptionsParser> parseCommandLine(const std::vector<std::string> &Args) {
  std::vector<std::string> Storage = {"lockwright check"};
  Storage.insert(Storage.end(), Args.begin(), Args.end());
  for (std::string &S : Storage) // -h is --help (ShortHelpOpt only keeps LLVM's -h from matching more)
    if (S == "-h" || S == "--h")
      S = "--help";
  auto Parse = [&](llvm::cl::NumOccurrencesFlag Sources) -> std::optional<CommonOptionsParser> {
    std::vector<const char *> Argv;
    for (const std::string &S : Storage)
      Argv.push_back(S.c_str());
    int Argc = static_cast<int>(Argv.size());
    auto Parser = CommonOptionsParser::create(Argc, Argv.data(), CheckCategory, Sources, Overview);
    if (!Parser) {
      llvm::errs() << llvm::toString(Parser.takeError());
      return std::nullopt;
    }
    return std::move(*Parser);
  };
  bool ListOnly = given(Args, "list-checks");
  std::optional<CommonOptionsParser> Parser =
      Parse(ListOnly || given(Args, "p") ? llvm::cl::ZeroOrMore : llvm::cl::OneOrMore);
  if (!Parser || !Parser->getSourcePathList().empty() || ListOnly)
    return Parser;
  std::string BuildPath, Error;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if ((A == "-p" || A == "--p") && I + 1 < Args.size())
      BuildPath = Args[I + 1];
    else if (A.consume_front("-p=") || A.consume_front("--p="))
      BuildPath = A.str();
  }
  std::unique_ptr<CompilationDatabase> Database = CompilationDatabase::autoDetectFromDirectory(BuildPath, Error);
  if (!Database) {
    llvm::errs() << "lockwright: error: " << Error << "\n";
    return std::nullopt;
  }
  std::vector<std::string> AllFiles = Database->getAllFiles();
  if (AllFiles.empty()) {
    llvm::errs() << "lockwright: error: the compilation database in '" << BuildPath << "' lists no files\n";
    return std::nullopt;
  }
  Storage.insert(std::find(Storage.begin(), Storage.end(), "--"), AllFiles.begin(), AllFiles.end());
  return Parse(llvm::cl::OneOrMore);
}

/// --list-checks: the enabled checks, one a line; none enabled is an error.
int listChecks(const CheckFilter &Filter) {
  llvm::outs() << "Enabled checks:\n";
  unsigned N = 0;
  for (const CheckInfo &C : allChecks())
    if (Filter.enabled(C.Name)) {
      llvm::outs() << "    " << C.Name << "  " << C.Summary << "\n";
      ++N;
    }
  if (N == 0) {
    llvm::errs() << "lockwright: error: no checks enabled\n";
    return 1;
  }
  return 0;
}

/// The checks' options from the command line; an invalid header filter is a usage error.
std::optional<CheckOptions> checkOptionsFromCommandLine() {
  CheckOptions Options;
  Options.Checks = ChecksOpt;
  Options.WarningsAsErrors = WarningsAsErrorsOpt;
  for (auto [Opt, Into] : {std::pair{&HeaderFilterOpt, &Options.HeaderFilter},
                           std::pair{&ExcludeHeaderFilterOpt, &Options.ExcludeHeaderFilter}}) {
    if (Opt->getNumOccurrences() == 0)
      continue;
    std::string Why;
    if (!llvm::Regex(Opt->getValue()).isValid(Why)) {
      llvm::errs() << "lockwright: error: --" << Opt->ArgStr << ": invalid regular expression '" << Opt->getValue()
                   << "': " << Why << "\n";
      return std::nullopt;
    }
    *Into = Opt->getValue();
  }
  // The older spellings of layout-hardcoded-line-size's options.
  if (OverPaddingOpt)
    Options.PerCheck["layout-hardcoded-line-size.ReportOverPadding"] = "true";
  if (!PaddingConstantOpt.empty())
    Options.PerCheck["layout-hardcoded-line-size.PaddingConstant"] = PaddingConstantOpt;
  std::vector<std::string> Known;
  for (const CheckInfo &C : allChecks())
    for (const std::string &O : C.Options)
      Known.push_back(C.Name + "." + O);
  for (const std::string &Setting : CheckOptionOpt) {
    size_t Eq = Setting.find('=');
    std::string Key = Setting.substr(0, Eq);
    if (Eq == std::string::npos || std::find(Known.begin(), Known.end(), Key) == Known.end()) {
      llvm::errs() << "lockwright: error: --check-option=" << Setting << ": "
                   << (Eq == std::string::npos ? "expected NAME.Option=VALUE"
                                               : "unknown check option '" + Key + "'" + didYouMean(Key, Known))
                   << "\n";
      return std::nullopt;
    }
    Options.PerCheck[Key] = Setting.substr(Eq + 1);
  }
  return Options;
}

} // namespace

int runCheckTool(const char *Argv0, const std::vector<std::string> &Args) {
  auto Ours = std::find(Args.begin(), Args.end(), "--"); // after it, the compiler's arguments
  if (std::any_of(Args.begin(), Ours, [](const std::string &A) {
        return A == "-h" || A == "--h" || A == "-help" || A == "--help";
      })) {
    printHelp();
    return 0;
  }
  std::optional<CommonOptionsParser> Parser = parseCommandLine(Args);
  if (!Parser)
    return 2;
  const std::vector<std::string> &Files = Parser->getSourcePathList();

  CheckFilter Filter(ChecksOpt);
  for (const std::string &Unmatched : Filter.unmatched())
    llvm::errs() << "lockwright: warning: '" << Unmatched << "' in --checks matches no check\n";
  if (ListChecksOpt)
    return listChecks(Filter);
  if (std::none_of(allChecks().begin(), allChecks().end(), [&](const CheckInfo &C) { return Filter.enabled(C.Name); })) {
    llvm::errs() << "lockwright: error: no checks enabled\n";
    return 1;
  }

  if (!CpuOpt.empty() && ArchOpt.empty()) {
    // As `gen`: a CPU variant belongs to an architecture, and the TU's own may have none.
    llvm::errs() << "lockwright: error: --cpu needs --arch\n";
    return 2;
  }
  SpecRepository Repo({SpecDirOpt.empty() ? defaultSpecDir(Argv0) : SpecDirOpt.getValue()});
  DiagnosticList Diags;
  std::vector<ApiSpec> Apis = Repo.loadApis(Diags);
  if (Diags.hasErrors()) {
    Diags.print(stderr);
    return 1;
  }
  ApiNames Names = ApiNames::fromSpecs(Apis, LockTypesOpt, AtomicTypesOpt);
  std::optional<CheckOptions> Options = checkOptionsFromCommandLine();
  if (!Options)
    return 2;

  // One pass per architecture judged: the TU's own, the one --arch names, or all of them.
  std::vector<std::string> Arches;
  if (ArchOpt == "all") {
    for (const std::string &A : Repo.archNames())
      if (A != "generic")
        Arches.push_back(A);
  } else if (!ArchOpt.empty()) {
    Arches.push_back(ArchOpt);
  } else {
    Arches.push_back("");
  }

  IntrusiveRefCntPtr<DiagnosticOptions> DiagOpts = new DiagnosticOptions();
  DiagOpts->ShowColors = false;
  // As clang-tidy: a database spells files relative to each entry's directory, and
  // "serial.c:221" would not say which of several serial.c files is meant.
  DiagOpts->AbsolutePath = true;
  CheckDiagnostics Consumer(DiagOpts.get());
  int ToolFailures = 0;
  RunState State;
  State.Profiling = ProfileOpt;
  State.DumpOrdering = DumpOrderingOpt;
  llvm::TimeRecord RunStart = llvm::TimeRecord::getCurrentTime(true);
  State.Names = &Names;
  State.Options = &*Options;
  State.Repo = &Repo;
  std::vector<ResolvedSpec> Forced;
  Forced.reserve(Arches.size());
  for (const std::string &Arch : Arches) {
    State.Forced = nullptr;
    State.LayoutNote.clear();
    std::vector<std::string> Target;
    if (!Arch.empty()) {
      DiagnosticList SpecDiags;
      std::optional<ResolvedSpec> Spec = Repo.resolve(Arch, ArchOpt == "all" ? "" : CpuOpt.getValue(), SpecDiags);
      if (!Spec) {
        SpecDiags.print(stderr);
        return Repo.names(Arch, ArchOpt == "all" ? "" : CpuOpt.getValue()) ? 1 : 2; // a name the user got wrong: usage
      }
      Forced.push_back(std::move(*Spec));
      State.Forced = &Forced.back();
      ParseTarget How = parseTargetFor(*State.Forced);
      Target = How.TargetFlags;
      if (!How.WhyHost.empty())
        State.LayoutNote = How.WhyHost + ": offsets and sizes are those of the host (" LOCKWRIGHT_HOST_TRIPLE ")";
      else
        State.LayoutNote = How.Note;
    }
    std::unique_ptr<FrontendActionFactory> Factory = makeCheckActionFactory(State);
    // One ClangTool, and so one FileManager, per source: a shared one caches
    // files by the relative names compile commands use ("./validate.h"), which
    // name different files in different directories of one database.
    for (size_t I = 0; I < Files.size(); ++I) {
      if (Files.size() > 1 && !QuietOpt)
        llvm::errs() << "[" << I + 1 << "/" << Files.size() << "] " << Files[I]
                     << (Arch.empty() ? "" : " (" + Arch + ")") << "\n";
      ClangTool Tool(Parser->getCompilations(), {Files[I]});
      Tool.setDiagnosticConsumer(&Consumer);
      if (!Target.empty())
        Tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(Target, ArgumentInsertPosition::BEGIN));
      ToolFailures |= Tool.run(Factory.get());
    }
  }
  State.SpecDiags.print(stderr);
  if (State.Profiling) {
    llvm::TimeRecord RunTime = llvm::TimeRecord::getCurrentTime(false);
    RunTime -= RunStart;
    printProfile(State, RunTime.getWallTime());
  }

  int FixFailures = FixOpt ? applyFixes(State.Fixes) : 0;
  if (!QuietOpt)
    llvm::errs() << "lockwright: " << Consumer.Warnings << " warning" << (Consumer.Warnings == 1 ? "" : "s") << ", "
                 << Consumer.Errors << " error" << (Consumer.Errors == 1 ? "" : "s") << " in "
                 << Files.size() << " file" << (Files.size() == 1 ? "" : "s")
                 << (State.Suppressed ? " (" + std::to_string(State.Suppressed) + " suppressed by NOLINT)" : "")
                 << "\n";
  return ToolFailures || Consumer.Errors || FixFailures || State.SpecDiags.hasErrors() ? 1 : 0;
}

} // namespace lockwright
