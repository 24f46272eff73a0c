// `lockwright layout`: a record's layout on a target, pahole-style (offsets,
// sizes, holes, cache-line boundaries), with its synchronisation objects and
// false-sharing pairs marked; as text, JSON, SVG or HTML.
#ifndef LOCKWRIGHT_TOOL_CHECK_LAYOUTVIEW_H
#define LOCKWRIGHT_TOOL_CHECK_LAYOUTVIEW_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lockwright {

struct ResolvedSpec;
class ApiNames;

struct LayoutField {
  std::string Name, Type;
  uint64_t Offset = 0, Size = 0;
  std::string Kind = "data";   // "lock", "atomic", "holds sync objects" or "data"
  unsigned BitWidth = 0;       // non-zero for a bit-field; Offset/Size then cover the bytes it touches
  bool Straddles = false;      // crosses a cache-line boundary although it would fit in one line
  std::vector<std::string> SharesWith; // false-sharing partners (names of other fields)
};

struct LayoutReport {
  std::string Record, Arch, LayoutNote;
  uint64_t Size = 0, Align = 0, Line = 64, Destructive = 64;
  std::vector<LayoutField> Fields;
};

/// Parses File with CompilerArgs (for Spec's target where clang can) and lays out RecordName.
std::optional<LayoutReport> computeLayout(const std::string &File, const std::vector<std::string> &CompilerArgs,
                                          const std::string &RecordName, const ResolvedSpec &Spec,
                                          const ApiNames &Names, std::string &Error);

std::string renderLayoutText(const LayoutReport &R);
std::string renderLayoutJson(const LayoutReport &R);
std::string renderLayoutSvg(const LayoutReport &R);
std::string renderLayoutHtml(const LayoutReport &R);

} // namespace lockwright

#endif
