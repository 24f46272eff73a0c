// `lockwright check`: clang-tidy's command line and conventions over the
// layout checks. Each translation unit is parsed for its own target (or the
// --arch given, or every architecture with --arch all) and judged against the
// spec of that architecture; a TU that fails to compile does not stop the others.
// This is the driver (options, database expansion, one pass per architecture); the per-TU
// runner is CheckRunner, printing is CheckDiagnostics and --fix is FixApplier.
#include "CheckTool.h"

#include "CheckConfig.h"
#include "CheckContext.h"
#include "CheckDiagnostics.h"
#include "CheckRegistry.h"
#include "CheckRunner.h"
#include "FixApplier.h"
#include "ParseTarget.h"
#include "ProgramRun.h"
#include "output/ArchMerge.h"
#include "summary/FromClang.h"
#include "output/LineFilter.h"
#include "output/ReportedFinding.h"
#include "output/Sarif.h"
#include "FileIO.h"
#include "api/ApiNames.h"

#include "CommandHelp.h"
#include "LockwrightConfig.h"
#include "spec/SpecLoader.h"

#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Timer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <set>
#include <thread>
#include <tuple>

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
/// Marks a target that is a --spec file, not an architecture name.
const std::string SpecFilePrefix = "file:";
llvm::cl::opt<std::string> SpecFileOpt("spec",
                                       llvm::cl::desc("Judge every TU against this spec file (an overlay that "
                                                      "'lockwright tune' wrote) instead of its target's spec"),
                                       llvm::cl::value_desc("file"), llvm::cl::cat(CheckCategory));
llvm::cl::opt<std::string> CpuOpt("cpu", llvm::cl::desc("CPU variant of the architecture"), llvm::cl::cat(CheckCategory));
llvm::cl::opt<std::string> SpecDirOpt("spec-dir", llvm::cl::desc("Directory with arch/ and api/ specs"),
                                      llvm::cl::cat(CheckCategory));
llvm::cl::opt<bool> FixOpt("fix", llvm::cl::desc("Apply the suggested fixes: all of a file's, or none of them "
                                                 "when any two conflict"),
                           llvm::cl::cat(CheckCategory));
llvm::cl::opt<bool> FixErrorsOpt("fix-errors",
                                 llvm::cl::desc("--fix even when some file does not compile (the fixes of the "
                                                "files that do)"),
                                 llvm::cl::cat(CheckCategory));
llvm::cl::opt<bool> FixNotesOpt("fix-notes",
                                llvm::cl::desc("Accepted as clang-tidy's; implies --fix (a note's fix is part of its "
                                               "warning's, and --fix applies it)"),
                                llvm::cl::cat(CheckCategory));
llvm::cl::opt<std::string> ExportFixesOpt("export-fixes",
                                          llvm::cl::desc("Write every finding and its fix to this file as YAML for "
                                                         "clang-apply-replacements (the parallel route to --fix)"),
                                          llvm::cl::cat(CheckCategory));
llvm::cl::opt<std::string> SarifOpt("sarif",
                                    llvm::cl::desc("Write the findings to this file as one SARIF 2.1.0 document "
                                                   "(stdout keeps the text)"),
                                    llvm::cl::cat(CheckCategory));
llvm::cl::opt<std::string> SarifRootOpt("sarif-root",
                                        llvm::cl::desc("Paths in SARIF are relative to this directory (default: the "
                                                       "-p directory, else the current one)"),
                                        llvm::cl::cat(CheckCategory));
llvm::cl::opt<std::string> BaselineOpt("baseline",
                                       llvm::cl::desc("A SARIF file of accepted findings: report only the others"),
                                       llvm::cl::cat(CheckCategory));
