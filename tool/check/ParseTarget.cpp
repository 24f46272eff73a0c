#include "ParseTarget.h"

#include "spec/SpecLoader.h"

namespace lockwright {

ParseTarget parseTargetFor(const ResolvedSpec &Spec) {
  std::string ClangTarget = Spec.stringFact("toolchain.clang_target");
  std::string Sysroot = Spec.stringFact("toolchain.sysroot");
  bool Headers = !Sysroot.empty() || Spec.boolFact("toolchain.native");
  if (ClangTarget.empty()) {
    // The proxy's own headers would be another architecture's: parse over this one's.
    std::string Proxy = Spec.stringFact("toolchain.layout_proxy.target");
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

} // namespace lockwright
