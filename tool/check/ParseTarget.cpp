#include "ParseTarget.h"

#include "spec/SpecLoader.h"

namespace lockwright {

ParseTarget parseTargetFor(const ResolvedSpec &Spec) {
  std::string ClangTarget = Spec.stringFact("toolchain.clang_target");
  bool Headers = !Spec.stringFact("toolchain.sysroot").empty() || Spec.boolFact("toolchain.native");
  if (ClangTarget.empty())
    return {"", "clang has no target for " + Spec.Arch};
  if (!Headers)
    return {"", "no C library headers for " + Spec.Arch + " here (its spec names no sysroot)"};
  return {"--target=" + ClangTarget, ""};
}

} // namespace lockwright
