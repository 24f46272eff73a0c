// The false-sharing pairs of a record: independently written sync objects
// that can fall in one destructive-interference window. Shared by the
// layout-false-sharing check and the layout view, so both flag the same pairs.
#ifndef LOCKWRIGHT_TOOL_CHECK_ANALYSIS_SHARINGPAIRS_H
#define LOCKWRIGHT_TOOL_CHECK_ANALYSIS_SHARINGPAIRS_H

#include "analysis/SyncModel.h"

#include <vector>

namespace lockwright {

struct SharingPair {
  SyncObject First;  // lower offset
  SyncObject Second; // the one to move
};

/// Each object is paired with its nearest earlier partner only (one report per object).
std::vector<SharingPair> falseSharingPairs(const SyncModel &Model, const clang::RecordDecl *R, uint64_t Window);

} // namespace lockwright

#endif
