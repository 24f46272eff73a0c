#ifndef LOCKWRIGHT_TOOL_CHECK_LAYOUT_LOCK_ALIGNMENT_CHECK_H
#define LOCKWRIGHT_TOOL_CHECK_LAYOUT_LOCK_ALIGNMENT_CHECK_H

#include "Check.h"

namespace lockwright {

/// See docs/checks/layout-lock-alignment.md.
class LockAlignmentCheck : public Check {
public:
  using Check::Check;
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace lockwright

#endif
