// Options every subcommand that reads specs shares: where specs live and how
// `host` is resolved.
#ifndef LOCKWRIGHT_TOOL_SPECOPTIONS_H
#define LOCKWRIGHT_TOOL_SPECOPTIONS_H

#include "CommandLine.h"
#include "Commands.h"

#include "LockwrightConfig.h"
#include "spec/SpecLoader.h"


namespace lockwright {

inline void declareSpecOptions(CommandLine &CL) { CL.option("spec-dir"); }

/// The specs of --spec-dir, or the default's. A --spec-dir that is not a spec directory is a
/// usage error, said here (nullopt): otherwise every spec would be "unknown".
inline std::optional<SpecRepository> makeRepository(const ToolContext &Tool, const CommandLine &CL) {
  if (std::optional<std::string> Dir = CL.get("spec-dir"))
    if (std::optional<std::string> Problem = specDirProblem(*Dir)) {
      reportError("--spec-dir " + *Dir + ": " + *Problem);
      return std::nullopt;
    }
  return SpecRepository({CL.getOr("spec-dir", defaultSpecDir(Tool.Argv0))});
}

/// "host" becomes the spec matching this build's target triple.
inline std::optional<std::string> resolveArchName(SpecRepository &Repo, const std::string &Arch,
                                                  DiagnosticList &Diags) {
  if (Arch == "host")
    return Repo.archForTriple(std::string(LOCKWRIGHT_HOST_TRIPLE), Diags);
  return Arch;
}

} // namespace lockwright

#endif
