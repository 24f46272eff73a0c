#include "ParseTarget.h"

#include "spec/SpecLoader.h"

namespace lockwright {

ParseTarget parseTargetFor(const ResolvedSpec &Spec) {
  const ArchModel::ToolchainInfo &Toolchain = Spec.model().Toolchain;
  std::string ClangTarget = Toolchain.ClangTarget.value_or("");
  std::string Sysroot = Toolchain.Sysroot.value_or("");
  bool Headers = !Sysroot.empty() || Toolchain.Native;
  if (ClangTarget.empty()) {
    // The proxy's own headers would be another architecture's: parse over this one's.
    std::string Proxy = Toolchain.LayoutProxyTarget.value_or("");
    if (!Proxy.empty() && !Sysroot.empty())
      return {{"--target=" + Proxy, "--sysroot=" + Sysroot}, "", ""};
    return {{}, "clang has no target for " + Spec.Arch, ""};
  }
  if (!Headers)
    return {{"--target=" + ClangTarget, "-ffreestanding"},
            "",
            "no C library headers for " + Spec.Arch + " here (its spec names no sysroot): parsed freestanding, "
            "with the compiler's own headers only"};
  return {{"--target=" + ClangTarget}, "", ""};
}

std::optional<TripleSpec> specForTriple(SpecRepository &Repo, const std::string &Triple, DiagnosticList &Diags) {
  // A target no spec covers is judged against generic, with a note; a broken spec is an error.
  bool Broken = false;
  DiagnosticList NoMatch;
  std::optional<std::string> Arch = Repo.archForTriple(Triple, NoMatch, &Broken);
  if (Broken) {
    Diags.append(NoMatch);
    return std::nullopt;
  }
  std::optional<ResolvedSpec> Spec = Repo.resolve(Arch ? *Arch : "generic", "", Diags);
  if (!Spec)
    return std::nullopt;
  return TripleSpec{std::move(*Spec), Arch ? "" : "no spec matches the target '" + Triple + "'; judged against generic"};
}

} // namespace lockwright
