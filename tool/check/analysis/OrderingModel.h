// The ordering model of a translation unit (DESIGN.md, "The ordering model"):
// for each function, the ordered events on shared locations (loads, stores,
// RMWs, fences, lock operations, calls whose effect is unknown), read from its
// clang::CFG in reverse post-order; and the writer/reader pairs (OFence's idea)
// that share a publishing location and data locations. Events are named by
// specs/api only: at API macro expansion sites (the macro's body is never read
// as text) and from the AST for calls, methods and atomic builtins.
#ifndef LOCKWRIGHT_TOOL_CHECK_ANALYSIS_ORDERINGMODEL_H
#define LOCKWRIGHT_TOOL_CHECK_ANALYSIS_ORDERINGMODEL_H

#include "api/ApiNames.h"

#include "clang/Basic/SourceLocation.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace clang {
class ASTContext;
class SourceManager;
class Decl;
class FunctionDecl;
class PPCallbacks;
class Preprocessor;
class RecordDecl;
class Stmt;
class VarDecl;
} // namespace clang

namespace lockwright {

class SyncModel;
struct WaitLoop;

/// Whether Loc, or all of Inner, lies within Range (both ends included), in translation-unit order.
bool rangeHolds(const clang::SourceManager &SM, clang::SourceRange Range, clang::SourceLocation Loc);
bool rangeHolds(const clang::SourceManager &SM, clang::SourceRange Range, clang::SourceRange Inner);

struct OrderingEvent {
  enum class Kind { Load, Store, Rmw, Fence, LockAcquire, LockRelease, OpaqueCall };
  /// How a load or store is performed.
  enum class Access { Plain, Volatile, Once, Atomic };
  using MemoryOrder = ApiNames::MemoryOrder;

  Kind What = Kind::OpaqueCall;
  Access How = Access::Plain;
  /// Atomics and ordered accesses: their order (Relaxed for ONCE accesses); fences with an
  /// order (C11 fences); none for plain and volatile accesses.
  std::optional<MemoryOrder> Order;
  /// Fences: the spec's op ("full", "read", "write", "fence", "compiler_barrier",
  /// "before_atomic", "after_atomic", "acquire_after_ctrl_dep"); ordered accesses: their op.
  std::string Op;
  bool ReturnsValue = false; // RMWs: whether the old or new value is returned
  bool HardwareRmw = false;  // RMWs: ordered as the architecture's instruction (ApiNames)
  std::string Api;           // the API name as written; empty for plain C
  std::string Dialect;

  /// Accesses: the location ("struct ring.prod_tail", "global flag") and how to print it.
  std::string Location, LocationText;
  clang::SourceLocation At;   // where a finding about it is reported
  clang::SourceRange Range;   // the whole access, call or expansion, in the file
  const clang::Stmt *Element = nullptr; // the CFG element that produced it
  /// The local the loaded value goes to (`p = rcu_dereference(gp)`), and the local pointer an
  /// access goes through (`p->data`): an address dependency joins the two.
  const clang::VarDecl *ValueTo = nullptr, *Through = nullptr;
  clang::SourceRange BaseRange; // accesses through a pointer expression: that expression
  /// For fix-its, where written in a file: the API name, the address argument (its text
  /// too), and the order argument.
  clang::SourceRange NameRange, AddressArg, OrderArg;
  std::string AddressText, OrderText;
  /// Through a pointer to memory this function allocated and has not yet published.
  bool Private = false;
  bool UnderLock = false;
  /// The CFG block it stands in (FunctionOrdering::follows tells straight lines).
  int Block = -1;
  /// Accesses of a record field: the record.
  const clang::RecordDecl *Record = nullptr;
  /// Accesses of a global or static variable: the variable.
  const clang::VarDecl *Global = nullptr;
  /// Seen through a call of a function whose body holds it (reported at the call).
  bool Inlined = false;
  /// Seen through a call: the function called there (the outermost, where calls nest).
  const clang::FunctionDecl *InlinedFrom = nullptr;
  /// A plain store of a null pointer or zero (`entry->next = NULL`): it hands nothing over.
  bool StoresNull = false;
  /// A load in the arguments of a printf-like call (pr_err, fprintf): read to be printed, it
  /// guards nothing and nothing is read on its strength.
  bool Diagnostic = false;

