#include "analysis/WaitLoops.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <map>

namespace lockwright {

using namespace clang;
using Kind = OrderingEvent::Kind;

namespace {

/// The natural loop of the back edge Latch -> Header: the header and every block that reaches
/// the latch without passing through the header.
std::set<int> naturalLoop(const std::vector<std::vector<int>> &Preds, int Header, int Latch) {
  std::set<int> Loop = {Header};
  std::vector<int> Work;
  if (Loop.insert(Latch).second)
    Work.push_back(Latch);
  while (!Work.empty()) {
    int B = Work.back();
    Work.pop_back();
    for (int P : Preds[B])
      if (Loop.insert(P).second)
        Work.push_back(P);
  }
  return Loop;
}

/// Loop statements of Body, innermost last.
void loopStatements(const Stmt *S, std::vector<const Stmt *> &Out) {
  if (!S)
    return;
  if (isa<WhileStmt>(S) || isa<DoStmt>(S) || isa<ForStmt>(S)) {
    // `do { ... } while (0)` (a statement macro's wrapper) runs once: not a loop.
    const Expr *Cond = loopCondition(S);
    const auto *Literal = Cond ? dyn_cast<IntegerLiteral>(Cond->IgnoreParenImpCasts()) : nullptr;
    if (!Literal || Literal->getValue() != 0)
      Out.push_back(S);
  }
  for (const Stmt *Child : S->children())
    loopStatements(Child, Out);
}

/// Whether S leaves the loop it is the body of other than by the condition: a break or goto
/// not inside a nested loop or switch, or any return.
bool leavesEarly(const Stmt *S, bool Nested) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S))
    return true;
  if (isa<BreakStmt>(S))
    return !Nested;
  bool Inner = Nested || isa<WhileStmt>(S) || isa<DoStmt>(S) || isa<ForStmt>(S) || isa<SwitchStmt>(S);
  for (const Stmt *Child : S->children())
    if (leavesEarly(Child, Inner))
      return true;
  return false;
}

/// Whether S changes a variable itself (`i++`, `n -= 1`, `x = y + 1`): a loop that does makes
/// progress of its own. Assigning a loaded value to a local (`v = READ_ONCE(x)`) does not.
bool advancesSomething(const Stmt *S, const FunctionOrdering &F, const SourceManager &SM) {
  if (!S)
    return false;
  if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->isIncrementDecrementOp())
    return true;
  if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp()) {
    if (B->isCompoundAssignmentOp())
      return true;
    // `v = <a load>`: the right side holds an event of the model and nothing else writes.
    SourceRange Right = B->getRHS()->getSourceRange();
    bool Loaded = std::any_of(F.Events.begin(), F.Events.end(), [&](const OrderingEvent &E) {
      return E.isLoad() && rangeHolds(SM, SM.getExpansionRange(Right).getAsRange(), E.Range);
    });
    if (!Loaded || !isa<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts()))
      return true;
  }
  for (const Stmt *Child : S->children())
    if (advancesSomething(Child, F, SM))
      return true;
  return false;
}

/// The locals S assigns, increments or decrements (`p = p->next`, `i++`, `while ((d = d->parent))`).
void assignedLocals(const Stmt *S, std::set<const VarDecl *> &Out) {
  if (!S)
    return;
  const Expr *Target = nullptr;
  if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->isIncrementDecrementOp())
    Target = U->getSubExpr();
  else if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
    Target = B->getLHS();
  if (Target)
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts()))
      if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()); V && !V->hasGlobalStorage())
        Out.insert(V);
  for (const Stmt *Child : S->children())
    assignedLocals(Child, Out);
}

/// Whether the loop walks: an exit load's address goes through a local the loop assigns
/// (`while (p->next != end) p = p->next;`, `sw_ring[id].mbuf` with `id` advanced), so each pass
/// reads another location. A walk is a search, not a wait for another thread's store.
bool walks(const WaitLoop &L, const SourceManager &SM) {
  std::set<const VarDecl *> Assigned;
  assignedLocals(loopCondition(L.Statement), Assigned);
  assignedLocals(loopBody(L.Statement), Assigned);
  if (const auto *For = dyn_cast<ForStmt>(L.Statement))
    assignedLocals(For->getInc(), Assigned);
  const FunctionOrdering &F = *L.Function;
  return std::any_of(L.ExitLoads.begin(), L.ExitLoads.end(), [&](size_t I) {
    return std::any_of(Assigned.begin(), Assigned.end(),
                       [&](const VarDecl *V) { return F.mentions(F.Events[I].Range, V, SM); });
  });
}

} // namespace

const Stmt *loopBody(const Stmt *Loop) {
  if (const auto *W = dyn_cast<WhileStmt>(Loop))
    return W->getBody();
  if (const auto *D = dyn_cast<DoStmt>(Loop))
    return D->getBody();
  if (const auto *F = dyn_cast<ForStmt>(Loop))
    return F->getBody();
  return nullptr;
}

const Expr *loopCondition(const Stmt *Loop) {
  if (const auto *W = dyn_cast<WhileStmt>(Loop))
    return W->getCond();
  if (const auto *D = dyn_cast<DoStmt>(Loop))
    return D->getCond();
  if (const auto *F = dyn_cast<ForStmt>(Loop))
    return F->getCond();
  return nullptr;
}

