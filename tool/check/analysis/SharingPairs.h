// The false-sharing pairs of a record, judged on data (summary/Summary.h) so that one TU's
// run and a whole program's merged summaries go through the same rules: independently
// written sync objects that can fall in one destructive-interference window. Shared by the
// layout-false-sharing check and the layout view, so both flag the same pairs.
#ifndef LOCKWRIGHT_TOOL_CHECK_ANALYSIS_SHARINGPAIRS_H
#define LOCKWRIGHT_TOOL_CHECK_ANALYSIS_SHARINGPAIRS_H

#include "summary/Summary.h"

#include <vector>

namespace lockwright {

struct SharingPair {
  const SharedObject *First;  // lower offset
  const SharedObject *Second; // the one to move
};

/// What O is, by its type or by its uses: a link (list_head.next) read and written whole, or
/// published, is no sync object unless an RMW or a poll contends for it.
ObjectKind kindOf(const SharedObject &O, const UseTable &Uses);

/// Why O is a sync object, for a note: "'wait_lock' is a lock by its type 'arch_spinlock_t'",
/// "'missed' is contended: 'account' passes it to 'atomic_inc'".
std::string reasonFor(const SharedObject &O, const UseTable &Uses);

/// Some function uses both (a lock and what it guards, a ticket lock's halves), counting uses
/// of a record that holds one ('&s->stack' passed on). Not when they only meet in functions
/// that each write one and read the other (a ring's producer and consumer): that is two
/// parties handing off.
bool usedTogether(const SharedObject &A, const SharedObject &B, const UseTable &Uses);

/// The entry of the one thread (ProgramSummary::assignThreadRoles) that makes every hot write
/// of both A and B, or "": one thread's writes do not contend with each other.
std::string oneWritingThread(const SharedObject &A, const SharedObject &B, const UseTable &Uses);

/// The key of a lock held at every hot write of both A and B (a lock counts as held by its own
/// writers), or "": two fields written only under one lock are never written at once.
std::string commonLock(const SharedObject &A, const SharedObject &B, const UseTable &Uses);

/// Who writes A and B, for the note of a pair reported: "no function writes both: 'misses' by
/// 'count_miss'; 'hits' by 'count_hit'", with the readers and cold writers that did not count.
std::string writersNote(const SharedObject &A, const SharedObject &B, const UseTable &Uses);

/// Seen written somewhere in the program (hot: not only at init or before publication); a lock
/// seen named outside init and teardown. An object no file uses is not judged.
bool mayBeWritten(const SharedObject &O, const UseTable &Uses);

/// The keys of the records that are per CPU: made so by some TU (RecordSummary::PerCpu), or
/// embedded only in records that are (rcu_segcblist, only ever inside rcu_data and srcu_data).
std::set<std::string> perCpuRecords(const std::vector<std::pair<std::string, RecordSummary>> &Records);

/// Each object is paired with its nearest earlier partner only (one report per object).
std::vector<SharingPair> falseSharingPairs(const RecordSummary &R, const UseTable &Uses, uint64_t Window);

} // namespace lockwright

#endif
