#include "wait/WaitChecks.h"

#include "analysis/WaitLoops.h"

#include "spec/SpecLoader.h"
#include "StringList.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/IdentifierTable.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <set>

namespace lockwright {

using namespace clang;
using Kind = OrderingEvent::Kind;
using MemoryOrder = ApiNames::MemoryOrder;

namespace {

bool inOneFile(const SourceManager &SM, SourceRange R) {
  return R.isValid() && R.getBegin().isFileID() && R.getEnd().isFileID() &&
         SM.isWrittenInSameFile(R.getBegin(), R.getEnd());
}

std::string textOf(const CheckContext &Ctx, CharSourceRange R) {
  return Lexer::getSourceText(R, Ctx.ast().getSourceManager(), Ctx.langOpts()).str();
}

/// The location just past statement S, its ';' included: a do-while, an expression, an asm, a
/// return, break, continue or goto ends before its ';'; a loop or if ends where its last
/// sub-statement does.
std::optional<SourceLocation> afterStatement(const CheckContext &Ctx, const Stmt *S) {
  const SourceManager &SM = Ctx.ast().getSourceManager();
  if (const auto *W = dyn_cast<WhileStmt>(S))
    return afterStatement(Ctx, W->getBody());
  if (const auto *F = dyn_cast<ForStmt>(S))
    return afterStatement(Ctx, F->getBody());
  if (const auto *If = dyn_cast<IfStmt>(S))
    return afterStatement(Ctx, If->getElse() ? If->getElse() : If->getThen());
  SourceLocation End = SM.getExpansionRange(S->getEndLoc()).getEnd(); // past a macro's expansion
  if (!End.isFileID())
    return std::nullopt;
  if (isa<DoStmt>(S) || isa<Expr>(S) || isa<AsmStmt>(S) || isa<ReturnStmt>(S) || isa<BreakStmt>(S) || isa<ContinueStmt>(S) ||
      isa<GotoStmt>(S)) {
    SourceLocation Semi = Lexer::findLocationAfterToken(End, tok::semi, SM, Ctx.langOpts(), false);
    return Semi.isValid() ? std::optional<SourceLocation>(Semi) : std::nullopt;
  }
  return Lexer::getLocForEndOfToken(End, 0, SM, Ctx.langOpts());
}

/// The body waits and nothing else: empty, or only relax calls (`cpu_relax();`).
bool onlyRelaxes(const Stmt *Body, const WaitLoop &L, size_t Poll, const ApiNames &Names) {
  if (!Body || isa<NullStmt>(Body))
    return true;
  for (size_t I : L.Events) {
    const OrderingEvent &E = L.Function->Events[I];
    if (I == Poll)
      continue;
    const ApiNames::Operation *Op = E.Api.empty() ? nullptr : Names.operation(E.Api);
    if (!(E.What == Kind::Fence && Op && Op->Op == "cpu_relax"))
      return false;
  }
  // A relax is a call (`cpu_relax()`) or a macro's asm statement (`lw_cpu_relax()`); the
  // events above say it is nothing but a relax.
  auto RelaxShaped = [](const Stmt *S) { return isa<CallExpr>(S) || isa<AsmStmt>(S) || isa<NullStmt>(S); };
  const auto *Block = dyn_cast<CompoundStmt>(Body);
  if (!Block)
    return RelaxShaped(Body);
  return std::all_of(Block->body_begin(), Block->body_end(), RelaxShaped);
}

/// An instruction template's mnemonics ("ldar {val}, [{addr}]" -> "ldar").
std::string mnemonics(const std::string &Implementation) {
  if (Implementation.find('{') == std::string::npos)
    return Implementation;
  std::vector<std::string> Words;
  for (const std::string &Part : splitList(Implementation, ';'))
    Words.push_back(Part.substr(0, Part.find(' ')));
  return joinList(Words, "; ");
}

/// The cost note: what one poll's ordering is on the target.
std::string costNote(const CheckContext &Ctx, const std::string &Op) {
  std::optional<TargetBarrier> B = targetBarrier(Ctx, Op);
  if (!B)
    return "";
  B->Implementation = mnemonics(B->Implementation);
  std::string Label = Ctx.target().label();
  if (!B->Instruction)
    return "on " + Label + " the ordering is " + B->Implementation +
           ": no instruction per pass, but the compiler may not move later accesses above any pass; other "
           "targets pay an instruction for each";
  return "on " + Label + " each pass pays " + B->Implementation + "; relaxed polls pay nothing and one acquire "
         "after the exit orders the same";
}

/// The relax hint the target's spec names (`pause`, `yield`, `or 27,27,27`).
std::string relaxInstruction(const CheckContext &Ctx) {
  const ResolvedSpec *Spec = Ctx.target().Spec;
  if (!Spec)
    return "";
  const Fence &Relax = Spec->model().CpuRelax;
  return joinList(Relax.Asm, "; ");
}

/// A name some dialect gives Op that this TU defines: a macro, or (unless MacroOnly: a
/// wrapper macro takes the lvalue itself, a function its address) a declared function.
std::optional<std::string> availableName(const CheckContext &Ctx, const std::string &Op, bool MacroOnly) {
  IdentifierTable &Idents = Ctx.ast().Idents;
  for (const std::string &Name : Ctx.model().names().namesOf(Op)) {
    auto It = Idents.find(Name);
    if (It == Idents.end() || !It->getValue())
      continue;
    if (It->getValue()->hasMacroDefinition() || (!MacroOnly && It->getValue()->getFETokenInfo()))
      return Name;
  }
  return std::nullopt;
}

/// The plain lvalue a load event reads, if its address may be taken (not a bit-field, not a
/// `register` local): ONCE macros and the atomic builtins take it.
const Expr *addressableLoad(const OrderingEvent &E) {
  const auto *X = dyn_cast_or_null<Expr>(E.Element);
  if (!X)
    return nullptr;
  X = X->IgnoreParenImpCasts();
  if (!X->isLValue() || X->refersToBitField() || X->getType().isVolatileQualified() || X->getType()->isAtomicType())
    return nullptr;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(X))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()); Var && Var->getStorageClass() == SC_Register)
      return nullptr;
  return X;
}

