// `check --fix`: a file's fixes go in all together, or none of them when two conflict.
#ifndef LOCKWRIGHT_TOOL_CHECK_FIXAPPLIER_H
#define LOCKWRIGHT_TOOL_CHECK_FIXAPPLIER_H

#include "clang/Tooling/Core/Replacement.h"

#include <vector>

namespace lockwright {

/// Applies each file's fixes all together, or none of them when two conflict; written
/// atomically. Returns how many files could not be fixed.
int applyFixes(const std::vector<clang::tooling::Replacement> &All);

} // namespace lockwright

#endif
