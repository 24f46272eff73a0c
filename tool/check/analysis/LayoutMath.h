// Window arithmetic for records whose base address is only known to be a
// multiple of their alignment: can two objects share a window, can one
// straddle a line boundary, how aligned is a field really.
#ifndef LOCKWRIGHT_TOOL_CHECK_ANALYSIS_LAYOUTMATH_H
#define LOCKWRIGHT_TOOL_CHECK_ANALYSIS_LAYOUTMATH_H

#include <algorithm>
#include <cstdint>

namespace lockwright {

inline bool isPowerOfTwo(uint64_t N) { return N && (N & (N - 1)) == 0; }

/// Whether the object ending at AEnd (exclusive) and the one starting at
/// BStart (>= AEnd) can have bytes in one Window-byte window, for some base
/// that is a multiple of RecordAlign (both powers of two).
inline bool mayShareWindow(uint64_t AEnd, uint64_t BStart, uint64_t Window, uint64_t RecordAlign) {
  uint64_t Granule = std::min(RecordAlign, Window);
  uint64_t ALast = AEnd - 1;
  return (ALast % Granule) + (BStart - ALast) < Window;
}

/// Whether Size bytes at Offset can cross a Line-byte boundary for some base
/// that is a multiple of RecordAlign.
inline bool mayStraddle(uint64_t Offset, uint64_t Size, uint64_t Line, uint64_t RecordAlign) {
  uint64_t Granule = std::min(RecordAlign, Line);
  if (Granule >= Line)
    return (Offset % Line) + Size > Line;
  return Size > Granule - (Offset % Granule);
}

/// Whether one access to a synchronisation object can cross a Line-byte boundary for some
/// base that is a multiple of RecordAlign: Size bytes at Offset, accessed AccessUnit bytes at a
/// time (an array's element, a lock record's word; 0 or over 16 bytes or not a power of two: no
/// single access, so nothing to split). `check` (layout-split-atomic) and `layout` both ask this.
inline bool accessMayStraddle(uint64_t Offset, uint64_t Size, uint64_t AccessUnit, uint64_t Line,
                              uint64_t RecordAlign) {
  if (AccessUnit > 16 || !isPowerOfTwo(AccessUnit))
    return false;
  // The units sit at Offset plus multiples of AccessUnit; the pattern repeats every line.
  for (uint64_t At = Offset; At + AccessUnit <= Offset + Size && At < Offset + Line + AccessUnit; At += AccessUnit)
    if (mayStraddle(At, AccessUnit, Line, RecordAlign))
      return true;
  return false;
}

/// The alignment a field at Offset in a record aligned to RecordAlign is guaranteed.
inline uint64_t effectiveAlign(uint64_t Offset, uint64_t RecordAlign) {
  if (Offset == 0)
    return RecordAlign;
  return std::min<uint64_t>(RecordAlign, Offset & (~Offset + 1));
}

} // namespace lockwright

#endif
