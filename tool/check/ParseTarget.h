// How a translation unit is parsed for an architecture: with clang's --target
// where clang has the target and this machine has the C library headers (a
// sysroot, or the host itself); otherwise as the host, and every report says so.
// One decision for `check --arch` and `layout --arch`.
#ifndef LOCKWRIGHT_TOOL_CHECK_PARSETARGET_H
#define LOCKWRIGHT_TOOL_CHECK_PARSETARGET_H

#include <string>

namespace lockwright {

struct ResolvedSpec;

struct ParseTarget {
  std::string TargetFlag; // "--target=<triple>", or empty: the host's layout stands in
  std::string WhyHost;    // why not, when it does: "clang has no target for parisc"
};

ParseTarget parseTargetFor(const ResolvedSpec &Spec);

} // namespace lockwright

#endif
