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
  bool matchesStatements() const override { return MatchesConstantUses; }

private:
  bool MatchesConstantUses = false; // C++: uses of std::hardware_destructive_interference_size
  // One per bound node.
  void checkAligned(const clang::Decl *D);
  void checkPadding(const clang::FieldDecl *F);
  void checkConstantUse(const clang::DeclRefExpr *Ref);

  /// A line-size literal (or alignment) of Value bytes against Threshold.
  void reportLiteral(clang::SourceLocation At, const clang::Expr *Literal, uint64_t Value, const std::string &What,
                     uint64_t Threshold);
  /// A named destructive-size constant whose value here is below the spec's.
  void reportConstant(const clang::DeclRefExpr *Ref, uint64_t Value);
};

} // namespace lockwright

#endif
