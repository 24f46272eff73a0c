// The polling loops of a translation unit, found in the ordering model (issue "wait checks"):
// the natural loops of each function's CFG, the loads their exit depends on, and whether the
// loop does anything but wait (writes, calls, locks). The three wait checks judge these.
#ifndef LOCKWRIGHT_TOOL_CHECK_ANALYSIS_WAITLOOPS_H
#define LOCKWRIGHT_TOOL_CHECK_ANALYSIS_WAITLOOPS_H

#include "analysis/OrderingModel.h"

#include <set>
#include <vector>

namespace clang {
class Expr;
class SourceManager;
class Stmt;
} // namespace clang

namespace lockwright {

struct WaitLoop {
  const FunctionOrdering *Function = nullptr;
  std::set<int> Blocks;        // the CFG blocks of the natural loop
  std::vector<size_t> Events;  // the function's events inside the loop, in order
  /// Loads of shared locations that decide whether the loop exits: written in an exit branch's
  /// condition, or loaded into a local that condition reads.
  std::vector<size_t> ExitLoads;
  /// Some marked load (volatile, ONCE, atomic) decides the exit, whether or not the model
  /// names its location: then a plain exit load is a bound or an address, not the wait.
  bool PollsMarked = false;
  /// The while/do/for statement, when the loop is one and its condition holds every exit load.
  const clang::Stmt *Statement = nullptr;
  /// The statement's only exit is its own condition (no break, return or goto leaves it).
  bool ExitsByCondition = false;
  /// Nothing in the loop but loads, branches, fences and assignments of loaded values to
  /// locals: no store to shared memory, no RMW, no lock operation, no call the model cannot see
  /// into, no counter it advances (`i++` makes a bounded spin, not a wait), no pointer or index
  /// of an exit load it moves (`p = p->next` makes a list walk).
  bool OnlyWaits = false;
  /// The loop relaxes: a cpu_relax-like call (specs/api op cpu_relax) on some path.
  bool Relaxes = false;
  /// The loop has a compiler barrier or a call the compiler cannot see through, so each pass
  /// reloads what it reads.
  bool ReloadsEachPass = false;
};

/// A while, do or for statement's body and condition (null for other statements).
const clang::Stmt *loopBody(const clang::Stmt *Loop);
const clang::Expr *loopCondition(const clang::Stmt *Loop);

/// Every loop of Functions whose exit depends on a shared load (OrderingModel::waitLoops()
/// keeps them for the checks that judge them).
std::vector<WaitLoop> findWaitLoops(const std::vector<FunctionOrdering> &Functions, const ApiNames &Names,
                                    const clang::SourceManager &SM);

} // namespace lockwright

#endif
