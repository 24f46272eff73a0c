// How a translation unit is parsed for an architecture: with clang's --target
// where clang has the target and this machine has the C library headers (a
// sysroot, or the host itself); where clang lacks the target, as the spec's layout
// proxy (a clang target with the same C layout) over the architecture's own
// headers; where clang has the target but no C library headers are here, freestanding
// (clang's own headers only; the layout is the target's, and reports say so); otherwise as
// the host, and every report says so.
// One decision for `check --arch` and `layout --arch`; and, without --arch, one decision of
// the spec a TU is judged against (specForTriple).
#ifndef LOCKWRIGHT_TOOL_CHECK_PARSETARGET_H
#define LOCKWRIGHT_TOOL_CHECK_PARSETARGET_H

#include "spec/Diagnostics.h"
#include "spec/SpecLoader.h"

#include <optional>
#include <string>
#include <vector>

namespace lockwright {

struct ParseTarget {
  std::vector<std::string> TargetFlags; // "--target=<triple>" [--sysroot=DIR | -ffreestanding], or none: the host's layout stands in
  std::string WhyHost;                  // why not, when it does: "clang has no target for sparc"
  std::string Note;                     // what a report should say about a parse that is the target's but limited
};

ParseTarget parseTargetFor(const ResolvedSpec &Spec);

/// The spec a TU built for a target triple is judged against when no --arch forces one.
struct TripleSpec {
  ResolvedSpec Spec;
  std::string Note; // set when no spec matches the triple and generic stands in
};

/// The spec whose `target.triples` match Triple, else generic with a note saying so.
std::optional<TripleSpec> specForTriple(SpecRepository &Repo, const std::string &Triple, DiagnosticList &Diags);

} // namespace lockwright

#endif
