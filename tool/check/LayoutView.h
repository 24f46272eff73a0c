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
class SpecRepository;
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

/// How the source is compiled: the arguments after `--`, or its command in the compilation
/// database of BuildPath (`-p`, as `check`).
struct LayoutSource {
  std::vector<std::string> CompilerArgs;
  std::optional<std::string> BuildPath;
};

/// Parses File and lays out RecordName: for Forced's target where clang can (--arch), else
/// for the TU's own target and its spec, as `check` judges it.
std::optional<LayoutReport> computeLayout(const std::string &File, const LayoutSource &Source,
                                          const std::string &RecordName, const ResolvedSpec *Forced,
                                          SpecRepository &Repo, const ApiNames &Names, std::string &Error);

std::string renderLayoutText(const LayoutReport &R);
std::string renderLayoutJson(const LayoutReport &R);
std::string renderLayoutSvg(const LayoutReport &R);
std::string renderLayoutHtml(const LayoutReport &R);

} // namespace lockwright

#endif