  bool isLoad() const;  // reads the location (loads, value-returning RMWs, cmpxchg)
  bool isStore() const; // writes it (stores, RMWs)
  bool acquires() const; // an acquire (or stronger) read
  bool releases() const; // a release (or stronger) write
};

struct FunctionOrdering {
  const clang::FunctionDecl *Function = nullptr;
  std::vector<OrderingEvent> Events;
  /// Where each local variable is named, in the file, grouped by variable: a publishing store
  /// that names the pointer its data went through publishes that data (`xchg(&l->tail, node)`).
  std::vector<std::pair<clang::SourceLocation, const clang::VarDecl *>> Mentions;
  bool mentions(clang::SourceRange Range, const clang::VarDecl *V, const clang::SourceManager &SM) const;
  /// Each CFG block's only reachable predecessor, where it has exactly one.
  std::map<int, int> SolePredecessor;
  /// Whether block Later is reached only through block Earlier, along blocks with one
  /// predecessor each (the body of `do { } while (0)` after the code before it; not the two arms
  /// of a branch).
  bool follows(int Earlier, int Later) const;

  /// The CFG's shape, kept for control decisions: each block's reachable successors (by block
  /// ID), the entry block, and the blocks that branch on a condition, with its source range.
  std::vector<std::vector<int>> Successors;
  int EntryBlock = -1;
  std::vector<std::pair<int, clang::SourceRange>> Branches;
  /// Calls of functions too large to inline that hold no ordering event (the barrier checks
  /// judge nothing in them): the CFG block of each, and whether its body stores to memory
  /// other than its own locals. A wait loop that calls one that stores does work.
  std::vector<std::pair<int, bool>> LargePlainCalls;
  /// Local copies of values (`s = v & 1`): the assigned local and the expression's range.
  std::vector<std::pair<const clang::VarDecl *, clang::SourceRange>> Copies;
  /// Whether the load at event Guard decides whether event Data runs: Data's block is reached
  /// only through a branch whose condition reads the guard's value (the guard load itself, the
  /// local it went to, or a copy of that), and only on some of its outcomes (`if (!READ_ONCE(f))
  /// return;`, `while (!flag) ;`, `if (probes > bound) return NULL;`). A load after such code
  /// on every path, or before the branch, is not decided by it (`a = READ_ONCE(x); b = y;`).
  bool decides(size_t Guard, size_t Data, const clang::SourceManager &SM) const;
  /// Whether the address of the access at Data depends on the value of the load at Guard:
  /// through the local it went to or a copy of it (`p = READ_ONCE(gp); r = container_of(p, ...);
  /// r->x`), or the guard is the base expression itself (`READ_ONCE(gp)->x`).
  bool dependsOn(size_t Guard, size_t Data, const clang::SourceManager &SM) const;
  /// The locals that hold the value of the load at Guard: the one it went to and its copies.
  const std::vector<const clang::VarDecl *> &valuesOf(size_t Guard, const clang::SourceManager &SM) const;

  /// Each block's place in reverse post-order: an edge to a block that is not later is a loop's
  /// back edge.
  std::vector<int> RpoIndex;
  /// Whether block To runs after block From on some path with no loop back edge (not the other
  /// arm of a branch, not the previous iteration of a loop).
  bool forwardReaches(int From, int To) const;

private:
  mutable std::map<std::pair<int, int>, bool> Forward;
  mutable std::map<size_t, std::vector<const clang::VarDecl *>> ValuesByGuard; // valuesOf's answers
  /// The branches whose condition reads each guard's value (decides asks for every later event).
  mutable std::map<size_t, std::vector<int>> BranchesByGuard;
  /// Whether Block is reached only through Branch, and not from all of Branch's successors.
  bool branchDecides(int Branch, int Block) const;
  mutable std::map<std::pair<int, int>, bool> Decided;
};

/// A writer and a reader that meet on a publishing location: the writer stores Data, then
/// publishes; the reader loads the publishing location (the guard), then loads Data (message
/// passing, MP) or stores to it (S: the writer's late store must not overwrite the reader's).
/// Both may be one function run by two threads (a queue lock's node and tail).
struct OrderingPair {
  const FunctionOrdering *Writer = nullptr, *Reader = nullptr;
  size_t Publish = 0, Guard = 0;             // event indices
  size_t LastDataStore = 0, FirstDataLoad = 0; // the data accesses nearest the publishing pair
  /// Every paired data access, in order: the writer's stores, the reader's loads (empty for
  /// a reader that only stores) and stores.
  std::vector<size_t> DataStores, DataLoads, ReaderStores;
  std::vector<std::string> Data;             // the shared data locations, printable
};

class OrderingModel {
public:
  OrderingModel(const ApiNames &Names, const SyncModel &Sync, clang::ASTContext &AST);
  ~OrderingModel();

