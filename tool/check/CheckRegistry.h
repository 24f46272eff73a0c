// Every check, registered by name in one place (CheckRegistry.cpp), and the
// clang-tidy style glob lists that select them ("-*,layout-*,-layout-split-atomic").
#ifndef LOCKWRIGHT_TOOL_CHECK_CHECKREGISTRY_H
#define LOCKWRIGHT_TOOL_CHECK_CHECKREGISTRY_H

#include "summary/Summary.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lockwright {

class Check;
class CheckContext;

struct CheckInfo {
  std::string Name;
  std::string Summary;
  std::function<std::unique_ptr<Check>(CheckContext &)> Create;
  std::vector<std::string> Options = {}; // its options ("ReportOverPadding"), set as NAME.Option
  /// For a check judged on the whole program's summaries (the reduce step): its findings on
  /// the merged summaries, and how many NOLINT suppressed.
  using ProgramJudge = void (*)(const ProgramSummary &, Finding::Level, std::vector<Finding> &, unsigned &);
  ProgramJudge JudgeProgram = nullptr;
};

const std::vector<CheckInfo> &allChecks();

/// The checks run when --checks is not given: every check whose measured precision on real
/// code (docs/real-world.md) is one a CI can keep on. The pairing barrier checks are opt-in
/// (`--checks='*'` or `--checks='barrier-*'`) until they meet the 3-in-4 target.
extern const char *const DefaultChecks;

/// A comma-separated list of globs, applied in order; a leading '-' removes.
class CheckFilter {
public:
  explicit CheckFilter(const std::string &Globs);
  bool enabled(const std::string &CheckName) const { return verdict(CheckName).value_or(false); }
  /// What the last glob naming CheckName says (on or off), or nullopt when none names it.
  std::optional<bool> verdict(const std::string &CheckName) const;
  /// Globs that match no check at all (likely typos), for a warning.
  std::vector<std::string> unmatched() const;

private:
  std::vector<std::pair<bool, std::string>> Globs; // (positive, glob)
};

} // namespace lockwright

#endif
