// What the barrier checks share: how an event is named in a message, the
// target's verdict on a barrier kind, and the mechanical fix-its (strengthen an
// order argument, WRITE_ONCE -> smp_store_release, move a barrier statement).
#ifndef LOCKWRIGHT_TOOL_CHECK_BARRIER_BARRIERSUPPORT_H
#define LOCKWRIGHT_TOOL_CHECK_BARRIER_BARRIERSUPPORT_H

#include "Check.h"
#include "analysis/OrderingModel.h"

#include "clang/Basic/Diagnostic.h"

#include <optional>
#include <string>
#include <vector>

namespace lockwright {

/// "'WRITE_ONCE'", "'store' (relaxed)", "a plain store", "a volatile load".
std::string describeEvent(const OrderingEvent &E);
/// "'msg.data'", "'a' and 'b'", "'a', 'b' and 2 more".
std::string quotedList(const std::vector<std::string> &Items);
/// "'consume'" for the function an event sits in.
std::string functionLabel(const FunctionOrdering &F);

/// How the target implements a barrier kind or ordered access ("dmb ishst", "a compiler
/// barrier"), and whether it emits an instruction there (the hardware reorders).
struct TargetBarrier {
  std::string Implementation;
  bool Instruction = false;
};
std::optional<TargetBarrier> targetBarrier(const CheckContext &Ctx, const std::string &Op);

/// Fix-its that give E the ordering Wanted (Release or Acquire): an order argument spelled
/// relaxed becomes the same dialect's spelling of Wanted; a ONCE accessor becomes its
/// dialect's release store or acquire load. Empty when the change is not mechanical.
std::vector<clang::FixItHint> strengthenFix(const CheckContext &Ctx, const OrderingEvent &E,
                                            ApiNames::MemoryOrder Wanted);

/// E's order argument respelled as Wanted in its own spelling (memory_order_acquire ->
/// memory_order_relaxed, __ATOMIC_ACQUIRE -> __ATOMIC_RELAXED); none unless the specs know
/// the new name as Wanted.
std::optional<clang::FixItHint> respellOrderFix(const CheckContext &Ctx, const OrderingEvent &E,
                                                ApiNames::MemoryOrder Wanted);
/// The indentation of Loc's line, for inserted lines.
std::string indentOf(const clang::SourceManager &SM, clang::SourceLocation Loc);

/// Fix-its that move the barrier statement holding Barrier to just before the statement
/// holding Target, which must start after NotBefore (the access the barrier must follow);
/// empty unless the barrier is a whole statement of a block in the same file.
std::vector<clang::FixItHint> moveBarrierFix(const CheckContext &Ctx, const FunctionOrdering &F,
                                             const OrderingEvent &Barrier, const OrderingEvent &Target,
                                             clang::SourceLocation NotBefore);
/// Fix-its that delete the statement holding Barrier.
std::vector<clang::FixItHint> removeBarrierFix(const CheckContext &Ctx, const FunctionOrdering &F,
                                               const OrderingEvent &Barrier);
/// Fix-its that replace the barrier statement's call with Replacement ("smp_mb__after_atomic()").
std::vector<clang::FixItHint> replaceBarrierFix(const CheckContext &Ctx, const FunctionOrdering &F,
                                                const OrderingEvent &Barrier, const std::string &Replacement);

} // namespace lockwright


namespace lockwright {

/// The base of the barrier checks: they judge the TU's ordering model once it is parsed.
class OrderingCheck : public Check {
public:
  using Check::Check;
  void registerMatchers(clang::ast_matchers::MatchFinder &) override {}
  void check(const clang::ast_matchers::MatchFinder::MatchResult &) override {}
  void endOfTranslationUnit() override { judge(context().ordering()); }
  OrderingUse orderingUse() const override { return OrderingUse::Everything; }

protected:
  virtual void judge(OrderingModel &Model) = 0;
};

/// Whether an event in (From, To) of F orders the stores before it with Publish.
bool storesOrderedBetween(const CheckContext &Ctx, const FunctionOrdering &F, size_t From, size_t To);
/// Whether an event in (From, To) of F orders the guard load at From with the loads after.
bool loadsOrderedBetween(const CheckContext &Ctx, const FunctionOrdering &F, size_t From, size_t To);
/// What E orders on the target: the model's portable answer, or fully where E is an RMW the
/// target orders in hardware and the compiler cannot move accesses across (a hardware_rmw
/// name on an architecture with rmw_fully_ordered: ck's lock-prefixed asm on x86_64).
bool ordersStoresOn(const CheckContext &Ctx, const OrderingEvent &E);
bool ordersLoadsOn(const CheckContext &Ctx, const OrderingEvent &E);
bool releasesOn(const CheckContext &Ctx, const OrderingEvent &E);
bool acquiresOn(const CheckContext &Ctx, const OrderingEvent &E);
/// Whether the target (or the guard's own semantics: ONCE, consume) makes an address
/// dependency on Guard's value order the dependent loads after it.
bool dependenciesOrder(const CheckContext &Ctx, const OrderingEvent &Guard);
/// Whether every paired data load depends on the guard's value and the target (or the
/// guard's own semantics: ONCE, consume) makes that dependency order them.
bool dependencyOrders(const CheckContext &Ctx, const OrderingPair &P);
/// OFence's evidence that a pair is a synchronisation the authors meant: the other side is
/// ordered. The writer is when its data stores are ordered before the publishing store; the
/// reader when its guard is ordered before its data loads (acquire, a read barrier, an address
/// dependency), or when it only stores to the data (a store after a load is never speculated).
bool writerOrdered(const CheckContext &Ctx, const OrderingPair &P);
/// Plain accesses on both sides: neither treats the location as shared (an owner's own field,
/// a single-threaded variant), so a missing release or acquire is no finding.
bool plainOnBothSides(const OrderingPair &P);
bool readerOrdered(const CheckContext &Ctx, const OrderingPair &P);
/// The evidence itself: ordering the authors wrote on purpose. A call the model cannot see
/// into (printk, a helper in another file) or a lock taken in between may order, so it keeps a
/// side from being reported, but it says nothing about whether the location is a flag.
bool writerCares(const CheckContext &Ctx, const OrderingPair &P);
bool readerCares(const CheckContext &Ctx, const OrderingPair &P);
/// Whether a barrier the authors wrote (a fence or an RMW, not a call or lock that may happen
/// to order) stands in (From, To) of F and orders what Orders says.
bool deliberateBetween(const CheckContext &Ctx, const FunctionOrdering &F, size_t From, size_t To,
                       bool (*Orders)(const CheckContext &, const OrderingEvent &));
/// The read barriers of a reader that order no other loads on the far side of its guard load:
/// where one stands outside the pair it is misplaced (misplacedReadBarrier, across TUs).
std::vector<size_t> strayLoadBarriers(const FunctionOrdering &R, size_t Guard);
/// A write barrier of the writer that stands outside the pair's data stores and publishing
/// store (after the publishing store, or before every data store), when nothing between
/// orders them.
std::optional<size_t> misplacedWriteBarrier(const CheckContext &Ctx, const OrderingPair &P);
/// A read barrier of the reader outside its guard load and first data load.
std::optional<size_t> misplacedReadBarrier(const CheckContext &Ctx, const OrderingPair &P);
/// The note that says how the target treats the reordering a finding is about ("store-store":
/// smp_wmb's implementation; "load-load": smp_rmb's).
std::string hardwareNote(const CheckContext &Ctx, bool Stores);

} // namespace lockwright

#endif
