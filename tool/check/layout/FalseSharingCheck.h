#ifndef LOCKWRIGHT_TOOL_CHECK_LAYOUT_FALSE_SHARING_CHECK_H
#define LOCKWRIGHT_TOOL_CHECK_LAYOUT_FALSE_SHARING_CHECK_H

#include "Check.h"
#include "summary/SummaryBuilder.h"

namespace lockwright {

/// See docs/checks/layout-false-sharing.md. Whether two fields are written independently
/// depends on every function that uses them, in any TU: each TU adds its records and their
/// uses to its summary (map), and the pairs are judged on the union of the summaries (reduce).
class FalseSharingCheck : public Check {
public:
  FalseSharingCheck(std::string Name, CheckContext &Context);
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void endOfTranslationUnit() override;

  /// The reduce step: the findings on the merged summaries, each pair once.
  static void judgeProgram(const ProgramSummary &Program, Finding::Level Severity, std::vector<Finding> &Out,
                           unsigned &Suppressed);

private:
  SummaryBuilder Builder;
};

} // namespace lockwright

#endif
