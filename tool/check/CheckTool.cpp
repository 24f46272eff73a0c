// `lockwright check`: clang-tidy's command line and conventions over the
// layout checks. Each translation unit is parsed for its own target (or the
// --arch given, or every architecture with --arch all) and judged against the
// spec of that architecture; a TU that fails to compile does not stop the others.
#include "CheckTool.h"

#include "llvm/Support/Regex.h"

#include "CheckContext.h"
#include "CheckRegistry.h"
#include "Check.h"
#include "ParseTarget.h"
#include "analysis/ApiNames.h"
#include "analysis/SyncModel.h"

#include "LockwrightConfig.h"
#include "FileIO.h"
#include "spec/SpecLoader.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Timer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

using namespace clang;
using namespace clang::tooling;

namespace lockwright {

namespace {

llvm::cl::OptionCategory CheckCategory("lockwright check options");

llvm::cl::opt<std::string> ChecksOpt("checks", llvm::cl::desc("Comma-separated globs of checks to run; '-' removes "
                                                              "(default '*': every check)"),
                                     llvm::cl::init("*"), llvm::cl::cat(CheckCategory));
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
llvm::cl::list<std::string> LockTypesOpt("lock-type", llvm::cl::desc("Also treat this type name as a lock ('*' globs)"),
                                         llvm::cl::cat(CheckCategory));
llvm::cl::list<std::string> AtomicTypesOpt("atomic-type",
                                           llvm::cl::desc("Also treat this type name as an atomic ('*' globs)"),
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
    "Diagnostics are clang's: file:line:col: warning: message [check-name], with notes.\n"
    "Exit status 0 unless a TU fails to compile or --warnings-as-errors matches a warning.\n";

TargetFacts factsFor(const ResolvedSpec &Spec) {
  TargetFacts F;
  F.Spec = &Spec;
  F.Arch = Spec.Arch;
  F.Cpu = Spec.Cpu;
  F.L1Line = Spec.intFact("cache.l1_line.value");
  F.SmpLine = Spec.intFact("cache.smp_line.value");
  F.Destructive = Spec.intFact("cache.destructive.value");
  F.DestructiveSource = Spec.stringFact("cache.destructive.source");
  F.LockWordAlign = Spec.intFact("lock_word.align");
  F.LockWordSize = Spec.intFact("lock_word.size");
  F.LockWordSource = Spec.stringFact("lock_word.source");
  return F;
}

/// Prints our warnings and the compiler's errors; drops compiler warnings (as
/// clang-tidy does without clang-diagnostic-*) and repeats of a diagnostic
/// already printed for another TU (headers are parsed once per TU).
class CheckDiagnostics : public DiagnosticConsumer {
public:
  explicit CheckDiagnostics(DiagnosticOptions *Opts) : Printer(llvm::outs(), Opts) {}

  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    // The "N warnings generated." line after each TU counts that TU only.
    NumWarnings = NumErrors = 0;
    Printer.BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Printer.EndSourceFile(); }

  void HandleDiagnostic(DiagnosticsEngine::Level Level, const clang::Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    bool Ours = isOurs(Info);
    if (Level == DiagnosticsEngine::Note) {
      if (PrintingCurrent)
        Printer.HandleDiagnostic(Level, Info);
      return;
    }
    PrintingCurrent = Ours || Level >= DiagnosticsEngine::Error;
    if (!PrintingCurrent)
      return;
    SmallString<128> Text;
    Info.FormatDiagnostic(Text);
    std::string Key;
    if (Info.getLocation().isValid() && Info.hasSourceManager()) {
      // A header's finding is reported once per run, however each TU spells its path.
      const SourceManager &SM = Info.getSourceManager();
      PresumedLoc P = SM.getPresumedLoc(Info.getLocation());
      if (P.isValid()) {
        std::string File = P.getFilename();
        if (OptionalFileEntryRef Entry = SM.getFileEntryRefForID(SM.getFileID(SM.getFileLoc(Info.getLocation()))))
          if (!Entry->getFileEntry().tryGetRealPathName().empty())
            File = Entry->getFileEntry().tryGetRealPathName().str();
        Key = File + ":" + std::to_string(P.getLine()) + ":" + std::to_string(P.getColumn());
      }
    }
    Key += " " + Text.str().str();
    if (Ours && !Seen.insert(Key).second) {
      PrintingCurrent = false;
      return;
    }
    if (Ours && Level == DiagnosticsEngine::Warning)
      ++Warnings;
    else
      ++Errors; // compiler errors and warnings-as-errors
    Printer.HandleDiagnostic(Level, Info);
  }

  unsigned Warnings = 0, Errors = 0;

private:
  bool isOurs(const clang::Diagnostic &Info) const {
    // Our reports use custom IDs (DiagnosticIDs::isBuiltinDiag is false for them).
    return Info.getID() >= diag::DIAG_UPPER_LIMIT;
  }

  TextDiagnosticPrinter Printer;
  std::set<std::string> Seen;
  bool PrintingCurrent = false;
};

struct RunState {
  const ApiNames *Names = nullptr;
  const CheckOptions *Options = nullptr;
  SpecRepository *Repo = nullptr;
  const ResolvedSpec *Forced = nullptr; // --arch: every TU is judged against this spec
  std::string LayoutNote;           // set when --arch is parsed as the host, or freestanding
  std::vector<tooling::Replacement> Fixes;
  unsigned Suppressed = 0;
  std::map<std::string, ResolvedSpec> ByTriple;
  DiagnosticList SpecDiags;
  // --enable-check-profile: MatchFinder's per-check records, and our own buckets.
  bool Profiling = false;
  llvm::StringMap<llvm::TimeRecord> CheckTimes;
  llvm::TimeRecord ModelTime, MatchTime;
};

/// clang-tidy's --enable-check-profile, for lockwright: wall time per bucket, most first.
void printProfile(const RunState &State, double TotalWall) {
  std::vector<std::pair<std::string, double>> Rows;
  double Ours = State.ModelTime.getWallTime() + State.MatchTime.getWallTime();
  double InChecks = 0;
  for (const auto &Entry : State.CheckTimes) {
    Rows.push_back({"check " + Entry.getKey().str(), Entry.getValue().getWallTime()});
    InChecks += Entry.getValue().getWallTime();
  }
  Rows.push_back({"sync-object model (uses per function, macro arguments)", State.ModelTime.getWallTime()});
  Rows.push_back({"AST traversal outside the checks' matchers", std::max(0.0, State.MatchTime.getWallTime() - InChecks)});
  Rows.push_back({"compiler front end (preprocess, parse, sema) and driver", std::max(0.0, TotalWall - Ours)});
  std::sort(Rows.begin(), Rows.end(), [](const auto &A, const auto &B) { return A.second > B.second; });
  llvm::errs() << "===------------------------------------------------------------===\n"
               << "  lockwright check profile: " << llvm::format("%.3f", TotalWall) << " s wall\n"
               << "===------------------------------------------------------------===\n";
  for (const auto &[Name, Seconds] : Rows)
    llvm::errs() << llvm::format("  %8.4f s  %5.1f%%  ", Seconds, TotalWall > 0 ? 100 * Seconds / TotalWall : 0)
                 << Name << "\n";
}

class CheckConsumer : public ASTConsumer {
public:
  CheckConsumer(std::unique_ptr<SyncModel> Model, std::unique_ptr<TargetFacts> Target,
                std::unique_ptr<CheckContext> Ctx, std::vector<std::unique_ptr<Check>> Checks,
                std::unique_ptr<ast_matchers::MatchFinder> Finder, RunState &State)
      : Model(std::move(Model)), Target(std::move(Target)), Ctx(std::move(Ctx)), Checks(std::move(Checks)),
        Finder(std::move(Finder)), State(State) {}

