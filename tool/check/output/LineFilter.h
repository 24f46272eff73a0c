// --line-filter, as clang-tidy's: JSON naming the files (a path's tail) and line ranges whose
// findings are reported. No Clang here.
#ifndef LOCKWRIGHT_TOOL_CHECK_OUTPUT_LINEFILTER_H
#define LOCKWRIGHT_TOOL_CHECK_OUTPUT_LINEFILTER_H

#include "summary/Summary.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lockwright {

/// For each file name (a path's tail), the line ranges reported (none: all of the file's).
struct LineFilter {
  std::vector<std::pair<std::string, std::vector<std::pair<unsigned, unsigned>>>> Files;
  /// Whether a finding at At is reported: always with no filter.
  bool passes(const SourcePoint &At) const;
};

/// Parses --line-filter's JSON ('[{"name":"a.c","lines":[[1,3]]},{"name":"b.h"}]'); nullopt
/// with Error set when it is not that shape.
std::optional<LineFilter> parseLineFilter(const std::string &Text, std::string &Error);

} // namespace lockwright

#endif
