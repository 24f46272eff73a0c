// --arch all judges each TU against every spec: the same finding, worded per architecture, would
// print once per architecture. Merged, it prints once and names them all.
#ifndef LOCKWRIGHT_TOOL_CHECK_OUTPUT_ARCHMERGE_H
#define LOCKWRIGHT_TOOL_CHECK_OUTPUT_ARCHMERGE_H

#include "summary/Summary.h"

#include <string>
#include <vector>

namespace lockwright {

/// Findings that differ only by the architecture they name (the same check, place, message and
/// fixes once each name is replaced) become one whose message names every one of them
/// ("... on aarch64, arm and x86_64"), with the notes of all, each once. Arches: the names
/// judged, whose whole-word mentions are compared. Order: the first finding of each group.
std::vector<Finding> mergeAcrossArchitectures(const std::vector<const Finding *> &Findings,
                                              const std::vector<std::string> &Arches);

} // namespace lockwright

#endif