  void HandleTranslationUnit(ASTContext &AST) override {
    if (AST.getDiagnostics().hasErrorOccurred())
      return; // the compiler's errors say it all; a broken AST would only add noise
    llvm::TimeRecord Start = llvm::TimeRecord::getCurrentTime(true);
    // Walk only what the user wrote: nothing in a system header is reported, and
    // libc's and libstdc++'s declarations were a fifth of the run on ck.
    const SourceManager &SM = AST.getSourceManager();
    std::vector<Decl *> UserDecls;
    for (Decl *D : AST.getTranslationUnitDecl()->decls())
      if (!SM.isInSystemHeader(SM.getFileLoc(D->getLocation())))
        UserDecls.push_back(D);
    AST.setTraversalScope(UserDecls);
    Model->collect();
    llvm::TimeRecord Collected = llvm::TimeRecord::getCurrentTime(true);
    Finder->matchAST(AST);
    llvm::TimeRecord Matched = llvm::TimeRecord::getCurrentTime(false);
    if (State.Profiling) {
      Collected -= Start;
      State.ModelTime += Collected;
      Matched -= Start;
      Matched -= Collected;
      State.MatchTime += Matched;
    }
    for (auto &C : Checks)
      C->onEndOfTranslationUnit();
    State.Suppressed += Ctx->suppressed();
  }

private:
  std::unique_ptr<SyncModel> Model;
  std::unique_ptr<TargetFacts> Target;
  std::unique_ptr<CheckContext> Ctx;
  std::vector<std::unique_ptr<Check>> Checks;
  std::unique_ptr<ast_matchers::MatchFinder> Finder;
  RunState &State;
};

class CheckAction : public ASTFrontendAction {
public:
  explicit CheckAction(RunState &State) : State(State) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef) override {
    const ResolvedSpec *Spec = State.Forced;
    std::string LayoutNoteText = State.LayoutNote;
    if (!Spec) {
      std::string Triple = CI.getTarget().getTriple().str();
      auto It = State.ByTriple.find(Triple);
      if (It == State.ByTriple.end()) {
        DiagnosticList Diags;
        std::optional<std::string> Arch = State.Repo->archForTriple(Triple, Diags);
        std::optional<ResolvedSpec> Resolved = State.Repo->resolve(Arch ? *Arch : "generic", "", Diags);
        if (!Resolved) {
          State.SpecDiags.append(Diags);
          return std::make_unique<ASTConsumer>();
        }
        It = State.ByTriple.emplace(Triple, std::move(*Resolved)).first;
        if (!Arch)
          LayoutNoteText = "no spec matches the target '" + Triple + "'; judged against generic";
      }
      Spec = &It->second;
    }
    auto Target = std::make_unique<TargetFacts>(factsFor(*Spec));
    Target->LayoutNote = LayoutNoteText;
    auto Model = std::make_unique<SyncModel>(*State.Names, CI.getASTContext());
    Preprocessor &PP = CI.getPreprocessor();
    PP.addPPCallbacks(Model->macroRecorder(PP));
    auto Ctx = std::make_unique<CheckContext>(CI.getASTContext(), *Model, *Target, *State.Options, &State.Fixes);
    ast_matchers::MatchFinder::MatchFinderOptions FinderOptions;
    if (State.Profiling)
      FinderOptions.CheckProfiling.emplace(State.CheckTimes);
    auto Finder = std::make_unique<ast_matchers::MatchFinder>(std::move(FinderOptions));
    std::vector<std::unique_ptr<Check>> Checks;
    CheckFilter Filter(State.Options->Checks);
    for (const CheckInfo &Info : allChecks()) {
      if (!Filter.enabled(Info.Name))
        continue;
      Checks.push_back(Info.Create(*Ctx));
      Checks.back()->registerMatchers(*Finder);
      Checks.back()->registerPPCallbacks(PP);
    }
    return std::make_unique<CheckConsumer>(std::move(Model), std::move(Target), std::move(Ctx), std::move(Checks),
                                           std::move(Finder), State);
  }

private:
  RunState &State;
};

class CheckActionFactory : public FrontendActionFactory {
public:
  explicit CheckActionFactory(RunState &State) : State(State) {}
  std::unique_ptr<FrontendAction> create() override { return std::make_unique<CheckAction>(State); }

private:
  RunState &State;
};

/// Applies each file's fixes all together, or none of them when two conflict.
int applyFixes(const std::vector<tooling::Replacement> &All) {
  std::map<std::string, std::vector<tooling::Replacement>> ByFile;
  for (const tooling::Replacement &R : All)
    ByFile[R.getFilePath().str()].push_back(R);
  int Failures = 0;
  for (auto &[File, List] : ByFile) {
    tooling::Replacements Merged;
    bool Conflict = false;
    std::set<std::tuple<unsigned, unsigned, std::string>> Unique;
    std::map<unsigned, std::string> Insertions;
    for (const tooling::Replacement &R : List) {
      if (!Unique.insert({R.getOffset(), R.getLength(), R.getReplacementText().str()}).second)
        continue;
      // Two different insertions at one point (alignas(64) and alignas(128) from two
      // architectures) would both land: for us that is a conflict, not a merge.
      if (R.getLength() == 0) {
        auto [It, New] = Insertions.emplace(R.getOffset(), R.getReplacementText().str());
        if (!New && It->second != R.getReplacementText()) {
          Conflict = true;
          break;
        }
      }
      if (llvm::Error E = Merged.add(R)) {
        llvm::consumeError(std::move(E));
        Conflict = true;
        break;
      }
    }
    if (Conflict) {
      llvm::errs() << "lockwright: fixes for " << File << " conflict; none applied\n";
      ++Failures;
      continue;
    }
    auto Buffer = llvm::MemoryBuffer::getFile(File);
    if (!Buffer) {
      llvm::errs() << "lockwright: cannot read " << File << "\n";
      ++Failures;
      continue;
    }
    llvm::Expected<std::string> Fixed = tooling::applyAllReplacements((*Buffer)->getBuffer(), Merged);
    if (!Fixed) {
      llvm::errs() << "lockwright: cannot apply fixes to " << File << ": " << llvm::toString(Fixed.takeError())
                   << "\n";
      ++Failures;
      continue;
    }
    std::string Error;
    if (writeFileIfChanged(File, *Fixed, Error) == WriteOutcome::Failed) {
      llvm::errs() << "lockwright: " << Error << "\n";
      ++Failures;
      continue;
    }
    llvm::errs() << "lockwright: applied " << Merged.size() << " fix" << (Merged.size() == 1 ? "" : "es") << " to "
                 << File << "\n";
  }
  return Failures;
}

} // namespace