/// `__atomic_load_n` takes integers, enums and pointers.
bool builtinLoadable(const Expr *X) {
  return X && (X->getType()->isIntegralOrEnumerationType() || X->getType()->isPointerType());
}

} // namespace

void AcquireInLoopCheck::judge(OrderingModel &Model) {
  CheckContext &Ctx = context();
  const SourceManager &SM = Ctx.ast().getSourceManager();
  const ApiNames &Names = Ctx.model().names();
  std::set<const OrderingEvent *> Reported;
  for (const WaitLoop &L : Model.waitLoops()) {
    if (!L.OnlyWaits)
      continue;
    const FunctionOrdering &F = *L.Function;
    for (size_t I : L.ExitLoads) {
      const OrderingEvent &E = F.Events[I];
      bool AcquireLoad = E.How != OrderingEvent::Access::Plain && E.Order == MemoryOrder::Acquire &&
                         E.Op != "cond_load_acquire";
      // ck's shape: a relaxed poll followed, inside the loop, by a read or acquire fence.
      std::optional<size_t> Fence;
      if (!AcquireLoad && E.How != OrderingEvent::Access::Plain && E.Order == MemoryOrder::Relaxed)
        for (size_t J : L.Events) {
          const OrderingEvent &B = F.Events[J];
          if (J > I && B.What == Kind::Fence &&
              (B.Op == "read" || (B.Op == "fence" && (B.Order == MemoryOrder::Acquire || B.Order == MemoryOrder::AcqRel))))
            Fence = J;
        }
      if (!AcquireLoad && !Fence)
        continue;
      // Other shared loads in the loop: the acquire orders them on every pass, which the loop
      // may need (it reads a buffer while it waits).
      bool ReadsOthers = false;
      for (size_t J : L.Events) {
        const OrderingEvent &O = F.Events[J];
        ReadsOthers |= O.isLoad() && !O.Private && !O.Location.empty() && O.Location != E.Location;
      }
      const OrderingEvent &At = Fence ? F.Events[*Fence] : E;
      if (ReadsOthers || !Reported.insert(&At).second)
        continue;
      std::vector<CheckContext::Note> Notes;
      if (std::string Cost = costNote(Ctx, Fence ? "read" : "acquire_load"); !Cost.empty())
        Notes.push_back({At.At, Cost});
      std::vector<FixItHint> Fixes;
      const Stmt *Body = L.Statement ? loopBody(L.Statement) : nullptr;
      bool PollShape = L.Statement && L.ExitsByCondition && !E.Inlined && L.ExitLoads.size() == 1;
      std::optional<std::string> CondLoad = Names.nameFor(E.Dialect, "cond_load_acquire", E.Api, E.Op);
      // Where the loop statement ends, its ';' included: every fix-it edits up to there.
      std::optional<SourceLocation> LoopEnd = PollShape ? afterStatement(Ctx, L.Statement) : std::nullopt;
      if (Fence) {
        // Move the fence after the loop: one acquire once the wait is over.
        std::vector<FixItHint> Remove = removeBarrierFix(Ctx, F, At);
        // The fence as the whole body: the loop keeps an empty one.
        if (Body && isa<Expr>(Body) && LoopEnd)
          if (std::optional<SourceLocation> BodyEnd = afterStatement(Ctx, Body); BodyEnd && Body->getBeginLoc().isFileID())
            Remove = {FixItHint::CreateReplacement(CharSourceRange::getCharRange(Body->getBeginLoc(), *BodyEnd), ";")};
        if (LoopEnd && !Remove.empty() && inOneFile(SM, At.Range)) {
          Fixes = Remove;
          Fixes.push_back(FixItHint::CreateInsertion(
              *LoopEnd, "\n" + indentOf(SM, L.Statement->getBeginLoc()) +
                          textOf(Ctx, CharSourceRange::getTokenRange(At.Range)) + ";"));
        }
        report(At.At, "%0 inside the loop polling '%1' orders every pass; only the pass that ends the wait needs it",
               {describeEvent(At), E.LocationText}, Notes, Fixes);
        continue;
      }
      const Expr *Cond = L.Statement ? loopCondition(L.Statement) : nullptr;
      SourceRange CondRange = Cond ? SM.getExpansionRange(Cond->getSourceRange()).getAsRange() : SourceRange();
      if (LoopEnd && CondLoad && E.Op == "acquire_load" && onlyRelaxes(Body, L, I, Names) &&
          !isa<DoStmt>(L.Statement) && (!isa<ForStmt>(L.Statement) || (!cast<ForStmt>(L.Statement)->getInit() &&
                                                                       !cast<ForStmt>(L.Statement)->getInc())) &&
          inOneFile(SM, CondRange) && inOneFile(SM, E.Range) && !E.AddressText.empty()) {
        // while (smp_load_acquire(&x) & BUSY) cpu_relax();  ->  smp_cond_load_acquire(&x, !(VAL & BUSY));
        std::string Before = textOf(Ctx, CharSourceRange::getCharRange(CondRange.getBegin(), E.Range.getBegin()));
        std::string After = textOf(Ctx, CharSourceRange::getCharRange(
                                            Lexer::getLocForEndOfToken(E.Range.getEnd(), 0, SM, Ctx.langOpts()),
                                            Lexer::getLocForEndOfToken(CondRange.getEnd(), 0, SM, Ctx.langOpts())));
        std::string Address = E.AddressText;
        Fixes.push_back(FixItHint::CreateReplacement(
            CharSourceRange::getCharRange(L.Statement->getBeginLoc(), *LoopEnd),
            *CondLoad + "(" + Address + ", !(" + Before + "VAL" + After + "));"));
        std::string Strategy = Ctx.target().Spec ? Ctx.target().Spec->model().Wait.Strategy : "";
        Notes.push_back({L.Statement->getBeginLoc(),
                         "'" + *CondLoad + "' polls relaxed and orders once, after the value it waits for" +
                             (Strategy.empty() ? std::string()
                                               : " (on " + Ctx.target().label() + " it waits by " + Strategy + ")")});
      } else if (LoopEnd && E.OrderArg.isValid()) {
        // atomic_load_explicit(&x, memory_order_acquire) -> relaxed, and one acquire fence after.
        std::optional<FixItHint> Relaxed = respellOrderFix(Ctx, E, MemoryOrder::Relaxed);
        std::optional<std::string> FenceName = Names.nameFor(E.Dialect, "fence", E.Api, E.Op);
        if (Relaxed && FenceName) {
          Fixes = {*Relaxed, FixItHint::CreateInsertion(*LoopEnd, "\n" + indentOf(SM, L.Statement->getBeginLoc()) +
                                                                    *FenceName + "(" + E.OrderText + ");")};
          Notes.push_back({L.Statement->getBeginLoc(),
                           "a relaxed poll and one '" + *FenceName + "' after the loop order the same"});
        }
      }
      report(E.At, "%0 of '%1' orders every pass of this polling loop; only the load that ends the wait needs acquire",
             {describeEvent(E), E.LocationText}, Notes, Fixes);
    }
  }
}

