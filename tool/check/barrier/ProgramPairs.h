// The pairing checks across translation units (OFence's pairing over a whole program): each TU
// writes its ordering sides (the writer and reader halves OrderingModel::pairs() joins, each
// judged in its own function) to its summary; the reduce step pairs a writer side and a reader
// side that no one TU saw together (a writer in a.c, its reader in b.c) by their flag and the
// data locations they share, and judges the pair as the TU-local checks would.
#ifndef LOCKWRIGHT_TOOL_CHECK_BARRIER_PROGRAMPAIRS_H
#define LOCKWRIGHT_TOOL_CHECK_BARRIER_PROGRAMPAIRS_H

#include "summary/Summary.h"

#include <string>
#include <vector>

namespace lockwright {

class CheckContext;

/// Writes the TU's ordering sides to its summary (barrier-missing-acquire does, once per TU),
/// only in a whole-program run (several TUs, --summaries, or the cache, whose summaries later
/// runs reduce).
void exportOrderingSides(CheckContext &Ctx);

/// A writer side and a reader side of different TUs meeting on a flag, and their shared data.
struct ProgramPair {
  const OrderingSide *Writer = nullptr, *Reader = nullptr;
  const SideAccess *LastStore = nullptr; // the writer's latest shared data store
  const SideAccess *FirstLoad = nullptr; // the reader's first shared data load; null: it only stores
  bool LoadsDepend = true;               // every shared data load depends on the guard's value
  std::vector<std::string> Data;         // the shared locations, printable
  /// Whether an address dependency orders the reader's loads (dependencyOrders, per side).
  bool dependencyOrders() const;
};

/// Every cross-TU pair of the program, writers in the order their TUs were added.
std::vector<ProgramPair> programPairs(const ProgramSummary &Program);

} // namespace lockwright

#endif
