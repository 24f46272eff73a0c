// lockwright: generate per-architecture lock code (gen) and inspect the specs
// it is generated from (spec). Subcommand dispatch only.
#include "Commands.h"
#include "CommandLine.h"
#include "check/CheckTool.h"

#include "CommandHelp.h"
#include "LockwrightConfig.h"
#include "spec/PrebuiltSpecs.h"

#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace {

const char Usage[] =
    "usage: lockwright <command> [options]\n"
    "\n"
    "commands:\n"
    "  gen --arch ARCH|host [--cpu CPU] [--prefix P] -o DIR\n"
    "                         generate barrier and cache headers for an architecture\n"
    "  spec list              list architecture specs and their CPU variants\n"
    "  spec show ARCH [--cpu CPU]\n"
    "                         print the fully resolved spec as YAML\n"
    "  spec validate FILE...  check spec files (arch or api) and report every error\n"
    "  check [options] SOURCE... [-- COMPILER ARGS] | -p BUILD_DIR SOURCE...\n"
    "                         layout checks for lock code (clang-tidy conventions)\n"
    "  report DIR...          the findings of the summaries `check --summaries DIR` wrote,\n"
    "                         judged as one program\n"
    "  layout SOURCE --record NAME [--arch A] [--format text|json|svg|html] [-- ARGS]\n"
    "                         pahole-style layout with sync objects and false sharing marked\n"
    "  tune [--cpu CPU] [--threads N] [--quick] [--compare] [-o OVERLAY.yaml]\n"
    "                         measure this machine's destructive distance, best lock and counter,\n"
    "                         and write them as a spec overlay (gen --spec, check --spec)\n"
    "\n"
    "Run 'lockwright <command> --help' for the options of a command.\n";

} // namespace

void lockwright::reportError(const std::string &Message) {
  std::fprintf(stderr, "lockwright: error: %s\n", Message.c_str());
}

std::optional<int> lockwright::parseArguments(CommandLine &CL, const std::vector<std::string> &Args,
                                              const char *Usage) {
  CL.flag("help");
  std::string Error;
  if (!CL.parse(Args, Error)) {
    reportError(Error);
    return ExitUsage;
  }
  if (CL.has("help")) {
    std::fputs(Usage, stdout);
    std::fputs(ExitStatusHelp, stdout);
    return ExitOk;
  }
  return std::nullopt;
}

namespace {

int dispatch(int argc, char **argv);

/// What stdout could not take is a failed run: `lockwright spec validate > /dev/full` must not
/// exit 0 in silence (nor LLVM's stream abort with "IO failure" at exit). A command that
/// already failed said why.
int finishStdout(int Code) {
  bool Failed = std::fflush(stdout) != 0 || std::ferror(stdout);
  int Errno = errno;
  llvm::outs().flush();
  if (llvm::outs().has_error()) {
    Failed = true;
    Errno = llvm::outs().error().value();
    llvm::outs().clear_error();
  }
  if (!Failed || Code != lockwright::ExitOk)
    return Code;
  lockwright::reportError(std::string("cannot write to stdout: ") + std::strerror(Errno));
  return lockwright::ExitError;
}

} // namespace

int main(int argc, char **argv) { return finishStdout(dispatch(argc, argv)); }

namespace {

int dispatch(int argc, char **argv) {
  lockwright::registerShippedSpecs();
  lockwright::ToolContext Tool{argv[0]};
  if (argc < 2) {
    std::fputs(Usage, stderr);
    return lockwright::ExitUsage;
  }
  const char *Command = argv[1];
  std::vector<std::string> Args(argv + 2, argv + argc);
  if (!std::strcmp(Command, "--help") || !std::strcmp(Command, "-h") || !std::strcmp(Command, "help")) {
    std::fputs(Usage, stdout);
    std::fputs(lockwright::ExitStatusHelp, stdout);
    return lockwright::ExitOk;
  }
  if (!std::strcmp(Command, "--version")) {
    std::printf("lockwright %s (host %s)\n", LOCKWRIGHT_VERSION, LOCKWRIGHT_HOST_TRIPLE);
    return lockwright::ExitOk;
  }
  if (!std::strcmp(Command, "gen"))
    return lockwright::runGen(Tool, Args);
  if (!std::strcmp(Command, "spec"))
    return lockwright::runSpec(Tool, Args);
  if (!std::strcmp(Command, "layout"))
    return lockwright::runLayout(Tool, Args);
  if (!std::strcmp(Command, "tune"))
    return lockwright::runTune(Tool, Args);
  if (!std::strcmp(Command, "check"))
    return lockwright::runCheckTool(argv[0], Args);
  if (!std::strcmp(Command, "report"))
    return lockwright::runReportTool(argv[0], Args);
  lockwright::reportError(std::string("unknown command '") + Command + "'");
  std::fputs(Usage, stderr);
  return lockwright::ExitUsage;
}

} // namespace
