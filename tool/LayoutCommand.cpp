// `lockwright layout`: a record's layout on a target (options here, the
// analysis and the renderers in check/LayoutView).
#include "CommandLine.h"
#include "Commands.h"
#include "SpecOptions.h"

#include "check/LayoutView.h"
#include "api/ApiNames.h"
#include "FileIO.h"

#include <algorithm>
#include <cstdio>

namespace lockwright {

namespace {

const char LayoutUsage[] =
    "usage: lockwright layout SOURCE --record NAME [--arch ARCH|host] [--cpu CPU] [-p BUILD_DIR]\n"
    "                         [--format text|json|svg|html] [-o FILE|-] [--spec-dir DIR] [-- COMPILER ARGS]\n"
    "\n"
    "Shows the record's fields with offsets and sizes, holes, cache-line boundaries, its locks and\n"
    "atomics and the pairs that false-share, for the architecture's layout and line sizes.\n"
    "The source compiles with the arguments after --, or with its command in BUILD_DIR's\n"
    "compile_commands.json (-p); without --arch it is judged for its own target, as check does.\n";

} // namespace

int runLayout(const ToolContext &Tool, const std::vector<std::string> &Args) {
  CommandLine CL;
  declareSpecOptions(CL);
  CL.option("record");
  CL.option("arch");
  CL.option("cpu");
  CL.option("format");
  CL.option("output", {"-o"});
  CL.option("build-path", {"-p"});
  if (std::optional<int> Exit = parseArguments(CL, Args, LayoutUsage))
    return *Exit;
  std::string Error;
  // Positionals: the source, then (after --) the compiler arguments.
  std::vector<std::string> Positionals = CL.positionals();
  auto Dashes = std::find(Args.begin(), Args.end(), "--");
  std::vector<std::string> CompilerArgs;
  if (Dashes != Args.end())
    CompilerArgs.assign(Dashes + 1, Args.end());
  size_t Sources = Positionals.size() - CompilerArgs.size();
  if (Sources != 1 || !CL.has("record")) {
    reportError("layout takes one source file and --record NAME");
    std::fputs(LayoutUsage, stderr);
    return ExitUsage;
  }
  std::string Format = CL.getOr("format", "text");
  if (Format != "text" && Format != "json" && Format != "svg" && Format != "html") {
    reportError("--format must be text, json, svg or html");
    return ExitUsage;
  }

  if (CL.has("cpu") && !CL.has("arch")) {
    reportError("--cpu needs --arch");
    return ExitUsage;
  }
  if (CL.has("build-path") && !CompilerArgs.empty()) {
    reportError("give the compiler arguments after -- or a build directory with -p, not both");
    return ExitUsage;
  }
  std::optional<SpecRepository> Specs = makeRepository(Tool, CL);
  if (!Specs)
    return ExitUsage;
  SpecRepository &Repo = *Specs;
  DiagnosticList Diags;
  std::optional<ResolvedSpec> Spec;
  if (CL.has("arch")) {
    std::optional<std::string> Arch = resolveArchName(Repo, *CL.get("arch"), Diags);
    Spec = Arch ? Repo.resolve(*Arch, CL.getOr("cpu", ""), Diags) : std::nullopt;
    if (!Spec) {
      Diags.print(stderr);
      return Arch && !Repo.names(*Arch, CL.getOr("cpu", "")) ? ExitUsage : ExitError;
    }
  }
  std::vector<ApiSpec> Apis = Repo.loadApis(Diags);
  Diags.print(stderr);
  if (Diags.hasErrors())
    return ExitError;
  ApiNames Names = ApiNames::fromSpecs(Apis);

  LayoutSource Source{CompilerArgs, CL.get("build-path")};
  std::optional<LayoutReport> Report = computeLayout(Positionals[0], Source, *CL.get("record"),
                                                     Spec ? &*Spec : nullptr, Repo, Names, Error);
  if (!Report) {
    reportError(Positionals[0] + ": " + Error);
    return ExitError;
  }
  std::string Text = Format == "json"   ? renderLayoutJson(*Report)
                     : Format == "svg"  ? renderLayoutSvg(*Report)
                     : Format == "html" ? renderLayoutHtml(*Report)
                                        : renderLayoutText(*Report);
  if (std::optional<std::string> Out = CL.get("output"); Out && *Out != "-") {
    if (writeFileIfChanged(*Out, Text, Error) == WriteOutcome::Failed) {
      reportError(Error);
      return ExitError;
    }
    return ExitOk;
  }
  if (!writeStdout(Text, Error)) { // "-o -" and no -o: stdout
    reportError(Error);
    return ExitError;
  }
  return ExitOk;
}

} // namespace lockwright