int runCheckTool(const char *Argv0, const std::vector<std::string> &Args) {
  std::vector<std::string> Storage = {"lockwright check"};
  Storage.insert(Storage.end(), Args.begin(), Args.end());
  for (std::string &S : Storage) // -h is --help (ShortHelpOpt only keeps LLVM's -h from matching more)
    if (S == "-h" || S == "--h")
      S = "--help";
  std::vector<const char *> Argv;
  for (const std::string &S : Storage)
    Argv.push_back(S.c_str());
  int Argc = static_cast<int>(Argv.size());

  auto Given = [&](llvm::StringRef Name) {
    return std::any_of(Args.begin(), Args.end(), [&](llvm::StringRef A) {
      return A == "-" + Name.str() || A == "--" + Name.str() || A.starts_with("-" + Name.str() + "=") ||
             A.starts_with("--" + Name.str() + "=");
    });
  };
  bool ListOnly = Given("list-checks"), WholeDatabase = Given("p");
  auto Parser = CommonOptionsParser::create(Argc, Argv.data(), CheckCategory,
                                            ListOnly || WholeDatabase ? llvm::cl::ZeroOrMore : llvm::cl::OneOrMore,
                                            Overview);
  if (!Parser) {
    llvm::errs() << llvm::toString(Parser.takeError());
    return 2;
  }
  if (Parser->getSourcePathList().empty() && !ListOnly) {
    // As run-clang-tidy: -p and no sources checks every file of compile_commands.json.
    // Parse again with them named, so that --extra-arg and friends apply as usual.
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
      return 2;
    }
    std::vector<std::string> AllFiles = Database->getAllFiles();
    if (AllFiles.empty()) {
      llvm::errs() << "lockwright: error: the compilation database in '" << BuildPath << "' lists no files\n";
      return 2;
    }
    auto DashDash = std::find(Storage.begin(), Storage.end(), "--");
    Storage.insert(DashDash, AllFiles.begin(), AllFiles.end());
    Argv.clear();
    for (const std::string &S : Storage)
      Argv.push_back(S.c_str());
    Argc = static_cast<int>(Argv.size());
    Parser = CommonOptionsParser::create(Argc, Argv.data(), CheckCategory, llvm::cl::OneOrMore, Overview);
    if (!Parser) {
      llvm::errs() << llvm::toString(Parser.takeError());
      return 2;
    }
  }
  const std::vector<std::string> &Files = Parser->getSourcePathList();

  CheckFilter Filter(ChecksOpt);
  for (const std::string &Unmatched : Filter.unmatched())
    llvm::errs() << "lockwright: warning: '" << Unmatched << "' in --checks matches no check\n";
  if (ListChecksOpt) {
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
      return 2;
    }
    *Into = Opt->getValue();
  }
  Options.ReportOverPadding = OverPaddingOpt;
  Options.PaddingConstant = PaddingConstantOpt;

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
  llvm::TimeRecord RunStart = llvm::TimeRecord::getCurrentTime(true);
  State.Names = &Names;
  State.Options = &Options;
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
    CheckActionFactory Factory(State);
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
      ToolFailures |= Tool.run(&Factory);
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
