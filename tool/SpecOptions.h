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

inline SpecRepository makeRepository(const ToolContext &Tool, const CommandLine &CL) {
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
