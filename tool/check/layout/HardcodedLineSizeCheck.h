#ifndef LOCKWRIGHT_TOOL_CHECK_LAYOUT_HARDCODED_LINE_SIZE_CHECK_H
#define LOCKWRIGHT_TOOL_CHECK_LAYOUT_HARDCODED_LINE_SIZE_CHECK_H

#include "Check.h"

namespace lockwright {

/// See docs/checks/layout-hardcoded-line-size.md.
class HardcodedLineSizeCheck : public Check {
public:
  using Check::Check;
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void registerPPCallbacks(clang::Preprocessor &PP) override;
};

} // namespace lockwright

#endif