llvm::cl::opt<bool> WriteBaselineOpt("write-baseline",
                                     llvm::cl::desc("Write every finding to the --baseline file (adopting the "
                                                    "checker), and exit 0 unless the run failed"),
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
llvm::cl::opt<bool> QuietOpt("quiet", llvm::cl::desc("No progress lines and no closing summary"),
                             llvm::cl::cat(CheckCategory));
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

llvm::cl::opt<std::string> ExplainOpt("explain", llvm::cl::desc("Print a check's documentation page and exit"),
                                      llvm::cl::cat(CheckCategory));
llvm::cl::opt<std::string> LineFilterOpt(
    "line-filter",
    llvm::cl::desc("JSON, as clang-tidy's: report only in these files and line ranges, e.g. "
                   "'[{\"name\":\"a.c\",\"lines\":[[1,3],[5,7]]},{\"name\":\"b.h\"}]' (a name matches a path's end)"),
    llvm::cl::cat(CheckCategory));
llvm::cl::opt<bool> ShowSourcesOpt("show-sources",
                                    llvm::cl::desc("Cite the spec's source under every note that uses it (default: "
                                                   "once per run)"),
                                    llvm::cl::cat(CheckCategory));
llvm::cl::opt<bool> SystemHeadersOpt("system-headers", llvm::cl::desc("Report findings in system headers too"),
                                     llvm::cl::cat(CheckCategory));
// .lockwright.yaml, as clang-tidy's .clang-tidy.
llvm::cl::opt<std::string> ConfigOpt("config",
                                     llvm::cl::desc("A config as YAML ('{Checks: \"-*,layout-*\"}'), used instead of "
                                                    "the .lockwright.yaml files"),
                                     llvm::cl::cat(CheckCategory));
llvm::cl::opt<std::string> ConfigFileOpt("config-file",
                                         llvm::cl::desc("A config file used instead of the .lockwright.yaml files"),
                                         llvm::cl::cat(CheckCategory));
llvm::cl::opt<bool> DumpConfigOpt("dump-config",
                                  llvm::cl::desc("Print the config the first source (or the current directory) is "
                                                 "checked with, as YAML, and exit"),
                                  llvm::cl::cat(CheckCategory));
llvm::cl::opt<bool> VerifyConfigOpt("verify-config",
                                    llvm::cl::desc("Check the config's check names and options and exit (1 when one "
                                                   "is unknown)"),
                                    llvm::cl::cat(CheckCategory));
llvm::cl::opt<bool> ExplainConfigOpt("explain-config",
                                     llvm::cl::desc("For each enabled check, say which config enabled it, and exit"),
                                     llvm::cl::cat(CheckCategory));

llvm::cl::opt<unsigned> JobsOpt("j", llvm::cl::desc("Check this many files in parallel (default: one per core)"),
                                llvm::cl::cat(CheckCategory));
llvm::cl::opt<unsigned> TimeoutOpt("timeout",
                                   llvm::cl::desc("Give up on a file not parsed and checked within this many seconds: "
                                                  "an error names it, the other files are still checked "
                                                  "(default: no limit)"),
                                   llvm::cl::cat(CheckCategory));
llvm::cl::opt<std::string> CacheDirOpt("cache-dir",
                                       llvm::cl::desc("Keep each file's summary here, and do not parse a file whose "
                                                      "command and inputs are unchanged (default: "
                                                      "$XDG_CACHE_HOME/lockwright or ~/.cache/lockwright)"),
                                       llvm::cl::cat(CheckCategory));
llvm::cl::opt<bool> NoCacheOpt("no-cache", llvm::cl::desc("Parse every file; read and write no cache"),
                               llvm::cl::cat(CheckCategory));
llvm::cl::opt<bool> RelativePathsOpt(
    "relative-paths",
    llvm::cl::desc("Write paths under the current directory relative to it, as the compiler opened them (links not "
                   "resolved), in summaries and findings: summaries that do not depend on where the tree lies "
                   "(Bazel's sandboxes and remote executors, a second clone)"),
    llvm::cl::cat(CheckCategory));
llvm::cl::opt<std::string> SampleProfileOpt(
    "sample-profile",
    llvm::cl::desc("A profile of the program running (perf script output or folded stacks): fields written only by "
                   "functions it never saw run do not false-share (docs/profiles.md)"),
    llvm::cl::cat(CheckCategory));
llvm::cl::opt<double> HotShareOpt(
    "hot-share",
    llvm::cl::desc("With --sample-profile: a writer on fewer than this share of the profile's samples runs too rarely "
                   "to false-share (default 0: any sample)"),
    llvm::cl::init(SampleProfile::DefaultHotShare), llvm::cl::cat(CheckCategory));
llvm::cl::opt<std::string> SummariesOpt("summaries",
                                        llvm::cl::desc("Map step only: write each file's summary to this directory "
                                                       "and print nothing; `lockwright report DIR` prints the "
                                                       "findings"),
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
               << "  " << llvm::left_justify("--extra-arg-before=<string>", 30)
               << " an argument to put first in each compile command (CMake passes --driver-mode)\n"
               << ExitStatusHelp;
}

/// Whether Args holds option Name, in any of its spellings.
bool given(const std::vector<std::string> &Args, llvm::StringRef Name) {
  return std::any_of(Args.begin(), Args.end(), [&](llvm::StringRef A) {
    return A == "-" + Name.str() || A == "--" + Name.str() || A.starts_with("-" + Name.str() + "=") ||
           A.starts_with("--" + Name.str() + "=");
  });
}

/// The -p directory of Args, or "".
std::string buildPathIn(const std::vector<std::string> &Args) {
  std::string BuildPath;
  for (size_t I = 0; I < Args.size() && Args[I] != "--"; ++I) {
    llvm::StringRef A = Args[I];
    if ((A == "-p" || A == "--p") && I + 1 < Args.size())
      BuildPath = Args[I + 1];
    else if (A.consume_front("-p=") || A.consume_front("--p="))
      BuildPath = A.str();
  }
  return BuildPath;
}

/// The compilation database of BuildPath as clang-tidy finds it (compile_commands.json there or
/// in a parent), with two differences. A relative "directory" is taken relative to the
/// database's own directory, as clangd does: LibTooling took it relative to the current one,
/// and then found no command for the files the database lists. And a file that is there but
/// broken is an error naming the file and what is wrong (LibTooling said "no compilation
/// database found", and clang-tidy then checked every source without flags).
std::unique_ptr<CompilationDatabase> loadDatabase(const std::string &BuildPath, std::string &Error) {
  llvm::SmallString<256> Dir(absolutePath(BuildPath.empty() ? "." : BuildPath));
  if (!BuildPath.empty() && !llvm::sys::fs::is_directory(Dir)) {
    Error = "-p " + BuildPath + ": " +
            (llvm::sys::fs::exists(Dir) ? "not a directory (name the build directory that holds compile_commands.json)"
                                        : "no such directory");
    return nullptr;
  }
  while (true) {
    llvm::SmallString<256> Json(Dir);
    llvm::sys::path::append(Json, "compile_commands.json");
    if (llvm::sys::fs::exists(Json)) {
      std::string Path = Json.str().str();
      std::optional<std::string> Text = llvm::sys::fs::is_regular_file(Json) ? readFile(Path) : std::nullopt;
      if (!Text) {
        Error = Path + ": cannot read it";
        return nullptr;
      }
      llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse(*Text);
      if (!Parsed) {
        Error = Path + ": not valid JSON: " + llvm::toString(Parsed.takeError());
        return nullptr;
      }
      llvm::json::Array *Entries = Parsed->getAsArray();
      if (!Entries) {
        Error = Path + ": expected an array of compile commands";
        return nullptr;
      }
      for (size_t I = 0; I < Entries->size(); ++I) {
        llvm::json::Object *O = (*Entries)[I].getAsObject();
        std::string Which = Path + ": entry " + std::to_string(I + 1) + ": ";
        if (!O) {
          Error = Which + "not an object";
          return nullptr;
        }
        for (const char *Key : {"directory", "file"})
          if (!O->getString(Key)) {
            Error = Which + "no \"" + Key + "\" string";
            return nullptr;
          }
        if (!O->getString("command") && !O->getArray("arguments")) {
          Error = Which + "neither a \"command\" string nor an \"arguments\" list";
          return nullptr;
        }
        if (std::optional<llvm::StringRef> D = O->getString("directory"); D && llvm::sys::path::is_relative(*D)) {
          llvm::SmallString<256> Absolute(Dir);
          llvm::sys::path::append(Absolute, *D);
          llvm::sys::path::remove_dots(Absolute, true);
          (*O)["directory"] = Absolute.str().str();
        }
      }
      std::string Fixed;
      llvm::raw_string_ostream OS(Fixed);
      OS << *Parsed;
      OS.flush();
      std::unique_ptr<CompilationDatabase> Database =
          JSONCompilationDatabase::loadFromBuffer(Fixed, Error, JSONCommandLineSyntax::AutoDetect);
      if (!Database) {
        Error = Path + ": " + Error;
        return nullptr;
      }
      // As LibTooling's reader of the file: response files expanded, headers and new files given
      // a neighbour's command, the target and driver mode taken from the compiler's name.
      return inferTargetAndDriverMode(
          inferMissingCompileCommands(expandResponseFiles(std::move(Database), llvm::vfs::getRealFileSystem())));
    }
    if (!llvm::sys::path::has_parent_path(Dir) || llvm::sys::path::parent_path(Dir) == Dir)
      break;
    llvm::SmallString<256> Parent(llvm::sys::path::parent_path(Dir)); // a view into Dir: copied first
    Dir = Parent;
  }
  // No compile_commands.json: LibTooling's other plugins (compile_flags.txt) may still find one.
  std::unique_ptr<CompilationDatabase> Database = CompilationDatabase::autoDetectFromDirectory(BuildPath, Error);
  if (!Database)
    Error = "no compile_commands.json in " + absolutePath(BuildPath.empty() ? "." : BuildPath) +
            " or any directory above it";
  return Database;
}

/// Parses the command line as clang-tidy does. As run-clang-tidy, -p and no sources checks
/// every file of compile_commands.json: the parse is redone with them named, so that
/// --extra-arg and friends apply as usual; Database is -p's, as loadDatabase read it. On a usage
/// error, says so and returns nullopt.
std::optional<CommonOptionsParser> parseCommandLine(const std::vector<std::string> &Args,
                                                   const CompilationDatabase *Database) {
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
  bool ListOnly = given(Args, "list-checks") || given(Args, "explain") || given(Args, "dump-config") || given(Args, "verify-config") ||
                  given(Args, "explain-config");
  std::optional<CommonOptionsParser> Parser =
      Parse(ListOnly || given(Args, "p") ? llvm::cl::ZeroOrMore : llvm::cl::OneOrMore);
  if (!Parser || !Parser->getSourcePathList().empty() || ListOnly)
    return Parser;
  std::vector<std::string> AllFiles = Database ? Database->getAllFiles() : std::vector<std::string>();
  if (AllFiles.empty()) {
    llvm::errs() << "lockwright: error: the compilation database in '" << buildPathIn(Args) << "' lists no files\n";
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

/// Every "check.Option" key a config may set.
std::vector<std::string> knownCheckOptions() {
  std::vector<std::string> Known;
  for (const CheckInfo &C : allChecks())
    for (const std::string &O : C.Options)
      Known.push_back(C.Name + "." + O);
  return Known;
}

std::vector<std::string> knownCheckNames() {
  std::vector<std::string> Names;
  for (const CheckInfo &C : allChecks())
    Names.push_back(C.Name);
  return Names;
}

/// What verifyConfig finds in the layers of Config that Verified has not seen yet, which it then
/// marks: sources share their directories' layers, and each is read once a run.
DiagnosticList verifyNewLayers(const EffectiveConfig &Config, std::set<const ConfigLayer *> &Verified) {
  static const std::vector<std::string> Names = knownCheckNames(), Options = knownCheckOptions();
  EffectiveConfig Unverified;
  for (const auto &Layer : Config.Layers)
    if (Verified.insert(Layer.get()).second)
      Unverified.Layers.push_back(Layer);
  DiagnosticList Found;
  verifyConfig(Unverified, Names, Options, Found);
  return Found;
}

/// What the command line sets, as the config layer applied last; a malformed --check-option
/// is a usage error.
std::optional<ConfigLayer> commandLineLayer() {
  ConfigLayer Layer;
  Layer.Origin = "the command line";
  auto Given = [](const llvm::cl::Option &O) { return O.getNumOccurrences() != 0; };
  if (Given(ChecksOpt))
    Layer.Checks = ChecksOpt;
  if (Given(WarningsAsErrorsOpt))
    Layer.WarningsAsErrors = WarningsAsErrorsOpt;
  if (Given(HeaderFilterOpt))
    Layer.HeaderFilterRegex = HeaderFilterOpt;
  if (Given(ExcludeHeaderFilterOpt))
    Layer.ExcludeHeaderFilterRegex = ExcludeHeaderFilterOpt;
  if (Given(ArchOpt))
    Layer.Arch = ArchOpt;
  if (Given(CpuOpt))
    Layer.Cpu = CpuOpt;
  if (Given(SystemHeadersOpt))
    Layer.SystemHeaders = SystemHeadersOpt.getValue();
  // The older spellings of layout-hardcoded-line-size's options.
  if (OverPaddingOpt)
    Layer.CheckOptions["layout-hardcoded-line-size.ReportOverPadding"] = "true";
  if (!PaddingConstantOpt.empty())
    Layer.CheckOptions["layout-hardcoded-line-size.PaddingConstant"] = PaddingConstantOpt;
  std::vector<std::string> Known = knownCheckOptions();
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
    Layer.CheckOptions[Key] = Setting.substr(Eq + 1);
  }
  return Layer;
}

/// --explain CHECK: the check's page from the documentation installed with the tool.
int explainCheck(const char *Argv0, const std::string &Name) {
  std::vector<std::string> Names = knownCheckNames();
  if (std::find(Names.begin(), Names.end(), Name) == Names.end()) {
    llvm::errs() << "lockwright: error: --explain: unknown check '" << Name << "'" << didYouMean(Name, Names) << "\n";
    return 2;
  }
  llvm::SmallString<256> Page(defaultDocsDir(Argv0));
  llvm::sys::path::append(Page, "checks", Name + ".md");
  std::optional<std::string> Text = readFile(Page.str().str());
  if (!Text) {
    llvm::errs() << "lockwright: error: --explain: cannot read " << Page << " (LOCKWRIGHT_DOCS_DIR names the docs)\n";
    return 1;
  }
  llvm::outs() << *Text;
  return 0;
}

/// The checks' options of one config; an invalid header filter is an error naming where it was
/// set: a usage error (ExitCode 2) on the command line, failed input (1) in a file.
std::optional<CheckOptions> checkOptionsOf(const EffectiveConfig &Config, int &ExitCode) {
  CheckOptions Options;
  Options.Checks = Config.Checks;
  Options.WarningsAsErrors = Config.WarningsAsErrors;
  Options.SystemHeaders = Config.SystemHeaders;
  Options.PerCheck = Config.CheckOptions;
  for (auto [Value, Into, Key, Flag] :
       {std::tuple{&Config.HeaderFilterRegex, &Options.HeaderFilter, "HeaderFilterRegex", "--header-filter"},
        std::tuple{&Config.ExcludeHeaderFilterRegex, &Options.ExcludeHeaderFilter, "ExcludeHeaderFilterRegex",
                   "--exclude-header-filter"}}) {
    if (!*Value)
      continue;
    std::string Why;
    if (!(*Value)->empty() && !llvm::Regex(**Value).isValid(Why)) {
      auto Origin = Config.OriginOf.find(Key);
      bool FromFile = Origin != Config.OriginOf.end() && Origin->second != "the command line";
      std::string Message = "invalid regular expression '" + **Value + "': " + Why;
      if (FromFile) {
        DiagnosticList Located;
        Located.error(Config.LocOf.at(Key), Key, Message);
        Located.print(stderr);
      } else {
        llvm::errs() << "lockwright: error: " << Flag << ": " << Message << "\n";
      }
      ExitCode = FromFile ? 1 : 2;
      return std::nullopt;
    }
    *Into = **Value;
  }
  return Options;
}

/// A TU to check against one architecture, and what came of it.
struct TuJob {
  std::string File, Arch, LayoutNote;
  const ResolvedSpec *Forced = nullptr; // --arch: judged against this spec
  const CheckOptions *Options = nullptr; // its config's
  std::string OptionsText;                // the config, for the cache key
  std::vector<std::string> ExtraArgs, ExtraArgsBefore; // its config's ExtraArgs*
  std::vector<std::string> TargetFlags;
  std::vector<CompileCommand> Commands;
  std::string CacheKey;
  TuSummary Summary;
  bool ToolFailed = false, Done = false;
  /// --timeout: when a worker took it, and whether the run gave up on it (then its worker,
  /// still parsing, owns Summary and nothing else reads it).
  std::chrono::steady_clock::time_point Started;
  bool Running = false, TimedOut = false;
};

/// The compile commands of one job, fixed before the workers start: the run's database is not
/// shared between threads.
class JobDatabase : public CompilationDatabase {
public:
  explicit JobDatabase(std::vector<CompileCommand> Commands) : Commands(std::move(Commands)) {}
  std::vector<CompileCommand> getCompileCommands(StringRef) const override { return Commands; }

private:
  std::vector<CompileCommand> Commands;
};

/// Value, alive until the process exits and never destroyed: the API tables and their spec
/// trees, whose teardown was 1.2 M instructions of every run for memory the exit frees anyway
/// (clang's -disable-free leaves its AST the same way). A static holds each, so leak checkers
/// see it: a list that is itself never destroyed (a static vector's destructor would run before
/// LeakSanitizer looks, and drop the only pointers to them).
template <typename T> T &keptUntilExit(T &&Value) {
  static auto *Kept = new std::vector<void *>;
  T *Copy = new T(std::move(Value));
  Kept->push_back(Copy);
  return *Copy;
}

/// Whether Arg is a -W option that clang would answer with "unknown warning option" (and
/// otherwise ignore). -Wl,/-Wa,/-Wp, pass-throughs and the options clang handles before its
/// group table (-Werror, -Weverything, -Wsystem-headers) are known.
bool unknownWarningOption(llvm::StringRef Arg) {
  if (!Arg.consume_front("-W") || Arg.empty() || Arg.contains(','))
    return false;
  Arg.consume_front("no-");
  if (Arg == "error" || Arg == "fatal-errors" || Arg == "everything" || Arg == "system-headers")
    return false;
  if (!Arg.consume_front("error="))
    Arg.consume_front("fatal-errors=");
  Arg = Arg.split('=').first; // -Wframe-larger-than=2048
  return !Arg.empty() && !DiagnosticIDs::getGroupForWarningOption(Arg);
}

/// --timeout: marks each running job older than Limit as given up on (done, for the report)
/// and calls Replace once for each, so that its worker's place is taken. Called under the lock.
template <typename ReplaceFn>
void giveUpOnSlowJobs(std::vector<TuJob> &Jobs, std::chrono::seconds Limit, ReplaceFn Replace) {
  auto Now = std::chrono::steady_clock::now();
  for (TuJob &Job : Jobs)
    if (Job.Running && !Job.Done && Now - Job.Started > Limit) {
      Job.TimedOut = Job.Done = true;
      Replace();
    }
}

/// The error that stands for a file given up on.
Finding timeoutFinding(const std::string &File, unsigned Seconds) {
  Finding F;
  F.Check = TimeoutCheckName;
  F.Severity = Finding::Level::Error;
  F.Message = "not checked: parsing and checking took longer than --timeout=" + std::to_string(Seconds) + " s";
  F.At = {File, 1, 1};
  return F;
}

/// Parses and checks one TU into Job.Summary.
void runJob(TuJob &Job, RunState &State) {
  State.Forced = Job.Forced;
  State.Options = Job.Options;
  State.LayoutNote = Job.LayoutNote;
  TuSummary &S = Job.Summary;
  S.File = summaryPath(absolutePath(Job.File));
  if (!Job.Commands.empty()) {
    S.Directory = summaryPath(absolutePath(Job.Commands.front().Directory));
    S.Command = Job.Commands.front().CommandLine;
    for (std::string &Arg : S.Command) // the source as the database names it (--relative-paths)
      if (llvm::sys::path::is_absolute(Arg))
        Arg = summaryPath(Arg);
  }
  S.Checks = State.Options->Checks;
  S.WarningsAsErrors = State.Options->WarningsAsErrors;
  JobDatabase Database(Job.Commands);
  // A file system of its own: the process-wide one would chdir into each command's directory
  // under the other workers' feet.
  IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS(llvm::vfs::createPhysicalFileSystem().release());
  ClangTool Tool(Database, {Job.File}, std::make_shared<PCHContainerOperations>(), FS);
  FindingCollector Collector(S);
  Tool.setDiagnosticConsumer(&Collector);
  // Kbuild writes dependency files through the preprocessor (-Wp,-MMD,dir/.x.o.d), relative
  // to the command's directory, which is not the process's: a check writes no build output.
  // A warning option clang does not know (GCC's -Wlogical-op) changes nothing but a warning we
  // do not show, yet LibTooling works out its did-you-mean twice: 14% of a liburcu TU.
  Tool.appendArgumentsAdjuster([](const CommandLineArguments &Args, StringRef) {
    CommandLineArguments Out;
    for (const std::string &A : Args)
      if (!llvm::StringRef(A).starts_with("-Wp,-MD,") && !llvm::StringRef(A).starts_with("-Wp,-MMD,") &&
          !unknownWarningOption(A))
        Out.push_back(A);
    return Out;
  });
  if (!Job.TargetFlags.empty())
    Tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(Job.TargetFlags, ArgumentInsertPosition::BEGIN));
  // A config's ExtraArgs, as clang-tidy's: after the command's own, or before them.
  if (!Job.ExtraArgsBefore.empty())
    Tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(Job.ExtraArgsBefore, ArgumentInsertPosition::BEGIN));
  if (!Job.ExtraArgs.empty())
    Tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(Job.ExtraArgs, ArgumentInsertPosition::END));
  std::unique_ptr<FrontendActionFactory> Factory = makeCheckActionFactory(State, S);
  Job.ToolFailed = Tool.run(Factory.get()) != 0;
}