void PlainVariableWaitCheck::judge(OrderingModel &Model) {
  CheckContext &Ctx = context();
  const SourceManager &SM = Ctx.ast().getSourceManager();
  std::set<const OrderingEvent *> Reported;
  std::optional<std::string> ReadOnce = availableName(Ctx, "read_once", /*MacroOnly=*/true);
  for (const WaitLoop &L : Model.waitLoops()) {
    // A call or barrier in the loop makes the compiler reload; a loop that writes does work.
    if (!L.OnlyWaits || L.ReloadsEachPass)
      continue;
    const FunctionOrdering &F = *L.Function;
    // A marked load deciding the exit is what the loop waits on; a plain one beside it is the
    // bound it compares with (`while (ck_pr_load_uint(&barrier) < n_threads);`) or the address
    // it reads (`while (read64(ws->base + 8) & bit);`), which the compiler may well read once.
    if (L.PollsMarked)
      continue;
    // One finding per location the loop waits on, at its first load, fixing every load of it
    // (`do { i = s->idx; ... } while (i != s->idx);` reads it twice).
    std::vector<std::string> Waited;
    for (size_t I : L.ExitLoads)
      if (!F.Events[I].Inlined && std::find(Waited.begin(), Waited.end(), F.Events[I].Location) == Waited.end())
        Waited.push_back(F.Events[I].Location);
    for (const std::string &Location : Waited) {
      std::vector<const OrderingEvent *> Loads;
      for (size_t I : L.ExitLoads)
        if (!F.Events[I].Inlined && F.Events[I].Location == Location && Reported.insert(&F.Events[I]).second)
          Loads.push_back(&F.Events[I]);
      if (Loads.empty())
        continue;
      const OrderingEvent &E = *Loads.front();
      bool AllRewritable = true, AllBuiltinLoadable = true;
      for (const OrderingEvent *Load : Loads) {
        const Expr *Object = addressableLoad(*Load);
        AllRewritable &= Object && inOneFile(SM, Load->Range) && Load->Range.getBegin() == Load->At;
        AllBuiltinLoadable &= builtinLoadable(Object);
      }
      std::vector<FixItHint> Fixes;
      std::vector<CheckContext::Note> Notes;
      auto wrapEach = [&](const std::string &Before, const std::string &After) {
        for (const OrderingEvent *Load : Loads) {
          SourceLocation End = Lexer::getLocForEndOfToken(Load->Range.getEnd(), 0, SM, Ctx.langOpts());
          Fixes.push_back(FixItHint::CreateInsertion(Load->Range.getBegin(), Before));
          Fixes.push_back(FixItHint::CreateInsertion(End, After));
        }
      };
      if (AllRewritable && ReadOnce) {
        wrapEach(*ReadOnce + "(", ")");
      } else if (AllRewritable && AllBuiltinLoadable) {
        // No ONCE macro in this TU: GCC's and Clang's builtin reads any scalar once per call,
        // in C and C++ alike, and costs a plain load.
        wrapEach("__atomic_load_n(&", ", __ATOMIC_RELAXED)");
        Notes.push_back({E.At, "a relaxed atomic load costs what the plain one does; where every access of it is "
                               "shared, declare it _Atomic or std::atomic instead"});
      } else {
        Notes.push_back({E.At, "read it with READ_ONCE() in kernel-style code, atomic_load_explicit(..., "
                               "memory_order_relaxed) on an _Atomic object, or __atomic_load_n(&x, __ATOMIC_RELAXED)"});
      }
      for (size_t K = 1; K < Loads.size(); ++K)
        Notes.push_back({Loads[K]->At, "the loop reads it here too"});
      report(E.At,
             "the loop waits on '%0', a plain load the compiler may perform once: nothing in the loop writes it or "
             "hides a write (a call, a barrier), so the loop may never see another thread's store",
             {E.LocationText}, Notes, Fixes);
    }
  }
}