std::vector<WaitLoop> findWaitLoops(const std::vector<FunctionOrdering> &Functions, const ApiNames &Names,
                                    const SourceManager &SM) {
  std::vector<WaitLoop> Loops;
  for (const FunctionOrdering &F : Functions) {
    if (F.Events.empty() || F.RpoIndex.empty())
      continue;
    std::vector<std::vector<int>> Preds(F.Successors.size());
    for (size_t B = 0; B < F.Successors.size(); ++B)
      for (int S : F.Successors[B])
        Preds[S].push_back(static_cast<int>(B));
    // One loop per header: the union of its back edges' natural loops.
    std::map<int, std::set<int>> ByHeader;
    for (size_t B = 0; B < F.Successors.size(); ++B)
      for (int S : F.Successors[B])
        if (F.RpoIndex[B] >= 0 && F.RpoIndex[S] >= 0 && F.RpoIndex[S] <= F.RpoIndex[B]) {
          std::set<int> Body = naturalLoop(Preds, S, static_cast<int>(B));
          ByHeader[S].insert(Body.begin(), Body.end());
        }
    if (ByHeader.empty())
      continue; // no loop: nothing to find, and no body to walk for loop statements
    std::vector<const Stmt *> Statements;
    if (F.Function && F.Function->getBody())
      loopStatements(F.Function->getBody(), Statements);
    size_t FirstOfFunction = Loops.size();
    for (auto &[Header, Blocks] : ByHeader) {
      WaitLoop L;
      L.Function = &F;
      L.Blocks = std::move(Blocks);
      for (size_t I = 0; I < F.Events.size(); ++I)
        if (L.Blocks.count(F.Events[I].Block))
          L.Events.push_back(I);
      // The exit branches: blocks of the loop with a successor outside it.
      std::vector<SourceRange> ExitConditions;
      for (const auto &[Branch, Condition] : F.Branches)
        if (L.Blocks.count(Branch) &&
            std::any_of(F.Successors[Branch].begin(), F.Successors[Branch].end(),
                        [&](int S) { return !L.Blocks.count(S); }))
          ExitConditions.push_back(Condition);
      for (size_t I : L.Events) {
        const OrderingEvent &E = F.Events[I];
        if (E.What != Kind::Load || E.Private)
          continue;
        const std::vector<const VarDecl *> &Values = F.valuesOf(I, SM);
        bool Decides = std::any_of(ExitConditions.begin(), ExitConditions.end(), [&](SourceRange C) {
          return rangeHolds(SM, C, E.Range) || std::any_of(Values.begin(), Values.end(), [&](const VarDecl *V) {
                   return F.mentions(C, V, SM);
                 });
        });
        if (Decides && !E.Location.empty())
          L.ExitLoads.push_back(I);
        // A volatile read with no location the model names (MMIO through a helper:
        // `*(volatile uint64_t *)addr`) is a poll all the same.
        L.PollsMarked |= Decides && E.How != OrderingEvent::Access::Plain;
      }
      if (L.ExitLoads.empty())
        continue;
      bool Works = false;
      for (size_t I : L.Events) {
        const OrderingEvent &E = F.Events[I];
        if (E.What == Kind::Fence) {
          const ApiNames::Operation *Op = E.Api.empty() ? nullptr : Names.operation(E.Api);
          L.Relaxes |= Op && Op->Op == "cpu_relax";
          L.ReloadsEachPass = true; // every fence is at least a compiler barrier
        } else if (E.What == Kind::OpaqueCall) {
          L.ReloadsEachPass = true;
          Works = true;
        } else if (E.What != Kind::Load && !E.Private) {
          Works = true; // a store, an RMW, a lock operation
        }
      }
      for (const auto &[Block, Stores] : F.LargePlainCalls)
        Works |= Stores && L.Blocks.count(Block);
      // The innermost loop statement whose condition or body holds every exit load.
      for (auto It = Statements.rbegin(); It != Statements.rend(); ++It) {
        SourceRange Whole = SM.getExpansionRange((*It)->getSourceRange()).getAsRange();
        if (std::all_of(L.ExitLoads.begin(), L.ExitLoads.end(),
                        [&](size_t I) { return rangeHolds(SM, Whole, F.Events[I].Range); })) {
          L.Statement = *It;
          break;
        }
      }
      if (L.Statement) {
        const Expr *Cond = loopCondition(L.Statement);
        SourceRange CondRange = Cond ? SM.getExpansionRange(Cond->getSourceRange()).getAsRange() : SourceRange();
        L.ExitsByCondition = Cond && !leavesEarly(loopBody(L.Statement), false) &&
                             std::all_of(L.ExitLoads.begin(), L.ExitLoads.end(),
                                         [&](size_t I) { return rangeHolds(SM, CondRange, F.Events[I].Range); });
        Works |= advancesSomething(Cond, F, SM) || advancesSomething(loopBody(L.Statement), F, SM) || walks(L, SM);
        if (const auto *For = dyn_cast<ForStmt>(L.Statement))
          Works |= For->getInc() != nullptr;
      } else {
        Works = true; // a goto loop: too unusual to judge
      }
      L.OnlyWaits = !Works;
      Loops.push_back(std::move(L));
    }
    // In the order the function's events run, so findings come in source order.
    std::sort(Loops.begin() + FirstOfFunction, Loops.end(),
              [](const WaitLoop &A, const WaitLoop &B) { return A.ExitLoads.front() < B.ExitLoads.front(); });
  }
  return Loops;
}

} // namespace lockwright