/// A path as a Makefile rule spells it: spaces, '#' and '$' escaped.
std::string escapeForDepfile(const std::string &Path) {
  std::string Out;
  for (char C : Path) {
    if (C == ' ' || C == '#')
      Out += '\\';
    else if (C == '$')
      Out += '$';
    Out += C;
  }
  return Out;
}

/// What else decides a summary besides the TU's command and config: this binary, the specs and
/// the type options.
std::string cacheSalt(const char *Argv0, const std::string &SpecDir) {
  std::string Salt = std::string(SummaryFormat) + " " + std::to_string(SummaryVersion);
  std::string Exe = llvm::sys::fs::getMainExecutable(Argv0, reinterpret_cast<void *>(&cacheSalt));
  llvm::sys::fs::file_status Status;
  if (!llvm::sys::fs::status(Exe, Status))
    Salt += '\0' + Exe + '\0' + std::to_string(Status.getSize()) + '\0' +
            std::to_string(Status.getLastModificationTime().time_since_epoch().count());
  Salt += '\0' + treeHash(SpecDir);
  for (const std::string &T : LockTypesOpt)
    Salt += "\0lock " + T;
  for (const std::string &T : AtomicTypesOpt)
    Salt += "\0atomic " + T;
  return Salt;
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
  // The database -p names, read once. One that cannot be read is failed input (exit 1), said in
  // one line, before LibTooling's parser would print its own message and check every source
  // without flags.
  std::unique_ptr<CompilationDatabase> Database;
  if (std::string BuildPath = buildPathIn(Args); !BuildPath.empty()) {
    std::string Error;
    Database = loadDatabase(BuildPath, Error);
    if (!Database) {
      llvm::errs() << "lockwright: error: " << Error << "\n";
      return 1;
    }
  }
  std::optional<CommonOptionsParser> Parser = parseCommandLine(Args, Database.get());
  if (!Parser)
    return 2;
  const std::vector<std::string> &Files = Parser->getSourcePathList();

  if (!ExplainOpt.empty())
    return explainCheck(Argv0, ExplainOpt);
  if (ChecksOpt.getNumOccurrences() && !VerifyConfigOpt)
    for (const std::string &Unmatched : CheckFilter(ChecksOpt).unmatched())
      llvm::errs() << "lockwright: warning: '" << Unmatched << "' in --checks matches no check\n";

  // Each source's config: the .lockwright.yaml files above it (or --config, --config-file),
  // under what the command line sets.
  if (ConfigOpt.getNumOccurrences() && ConfigFileOpt.getNumOccurrences()) {
    llvm::errs() << "lockwright: error: --config and --config-file are mutually exclusive\n";
    return 2;
  }
  std::optional<ConfigLayer> CommandLine = commandLineLayer();
  if (!CommandLine)
    return 2;
  DiagnosticList ConfigDiags;
  std::optional<ConfigLayer> Replacement;
  if (ConfigOpt.getNumOccurrences()) {
    Replacement = parseConfig(ConfigOpt, "--config", "", ConfigDiags);
  } else if (ConfigFileOpt.getNumOccurrences()) {
    if (std::optional<std::string> Text = llvm::sys::fs::is_regular_file(ConfigFileOpt.getValue())
                                              ? readFile(ConfigFileOpt)
                                              : std::nullopt)
      Replacement = parseConfig(*Text, ConfigFileOpt, ConfigFileOpt, ConfigDiags);
    else
      ConfigDiags.error({ConfigFileOpt, 0, 0}, "",
                        std::string("cannot read the config file: ") +
                            (llvm::sys::fs::is_directory(ConfigFileOpt.getValue()) ? "a directory"
                                                                                   : std::strerror(errno)));
  }
  ConfigLayer Defaults;
  Defaults.Origin = "the default";
  Defaults.Checks = DefaultChecks;
  ConfigResolver Resolver(std::move(Defaults), std::move(*CommandLine), std::move(Replacement));
  // The config questions about it (--dump-config, --list-checks, ...) are answered for.
  std::optional<EffectiveConfig> First;
  if (!ConfigDiags.hasErrors())
    First = Files.empty() ? Resolver.forDirectory(".", ConfigDiags) : Resolver.forFile(Files.front(), ConfigDiags);
  if (!First) {
    ConfigDiags.print(stderr);
    return 1;
  }
  if (DumpConfigOpt) {
    llvm::outs() << First->toYaml();
    return 0;
  }
  if (ExplainConfigOpt) {
    for (const auto &[Name, Origin] : First->explainChecks(knownCheckNames()))
      llvm::outs() << "'" << Name << "' is enabled in "
                   << (llvm::StringRef(Origin).starts_with("the ") ? Origin : "'" + Origin + "'") << ".\n";
    return 0;
  }
  if (VerifyConfigOpt) {
    // Every source's config: each layer once.
    std::set<const ConfigLayer *> Verified;
    DiagnosticList Problems = verifyNewLayers(*First, Verified);
    for (const std::string &File : Files)
      if (std::optional<EffectiveConfig> C = Resolver.forFile(File, ConfigDiags))
        Problems.append(verifyNewLayers(*C, Verified));
    Problems.append(ConfigDiags);
    if (Problems.hasErrors()) {
      Problems.print(stderr);
      return 1;
    }
    llvm::outs() << "No config errors detected.\n";
    return 0;
  }
  if (ListChecksOpt)
    return listChecks(CheckFilter(First->Checks));

  std::string LineFilterError;
  std::optional<LineFilter> Lines = parseLineFilter(LineFilterOpt, LineFilterError);
  if (!Lines) {
    llvm::errs() << "lockwright: error: --line-filter: " << LineFilterError << "\n";
    return 2;
  }
  // A baseline's accepted findings are not reported; --write-baseline records them instead.
  if (WriteBaselineOpt && BaselineOpt.empty()) {
    llvm::errs() << "lockwright: error: --write-baseline needs --baseline=FILE\n";
    return 2;
  }
  std::set<std::string> Accepted;
  if (!BaselineOpt.empty() && !WriteBaselineOpt) {
    std::optional<std::string> Text =
        llvm::sys::fs::is_directory(BaselineOpt.getValue()) ? std::nullopt : readFile(BaselineOpt);
    std::string Error = std::string("cannot read it: ") +
                        (llvm::sys::fs::is_directory(BaselineOpt.getValue()) ? "a directory" : std::strerror(errno));
    std::optional<std::set<std::string>> Read = Text ? readBaseline(*Text, Error) : std::nullopt;
    if (!Read) {
      llvm::errs() << "lockwright: error: --baseline " << BaselineOpt << ": " << Error << "\n";
      return 1;
    }
    Accepted = std::move(*Read);
  }
  // SARIF paths and fingerprints are relative to this root, so they survive a move of the tree.
  std::string SarifRoot = !SarifRootOpt.empty() ? SarifRootOpt.getValue() : buildPathIn(Args);
  {
    llvm::SmallString<256> Real;
    if (llvm::sys::fs::real_path(SarifRoot.empty() ? "." : SarifRoot, Real))
      Real = absolutePath(SarifRoot.empty() ? "." : SarifRoot);
    SarifRoot = Real.str().str();
  }

  // The profile is applied by the reduce step; the map step's summaries do not depend on it.
  if (!SampleProfileOpt.empty() && !SummariesOpt.empty()) {
    llvm::errs() << "lockwright: error: --sample-profile applies where summaries are judged together: give it "
                    "to `lockwright report`, not with --summaries\n";
    return 2;
  }
  std::optional<SampleProfile> Profile;
  if (int Status = profileFromOptions(SampleProfileOpt.getNumOccurrences() != 0, SampleProfileOpt,
                                      HotShareOpt.getNumOccurrences() != 0, HotShareOpt, "", Profile))
    return Status;

  if (!SpecFileOpt.empty() && ArchOpt.getNumOccurrences()) {
    llvm::errs() << "lockwright: error: --spec and --arch both say what to judge against; give one\n";
    return 2;
  }
  if (!SpecDirOpt.empty())
    if (std::optional<std::string> Problem = specDirProblem(SpecDirOpt)) {
      llvm::errs() << "lockwright: error: --spec-dir " << SpecDirOpt << ": " << *Problem << "\n";
      return 2;
    }
  SpecRepository Repo({SpecDirOpt.empty() ? defaultSpecDir(Argv0) : SpecDirOpt.getValue()});
  DiagnosticList Diags;
  std::vector<ApiSpec> &Apis = keptUntilExit(Repo.loadApis(Diags));
  if (Diags.hasErrors()) {
    Diags.print(stderr);
    return 1;
  }
  ApiNames &Names = keptUntilExit(ApiNames::fromSpecs(Apis, LockTypesOpt, AtomicTypesOpt));

  IntrusiveRefCntPtr<DiagnosticOptions> DiagOpts = new DiagnosticOptions();
  DiagOpts->ShowColors = false;
  // As clang-tidy: a database spells files relative to each entry's directory, and
  // "serial.c:221" would not say which of several serial.c files is meant; with
  // --relative-paths, relative to the current directory, as the summaries spell them.
  DiagOpts->AbsolutePath = !RelativePathsOpt;
  CheckDiagnostics Consumer(DiagOpts.get());
  llvm::TimeRecord RunStart = llvm::TimeRecord::getCurrentTime(true);

  // Each source's options and architectures. Sources sharing a config share its options.
  struct SourcePlan {
    const CheckOptions *Options;
    std::string OptionsText;
    std::vector<std::string> ExtraArgs, ExtraArgsBefore;
    std::vector<std::pair<std::string, std::string>> Targets; // (arch, cpu); ("", "") the TU's own
  };
  std::map<std::string, CheckOptions> OptionsByConfig;
  std::vector<SourcePlan> Plans;
  std::vector<std::pair<std::string, std::string>> TargetOrder;
  std::map<std::pair<std::string, std::string>, SourceLoc> TargetSetAt; // where a config file named it
  std::set<const ConfigLayer *> Verified;
  for (const std::string &File : Files) {
    std::optional<EffectiveConfig> Config = Resolver.forFile(File, ConfigDiags);
    if (!Config) {
      ConfigDiags.print(stderr);
      return 1;
    }
    // A file's unknown check or option is said, not fatal (--verify-config makes it so).
    DiagnosticList Unknown = verifyNewLayers(*Config, Verified);
    for (const Diagnostic &D : Unknown.all())
      if (D.Loc.File != "the command line" && D.Loc.File != "the default") {
        std::string Text = D.format();
        Text.replace(Text.find(": error: "), 9, ": warning: ");
        llvm::errs() << Text << "\n";
      }
    std::string Text = Config->toYaml();
    auto [It, New] = OptionsByConfig.try_emplace(Text);
    if (New) {
      int ExitCode = 2;
      std::optional<CheckOptions> Options = checkOptionsOf(*Config, ExitCode);
      if (!Options)
        return ExitCode;
      CheckFilter Enabled(Options->Checks);
      if (std::none_of(allChecks().begin(), allChecks().end(),
                       [&](const CheckInfo &C) { return Enabled.enabled(C.Name); })) {
        llvm::errs() << "lockwright: error: no checks enabled" << (Files.size() > 1 ? " for " + File : "") << "\n";
        return 1;
      }
      if (!Config->Cpu.empty() && Config->Arch.empty() && SpecFileOpt.empty()) {
        // As `gen`: a CPU variant belongs to an architecture, and the TU's own may have none.
        auto Origin = Config->OriginOf.find("Cpu");
        if (Origin->second == "the command line") {
          llvm::errs() << "lockwright: error: --cpu needs --arch\n";
          return 2;
        }
        DiagnosticList Located;
        Located.error(Config->LocOf.at("Cpu"), "Cpu", "a CPU variant needs an Arch");
        Located.print(stderr);
        return Origin->second == "--config" ? 2 : 1;
      }
      It->second = std::move(*Options);
    }
    SourcePlan Plan{&It->second, Text, Config->ExtraArgs, Config->ExtraArgsBefore, {}};
    // One pass per architecture judged: the TU's own, the one the config names, or all of them.
    if (!SpecFileOpt.empty()) {
      Plan.Targets.emplace_back(SpecFilePrefix + SpecFileOpt, Config->Cpu);
    } else if (Config->Arch == "all") {
      for (const std::string &A : Repo.archNames())
        if (A != "generic")
          Plan.Targets.emplace_back(A, "");
    } else {
      Plan.Targets.emplace_back(Config->Arch, Config->Cpu);
    }
    for (const auto &T : Plan.Targets)
      if (std::find(TargetOrder.begin(), TargetOrder.end(), T) == TargetOrder.end()) {
        TargetOrder.push_back(T);
        if (auto Origin = Config->OriginOf.find("Arch");
            Origin != Config->OriginOf.end() && Origin->second != "the command line")
          TargetSetAt.emplace(T, Config->LocOf.at("Arch"));
      }
    Plans.push_back(std::move(Plan));
  }

  // With -p, the database as loadDatabase read it, under the command line's --extra-arg.
  std::unique_ptr<ArgumentsAdjustingCompilations> OwnDatabase;
  if (Database) {
    OwnDatabase = std::make_unique<ArgumentsAdjustingCompilations>(std::move(Database));
    OwnDatabase->appendArgumentsAdjuster(Parser->getArgumentsAdjuster());
  }
  CompilationDatabase &Compilations = OwnDatabase ? *OwnDatabase : Parser->getCompilations();

  // The jobs: each TU against each architecture judged, with the compile commands fixed
  // here (the database is not shared between threads) and each spec resolved once.
  std::string SpecDir = SpecDirOpt.empty() ? defaultSpecDir(Argv0) : SpecDirOpt.getValue();
  std::map<std::pair<std::string, std::string>, ResolvedSpec> Forced;
  std::vector<TuJob> Jobs;
  std::vector<std::string> Uncommanded; // sources not checked: no file, or no command for it in the database
  for (const auto &[Arch, Cpu] : TargetOrder) {
    const ResolvedSpec *Spec = nullptr;
    std::string LayoutNote;
    std::vector<std::string> Target;
    if (!Arch.empty()) {
      DiagnosticList SpecDiags;
      bool FromFile = llvm::StringRef(Arch).starts_with(SpecFilePrefix);
      std::optional<ResolvedSpec> Resolved = FromFile ? Repo.resolveFile(Arch.substr(SpecFilePrefix.size()), Cpu, SpecDiags)
                                                      : Repo.resolve(Arch, Cpu, SpecDiags);
      if (!Resolved && FromFile) {
        SpecDiags.print(stderr);
        return 1; // a missing or broken spec is failed input, as gen --spec says
      }
      if (!Resolved) {
        auto SetAt = TargetSetAt.find({Arch, Cpu});
        if (SetAt != TargetSetAt.end()) {
          // Named in a config: say which, then why.
          DiagnosticList Located;
          Located.error(SetAt->second, "Arch", "cannot judge against '" + Arch + (Cpu.empty() ? "" : "' cpu '" + Cpu) +
                                                   "':");
          Located.print(stderr);
        }
        SpecDiags.print(stderr);
        if (SetAt != TargetSetAt.end() && SetAt->second.File != "--config")
          return 1; // a config file is input
        return Repo.names(Arch, Cpu) ? 1 : 2; // a name the user got wrong: usage
      }
      Spec = &Forced.emplace(std::pair{Arch, Cpu}, std::move(*Resolved)).first->second;
      ParseTarget How = parseTargetFor(*Spec);
      Target = How.TargetFlags;
      if (!How.WhyHost.empty())
        LayoutNote = How.WhyHost + ": offsets and sizes are those of the host (" LOCKWRIGHT_HOST_TRIPLE ")";
      else
        LayoutNote = How.Note;
    }
    for (size_t F = 0; F < Files.size(); ++F) {
      const SourcePlan &Plan = Plans[F];
      if (std::find(Plan.Targets.begin(), Plan.Targets.end(), std::pair{Arch, Cpu}) == Plan.Targets.end())
        continue;
      TuJob Job;
      Job.File = Files[F];
      Job.Arch = Spec ? Spec->Arch : Arch;
      Job.Forced = Spec;
      Job.LayoutNote = LayoutNote;
      Job.TargetFlags = Target;
      Job.Options = Plan.Options;
      Job.OptionsText = Plan.OptionsText;
      Job.ExtraArgs = Plan.ExtraArgs;
      Job.ExtraArgsBefore = Plan.ExtraArgsBefore;
      // A source that is not a file gets one line saying so (clang said "no such file", "no
      // input files" and "expected exactly one compiler job").
      if (llvm::sys::fs::file_status Status; !llvm::sys::fs::is_regular_file(Files[F])) {
        if (std::find(Uncommanded.begin(), Uncommanded.end(), Files[F]) == Uncommanded.end()) {
          bool Exists = !llvm::sys::fs::status(Files[F], Status);
          llvm::errs() << "lockwright: error: " << Files[F] << ": "
                       << (!Exists                                 ? "no such file"
                           : llvm::sys::fs::is_directory(Status) ? "is a directory, not a source file"
                                                                   : "not a regular file")
                       << "\n";
          Uncommanded.push_back(Files[F]);
        }
        continue;
      }
      // By its absolute path, as clang-tidy looks it up: a database answers a relative name it does
      // not list with a neighbour's command naming the file as given, relative to the wrong directory.
      Job.Commands = Compilations.getCompileCommands(absolutePath(Files[F]));
      if (Job.Commands.empty()) {
        // LibTooling would say "Skipping" and count nothing: a file the run cannot check fails it.
        if (std::find(Uncommanded.begin(), Uncommanded.end(), Files[F]) == Uncommanded.end()) {
          llvm::errs() << "lockwright: error: " << Files[F] << ": no compile command for it in the database\n";
          Uncommanded.push_back(Files[F]);
        }
        continue;
      }
      Jobs.push_back(std::move(Job));
    }
  }

  // Profiling and --dump-ordering measure and print a parse: no cache, one thread.
  bool Instrumented = ProfileOpt || DumpOrderingOpt;
  std::string CacheDir = NoCacheOpt || Instrumented ? "" : CacheDirOpt.empty() ? defaultCacheDir() : CacheDirOpt.getValue();
  // Relative paths: the summaries hold paths under the current directory relative to it, so a
  // cached one is good for this directory only.
  if (RelativePathsOpt)
    setRelativePathRoot(absolutePath("."));
  std::string Salt = cacheSalt(Argv0, SpecDir) + (RelativePathsOpt ? "\nrelative to " + absolutePath(".") : "");
  SummaryCache Cache(CacheDir, CacheDir.empty() ? "" : Salt);
  for (TuJob &Job : Jobs) {
    std::vector<std::vector<std::string>> Commands;
    for (const CompileCommand &C : Job.Commands) {
      // Absolute: a command without a database runs in "." with the file as given, and the
      // same "z.c" in two directories is two files.
      llvm::SmallString<256> Directory(C.Directory), File(C.Filename);
      llvm::sys::fs::make_absolute(Directory);
      llvm::sys::fs::make_absolute(Directory, File);
      llvm::sys::path::remove_dots(Directory, true);
      llvm::sys::path::remove_dots(File, true);
      Commands.push_back({Directory.str().str(), File.str().str()});
      Commands.back().insert(Commands.back().end(), C.CommandLine.begin(), C.CommandLine.end());
    }
    // A forced spec by its content: a --spec file lives outside the spec directory the salt hashes.
    Job.CacheKey = Cache.keyFor(Commands, Job.Arch + '\0' + (Job.Forced ? Job.Forced->hash() : "") + '\0' +
                                              Job.LayoutNote + '\0' + Job.OptionsText);
  }

  RunState Shared;
  Shared.Profiling = ProfileOpt;
  Shared.DumpOrdering = DumpOrderingOpt;
  // --fix applies a file's fixes only to the content they were computed on.
  bool Fixing = FixOpt || FixNotesOpt || FixErrorsOpt;
  Shared.HashInputs = !CacheDir.empty() || !SummariesOpt.empty() || Fixing;
  Shared.WholeProgram = !CacheDir.empty() || !SummariesOpt.empty() || Jobs.size() > 1 || Profile;
  Shared.Options = Jobs.empty() ? nullptr : Jobs.front().Options;
  unsigned Threads = Instrumented ? 1 : JobsOpt ? JobsOpt.getValue() : std::max(1u, std::thread::hardware_concurrency());
  Threads = std::min<unsigned>(Threads, std::max<size_t>(Jobs.size(), 1));
  std::mutex Lock;
  std::condition_variable Finished;
  size_t Next = 0, Started = 0;
  DiagnosticList SpecDiags;
  int ToolFailures = 0;
  unsigned Parsed = 0, FromCache = 0, TimedOut = 0;
  // Each worker parses with its own spec repository and API tables (both cache lookups).
  auto Work = [&](RunState *Own) {
    std::unique_ptr<SpecRepository> OwnRepo;
    std::unique_ptr<ApiNames> OwnNames;
    RunState Local;
    if (!Own) {
      OwnRepo = std::make_unique<SpecRepository>(std::vector<std::string>{SpecDir});
      OwnNames = std::make_unique<ApiNames>(Names);
      Local = Shared;
      Local.Repo = OwnRepo.get();
      Local.Names = OwnNames.get();
      Own = &Local;
    }
    while (true) {
      size_t I;
      {
        std::lock_guard<std::mutex> Guard(Lock);
        if (Next == Jobs.size())
          break;
        I = Next++;
        Jobs[I].Started = std::chrono::steady_clock::now();
        Jobs[I].Running = true;
        if (Jobs.size() > 1 && !QuietOpt)
          llvm::errs() << "[" << ++Started << "/" << Jobs.size() << "] " << Jobs[I].File
                       << (Jobs[I].Arch.empty() ? "" : " (" + Jobs[I].Arch + ")") << "\n";
      }
      TuJob &Job = Jobs[I];
      bool Hit = false;
      if (std::optional<TuSummary> Cached = Cache.lookup(Job.CacheKey)) {
        Job.Summary = std::move(*Cached);
        Hit = true;
      } else {
        runJob(Job, *Own);
      }
      std::lock_guard<std::mutex> Guard(Lock);
      if (Job.TimedOut)
        return; // given up on: a new worker took this one's place, and the run may be over
      if (!Hit && !Job.ToolFailed && !Job.Summary.CompileErrors)
        Cache.store(Job.CacheKey, Job.Summary);
      (Hit ? FromCache : Parsed) += 1;
      Job.Done = true;
      Finished.notify_all();
    }
    if (Own == &Local) {
      std::lock_guard<std::mutex> Guard(Lock);
      SpecDiags.append(Local.SpecDiags);
    }
  };
  std::vector<llvm::thread> Workers;
  // Clang's parser recurses deeply: give each worker the stack of a main thread.
  auto StartWorker = [&] { Workers.emplace_back(std::optional<unsigned>(16u << 20), Work, nullptr); };
  if (Threads > 1 || TimeoutOpt) { // with a time limit the main thread watches the workers
    for (unsigned T = 0; T < Threads; ++T)
      StartWorker();
  } else {
    Shared.Repo = &Repo;
    Shared.Names = &Names;
    Work(&Shared);
    SpecDiags.append(Shared.SpecDiags);
  }
  // Findings in the order of the sources (and architectures), whatever order the TUs end in;
  // one a header gives every TU that includes it is printed once.
  std::vector<Finding> Program, Merged;
  std::deque<Finding> GivenUp; // the files --timeout gave up on
  std::vector<ReportedFinding> Printed;
  std::set<std::tuple<std::string, SourcePoint, std::string>> Seen;
  SourceOffsets Offsets;
  Fingerprinter Prints(SarifRoot, Offsets);
  bool NeedFingerprints = !SarifOpt.empty() || !BaselineOpt.empty();
  unsigned Suppressed = 0, Baselined = 0;
  int SummaryFailures = 0;
  bool CompileErrors = false;
  {
    FindingPrinter Printer(DiagOpts.get(), Consumer, ShowSourcesOpt);
    auto Emit = [&](const Finding &F, const std::string &BuildDirectory) {
      if (!Lines->passes(F.At) || !Seen.insert({F.Check, F.At, F.Message}).second)
        return;
      // Only SARIF and baselines read fingerprints (each reads the finding's source line).
      std::string Fingerprint = NeedFingerprints ? Prints.next(F) : "";
      if (Accepted.count(Fingerprint)) {
        ++Baselined;
        return;
      }
      if (!WriteBaselineOpt)
        Printer.print(F);
      Printed.push_back({&F, BuildDirectory, Fingerprint});
    };
    // Judged against several architectures (--arch all): each finding once, naming them all,
    // which needs every TU's findings first.
    std::vector<std::string> ArchNames;
    for (const auto &[Arch, Cpu] : TargetOrder)
      if (!Arch.empty())
        ArchNames.push_back(Arch);
    bool MergeArches = ArchNames.size() > 1;
    std::vector<std::pair<const Finding *, std::string>> Pending;
    auto Print = [&](const Finding &F, const std::string &BuildDirectory) {
      if (MergeArches)
        Pending.emplace_back(&F, BuildDirectory);
      else
        Emit(F, BuildDirectory);
    };
    for (TuJob &Job : Jobs) {
      {
        std::unique_lock<std::mutex> Guard(Lock);
        if (!TimeoutOpt)
          Finished.wait(Guard, [&] { return Job.Done; });
        while (!Job.Done) {
          Finished.wait_for(Guard, std::chrono::milliseconds(100));
          giveUpOnSlowJobs(Jobs, std::chrono::seconds(TimeoutOpt), [&] { ++TimedOut; StartWorker(); });
        }
      }
      if (Job.TimedOut) {
        ToolFailures = 1;
        CompileErrors = true; // not checked: no fix is trusted, SARIF says the run failed
        // Printed keeps pointers to findings: this one lives as long as the others.
        GivenUp.push_back(timeoutFinding(summaryPath(absolutePath(Job.File)), TimeoutOpt));
        Print(GivenUp.back(), "");
        continue;
      }
      ToolFailures |= Job.ToolFailed;
      CompileErrors |= Job.ToolFailed || Job.Summary.CompileErrors;
      Suppressed += Job.Summary.Suppressed;
      if (!SummariesOpt.empty()) {
        std::string Error;
        std::string Path = SummariesOpt + "/" + summaryFileName(Job.Summary.File, Job.Arch);
        // Beside each summary, a depfile of what it was made from, for build systems that
        // run the map step as a custom command (Ninja's depfile, CMake's DEPFILE).
        std::string Depfile = escapeForDepfile(Path) + ":";
        for (const auto &[Input, Hash] : Job.Summary.Inputs)
          Depfile += " \\\n  " + escapeForDepfile(Input);
        if (writeFileIfChanged(Path, writeSummary(Job.Summary), Error) == WriteOutcome::Failed ||
            writeFileIfChanged(Path + ".d", Depfile + "\n", Error) == WriteOutcome::Failed) {
          llvm::errs() << "lockwright: error: " << Error << "\n";
          ++SummaryFailures;
        }
        continue; // the report step prints
      }
      for (const Finding &F : Job.Summary.Findings)
        Print(F, Job.Summary.Directory.empty() ? "" : absolutePath(Job.Summary.Directory));
    }
    // A worker still parsing a file given up on cannot be stopped: it is left behind, and the
    // process ends without unwinding (see the end of this function).
    for (llvm::thread &W : Workers)
      TimedOut ? W.detach() : W.join();
    if (SummariesOpt.empty()) {
      std::vector<const TuSummary *> All;
      for (const TuJob &Job : Jobs)
        if (!Job.TimedOut)
          All.push_back(&Job.Summary);
      Program = reduceProgram(All, Suppressed, Profile ? &*Profile : nullptr, QuietOpt);
      for (const Finding &F : Program)
        Print(F, Jobs.empty() || Jobs.front().Summary.Directory.empty() ? ""
                                                                        : absolutePath(Jobs.front().Summary.Directory));
    }
    if (MergeArches) {
      std::vector<const Finding *> Findings;
      std::map<const Finding *, std::string> Directories;
      for (const auto &[F, Dir] : Pending) {
        Findings.push_back(F);
        Directories.emplace(F, Dir);
      }
      Merged = mergeAcrossArchitectures(Findings, ArchNames);
      for (const Finding &F : Merged)
        Emit(F, Directories.count(Findings.front()) ? Directories[Findings.front()] : "");
    }
  }
  {
    std::set<std::string> Said; // each worker met the same broken spec
    for (const Diagnostic &D : SpecDiags.all())
      if (std::string Text = D.format(); Said.insert(Text).second)
        llvm::errs() << Text << "\n";
  }
  if (Shared.Profiling) {
    llvm::TimeRecord RunTime = llvm::TimeRecord::getCurrentTime(false);
    RunTime -= RunStart;
    printProfile(Shared, RunTime.getWallTime());
  }

  int OutputFailures = 0;
  auto WriteSarif = [&](const std::string &Path, const char *Option) {
    SarifOptions Sarif;
    Sarif.Root = SarifRoot;
    Sarif.ToolVersion = LOCKWRIGHT_VERSION;
    Sarif.Rules = sarifRules(Argv0);
    Sarif.ExecutionSuccessful = !CompileErrors;
    if (!writeReport(Path, sarifDocument(Printed, Sarif, Offsets), Option))
      ++OutputFailures;
  };
  if (!SarifOpt.empty())
    WriteSarif(SarifOpt, "--sarif");
  if (WriteBaselineOpt) {
    int Before = OutputFailures;
    WriteSarif(BaselineOpt, "--baseline");
    if (OutputFailures == Before && !QuietOpt)
      llvm::errs() << "lockwright: wrote " << Printed.size() << " finding" << (Printed.size() == 1 ? "" : "s")
                   << " to the baseline " << BaselineOpt << "\n";
    return ToolFailures || OutputFailures ? 1 : 0;
  }
  if (!ExportFixesOpt.empty() &&
      !writeReport(ExportFixesOpt,
                   exportFixesYaml(Files.empty() ? "" : absolutePath(Files.front()), Printed, Offsets),
                   "--export-fixes"))
    ++OutputFailures;

  int FixFailures = 0;
  if (FixOpt || FixNotesOpt || FixErrorsOpt) {
    if (CompileErrors && !FixErrorsOpt) {
      // As clang-tidy: fixes computed beside a broken TU are not trusted without --fix-errors.
      llvm::errs() << "lockwright: found compiler errors, but --fix-errors was not given; no fix was applied\n";
      ++FixFailures;
    } else {
      std::vector<tooling::Replacement> Fixes;
      for (const ReportedFinding &R : Printed) {
        if (R.F->Check.empty())
          continue;
        for (const Edit &E : R.F->Fixes)
          Fixes.emplace_back(E.File, E.Offset, E.Length, E.Text);
        for (const FindingNote &N : R.F->Notes)
          for (const Edit &E : N.Fixes)
            Fixes.emplace_back(E.File, E.Offset, E.Length, E.Text);
      }
      // Each file's content as the run parsed it: a file changed since is not fixed.
      std::map<std::string, std::string> ParsedHashes;
      for (const TuJob &Job : Jobs)
        if (!Job.TimedOut)
          for (const auto &[Path, Hash] : Job.Summary.Inputs)
            if (!Hash.empty())
              ParsedHashes.emplace(Path, Hash);
      FixFailures = applyFixes(Fixes, [&](const std::string &File) -> std::optional<std::string> {
        llvm::SmallString<256> Real;
        if (llvm::sys::fs::real_path(File, Real))
          return std::nullopt;
        auto It = ParsedHashes.find(Real.str().str());
        return It == ParsedHashes.end() ? std::nullopt : std::optional<std::string>(It->second);
      });
    }
  }
  if (!QuietOpt)
    llvm::errs() << "lockwright: " << Consumer.Warnings << " warning" << (Consumer.Warnings == 1 ? "" : "s") << ", "
                 << Consumer.Errors + Uncommanded.size() << " error"
                 << (Consumer.Errors + Uncommanded.size() == 1 ? "" : "s") << " in "
                 << Files.size() << " file" << (Files.size() == 1 ? "" : "s")
                 << (FromCache ? " (" + std::to_string(Parsed) + " parsed, " + std::to_string(FromCache) +
                                     " from the cache)"
                               : "")
                 << (Suppressed ? " (" + std::to_string(Suppressed) + " suppressed by NOLINT)" : "")
                 << (Baselined ? " (" + std::to_string(Baselined) + " in the baseline)" : "") << "\n";
  int ExitCode = ToolFailures || Consumer.Errors || FixFailures || SummaryFailures || OutputFailures ||
                         SpecDiags.hasErrors() || !Uncommanded.empty()
                     ? 1
                     : 0;
  if (TimedOut) {
    // A worker given up on still parses, with this function's state: end before it unwinds.
    llvm::outs().flush();
    llvm::errs().flush();
    std::fflush(nullptr);
    std::_Exit(ExitCode);
  }
  return ExitCode;
}

} // namespace lockwright