void MissingRelaxCheck::judge(OrderingModel &Model) {
  CheckContext &Ctx = context();
  const SourceManager &SM = Ctx.ast().getSourceManager();
  std::set<const Stmt *> Reported;
  for (const WaitLoop &L : Model.waitLoops()) {
    if (!L.OnlyWaits || L.Relaxes || !L.Statement)
      continue;
    const FunctionOrdering &F = *L.Function;
    // The polled load: a marked one (a plain one is wait-plain-variable's finding).
    const OrderingEvent *Poll = nullptr;
    for (size_t I : L.ExitLoads)
      if (F.Events[I].How != OrderingEvent::Access::Plain)
        Poll = &F.Events[I];
    if (!Poll || !Reported.insert(L.Statement).second)
      continue;
    std::vector<CheckContext::Note> Notes;
    std::vector<FixItHint> Fixes;
    std::optional<std::string> Relax = Ctx.model().names().nameFor(Poll->Dialect, "cpu_relax", Poll->Api, Poll->Op);
    if (!Relax)
      Relax = availableName(Ctx, "cpu_relax", /*MacroOnly=*/false);
    const Stmt *Body = loopBody(L.Statement);
    if (Relax && Body && Body->getBeginLoc().isFileID() && Body->getEndLoc().isFileID()) {
      std::string Call = *Relax + "();";
      if (isa<NullStmt>(Body)) {
        Fixes = {FixItHint::CreateReplacement(CharSourceRange::getTokenRange(Body->getSourceRange()), Call)};
      } else if (const auto *Block = dyn_cast<CompoundStmt>(Body)) {
        if (Block->body_empty())
          Fixes = {FixItHint::CreateReplacement(CharSourceRange::getTokenRange(Block->getSourceRange()),
                                                "{ " + Call + " }")};
        else if (std::optional<SourceLocation> End = afterStatement(Ctx, Block->body_back());
                 End && !isa<CompoundStmt>(Block->body_back()))
          Fixes = {FixItHint::CreateInsertion(*End, "\n" + indentOf(SM, Block->body_back()->getBeginLoc()) + Call)};
      }
    }
    std::string Hint = relaxInstruction(Ctx);
    Notes.push_back({L.Statement->getBeginLoc(),
                     Relax ? "'" + *Relax + "()' tells the core it spins" +
                                 (Hint.empty() ? std::string() : " ('" + Hint + "' on " + Ctx.target().label() + ")")
                           : "this dialect names no relax call; " +
                                 (Hint.empty() ? std::string("the target's relax instruction")
                                               : "'" + Hint + "' on " + Ctx.target().label()) +
                                 " tells the core it spins"});
    report(L.Statement->getBeginLoc(),
           "busy-wait on '%0' with no relax hint: each pass competes with the sibling hyperthread and keeps "
           "requesting the line",
           {Poll->LocationText}, Notes, Fixes);
  }
}

} // namespace lockwright
