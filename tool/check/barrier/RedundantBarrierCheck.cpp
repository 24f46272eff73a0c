#include "barrier/RedundantBarrierCheck.h"

#include "spec/SpecLoader.h"

#include <algorithm>
#include <set>

namespace lockwright {

using Kind = OrderingEvent::Kind;
using MemoryOrder = ApiNames::MemoryOrder;

namespace {

/// Whether E touches memory or orders it (compiler barriers and relax hints do neither).
bool memoryEvent(const OrderingEvent &E) { return !(E.What == Kind::Fence && E.Op == "compiler_barrier"); }

bool fullFence(const OrderingEvent &E) {
  return E.What == Kind::Fence && (E.Op == "full" || (E.Op == "fence" && E.Order == MemoryOrder::SeqCst));
}

/// What a fence orders on the target: the spec's `orders:` for a barrier kind, the C11
/// definition for a C11 fence (seq_cst as the target's full barrier).
std::optional<std::set<std::string>> ordersOn(const CheckContext &Ctx, const OrderingEvent &E) {
  const ResolvedSpec *Spec = Ctx.target().Spec;
  // smp_mb__{before,after}_atomic order against the RMW beside them, not in general.
  if (!Spec || E.What != Kind::Fence || E.Op == "before_atomic" || E.Op == "after_atomic")
    return std::nullopt;
  std::string Op = E.Op;
  if (Op == "fence") {
    if (!E.Order)
      return std::nullopt;
    switch (*E.Order) {
    case MemoryOrder::SeqCst:
    case MemoryOrder::Full:
      Op = "full";
      break;
    case MemoryOrder::Acquire:
    case MemoryOrder::Consume:
      return std::set<std::string>{"load-load", "load-store"};
    case MemoryOrder::Release:
      return std::set<std::string>{"load-store", "store-store"};
    case MemoryOrder::AcqRel:
      return std::set<std::string>{"load-load", "load-store", "store-store"};
    case MemoryOrder::Relaxed:
      return std::set<std::string>{};
    }
  }
  std::optional<ArchModel::BarrierEffect> Effect = Spec->model().barrierEffect(Op);
  if (!Effect)
    return std::nullopt;
  return std::set<std::string>(Effect->Orders.begin(), Effect->Orders.end());
}

std::optional<size_t> neighbour(const FunctionOrdering &F, size_t I, int Step) {
  for (long J = static_cast<long>(I) + Step; J >= 0 && J < static_cast<long>(F.Events.size()); J += Step)
    if (memoryEvent(F.Events[J])) {
      const OrderingEvent &A = F.Events[Step < 0 ? J : I], &B = F.Events[Step < 0 ? I : J];
      // Neighbours on every path only: events on two arms of a branch are not.
      if (!F.follows(A.Block, B.Block))
        return std::nullopt;
      return static_cast<size_t>(J);
    }
  return std::nullopt;
}

} // namespace

void RedundantBarrierCheck::judge(OrderingModel &Model) {
  const ResolvedSpec *Spec = context().target().Spec;
  std::set<const OrderingEvent *> Reported;
  for (const FunctionOrdering &F : Model.functions()) {
    for (size_t I = 0; I < F.Events.size(); ++I) {
      const OrderingEvent &B = F.Events[I];
      // Only a barrier written here: one inside a callee is that callee's business, and two
      // library calls in a row cannot drop the fence they share.
      if (B.What != Kind::Fence || !memoryEvent(B) || B.Inlined || Reported.count(&B))
        continue;
      std::optional<size_t> Prev = neighbour(F, I, -1), Next = neighbour(F, I, +1);

      // Beside a value-returning, fully ordered RMW: implied on every architecture.
      if (fullFence(B)) {
        bool Done = false;
        for (std::optional<size_t> N : {Prev, Next}) {
          // smp_mb__{before,after}_atomic order atomic RMWs only (atomic_t.txt): a plain
          // `flags |= bit` beside a full barrier needs the full barrier.
          if (!N || F.Events[*N].What != Kind::Rmw || F.Events[*N].How != OrderingEvent::Access::Atomic)
            continue;
          const OrderingEvent &Rmw = F.Events[*N];
          bool After = *N < I;
          if (Rmw.Order == MemoryOrder::Full && Rmw.ReturnsValue) {
            report(B.At, "%0 is redundant: %1 %2 it is a value-returning RMW, fully ordered on every architecture",
                   {describeEvent(B), describeEvent(Rmw), After ? "before" : "after"},
                   {{Rmw.At, "the fully ordered RMW"}}, removeBarrierFix(context(), F, B));
            Done = true;
            break;
          }
          std::optional<std::string> Weaker =
              Rmw.ReturnsValue ? std::nullopt
                               : context().model().names().nameFor(B.Dialect, After ? "after_atomic" : "before_atomic",
                                                                                 B.Api, B.Op);
          if (B.Op == "full" && Weaker) {
            std::optional<TargetBarrier> T = targetBarrier(context(), After ? "after_atomic" : "before_atomic");
            std::string Cost = T ? " (on " + context().target().label() + " it is " + T->Implementation + ")" : "";
            report(B.At, "%0 %1 the non-value-returning RMW %2 is stronger than needed: '%3()' orders it%4",
                   {describeEvent(B), After ? "after" : "before", describeEvent(Rmw), *Weaker, Cost},
                   {{Rmw.At, "the RMW it orders"}}, replaceBarrierFix(context(), F, B, *Weaker + "()"));
            Done = true;
            break;
          }
          if (Rmw.Order == MemoryOrder::SeqCst && Rmw.How == OrderingEvent::Access::Atomic && Spec &&
              Spec->model().RmwFullyOrdered.Value) {
            report(B.At,
                   "%0 is redundant on %1: the seq_cst RMW %2 %3 it is fully ordered there; architectures whose "
                   "RMWs are not fully ordered need it",
                   {describeEvent(B), context().target().label(), describeEvent(Rmw), After ? "before" : "after"},
                   {{Rmw.At, "the RMW", {}, Spec->model().RmwFullyOrdered.Source}});
            Done = true;
            break;
          }
        }
        if (Done) {
          Reported.insert(&B);
          continue;
        }
      }

      // Two fences with no access between: the one the other's orderings include is redundant.
      if (Prev && F.Events[*Prev].What == Kind::Fence) {
        const OrderingEvent &A = F.Events[*Prev];
        std::optional<std::set<std::string>> OA = ordersOn(context(), A), OB = ordersOn(context(), B);
        if (OA && OB && !A.Inlined && !Reported.count(&A)) {
          bool AInB = std::includes(OB->begin(), OB->end(), OA->begin(), OA->end());
          bool BInA = std::includes(OA->begin(), OA->end(), OB->begin(), OB->end());
          const OrderingEvent *Weak = AInB ? &A : BInA ? &B : nullptr;
          const OrderingEvent *Strong = Weak == &A ? &B : &A;
          if (Weak) {
            report(Weak->At, "%0 is redundant on %1: the adjacent %2 already orders everything it does",
                   {describeEvent(*Weak), context().target().label(), describeEvent(*Strong)},
                   {{Strong->At, "the barrier that subsumes it"}}, removeBarrierFix(context(), F, *Weak));
            Reported.insert(Weak);
            continue;
          }
        }
      }

      // A read barrier right after an acquire load, with no other unordered load before it.
      std::optional<std::set<std::string>> OB = ordersOn(context(), B);
      if (Prev && F.Events[*Prev].What == Kind::Load && F.Events[*Prev].acquires() && OB &&
          !OB->count("store-load") && !OB->count("store-store")) {
        bool OnlyAcquires = true;
        for (long J = static_cast<long>(*Prev) - 1; J >= 0; --J) {
          const OrderingEvent &E = F.Events[J];
          if (OrderingModel::ordersLoads(E))
            break;
          if (E.isLoad() && !E.acquires() && !E.Location.empty()) {
            OnlyAcquires = false;
            break;
          }
        }
        if (OnlyAcquires) {
          report(B.At, "%0 is redundant: the acquire load %1 before it already orders the loads after it",
                 {describeEvent(B), describeEvent(F.Events[*Prev])}, {{F.Events[*Prev].At, "the acquire load"}},
                 removeBarrierFix(context(), F, B));
          Reported.insert(&B);
        }
      }
    }
  }
}

} // namespace lockwright