  /// Preprocessor callbacks that record API macro expansions; install before parsing.
  std::unique_ptr<clang::PPCallbacks> expansionRecorder(clang::Preprocessor &PP);

  /// Walk only the functions that write a barrier, and pair nothing (all barrier-redundant
  /// needs); set before the first use.
  void setFencesOnly(bool Only) { FencesOnly = Only; }

  /// Builds the events and pairs on first use.
  const std::vector<FunctionOrdering> &functions();
  const std::vector<OrderingPair> &pairs();
  /// The loops whose exit depends on a shared load (analysis/WaitLoops.h), found on first use.
  const std::vector<WaitLoop> &waitLoops();

  /// Whether E orders earlier stores before later stores (a write, full or release fence,
  /// a fully ordered RMW, a lock release, a call that may hide a barrier).
  static bool ordersStores(const OrderingEvent &E);
  /// Whether E orders earlier loads before later loads.
  static bool ordersLoads(const OrderingEvent &E);
  /// Whether the pairing shows that the two sides meant to synchronise: some access of the
  /// pair is marked (ONCE, volatile, atomic) or either side has a fence between.
  bool intendsSynchronisation(const OrderingPair &P) const;

  /// Every function's events and every pair, one per line (--dump-ordering).
  void dump(llvm::raw_ostream &OS);

  /// The two sides pairs() joins, each judged on its own function, for pairing with sides
  /// of other TUs (a writer in a.c, its reader in b.c). Valid once pairs() has run.
  /// Whether the store at S of W publishes (a marked location, not null, not under a lock, not
  /// into an object published later).
  bool publishes(const FunctionOrdering &W, size_t S) const;
  /// The data stores before W's publishing store at S that it may publish, latest per location.
  std::map<std::string, size_t> dataStoresBefore(const FunctionOrdering &W, size_t S) const;
  /// Whether the load at G of R can guard: a shared location's load, not the owner reading
  /// its own field, not a helper's load it does not return.
  bool guards(const FunctionOrdering &R, size_t G) const;
  /// What the access at D of R is to the guard at G: a load the guard decides or whose
  /// address depends on it, a store through the pointer it loaded (the S shape), or neither.
  enum class GuardedUse { None, Load, Store };
  GuardedUse guardedUse(const FunctionOrdering &R, size_t G, size_t D) const;

  struct ExpansionInfo;

private:
  void build();
  void pair();
  const ApiNames &Names;
  const SyncModel &Sync;
  clang::ASTContext &AST;
  bool Built = false;
  bool FencesOnly = false;
  /// Whether FD's body expands a barrier macro or calls a barrier function (FenceCallers).
  bool writesFence(const clang::FunctionDecl *FD, const std::set<const clang::FunctionDecl *> &FenceCallers) const;
  mutable std::vector<std::pair<clang::FileID, unsigned>> FenceSites;
  mutable bool FenceSitesKnown = false;
  std::vector<FunctionOrdering> Functions;
  std::unique_ptr<std::vector<WaitLoop>> WaitLoops;
  std::vector<OrderingPair> Pairs;
  /// Locations some access of the TU marks as shared (ONCE, volatile, atomic, an API call), and
  /// of those the ones marked loads and marked stores reach: what pair() decides flags by.
  std::set<std::string> Marked, MarkedLoads, MarkedStores;
  // API macro expansions by the macro name's raw location (ExpansionInfo is defined in the .cpp).
  std::unique_ptr<std::map<unsigned, ExpansionInfo>> Expansions;
};

} // namespace lockwright

#endif
