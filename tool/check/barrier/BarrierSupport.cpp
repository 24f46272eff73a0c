#include "barrier/BarrierSupport.h"

#include "spec/SpecLoader.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <cctype>

using namespace clang;

namespace lockwright {

using MemoryOrder = ApiNames::MemoryOrder;

namespace {

/// The innermost statement of a block (a child of a CompoundStmt) whose file range holds At.
const Stmt *blockStatement(const SourceManager &SM, const Stmt *S, SourceLocation At) {
  const Stmt *Found = nullptr;
  if (!S)
    return nullptr;
  for (const Stmt *Child : S->children()) {
    if (!Child)
      continue;
    CharSourceRange R = SM.getExpansionRange(Child->getSourceRange());
    if (!R.isValid() || SM.isBeforeInTranslationUnit(At, R.getBegin()) || SM.isBeforeInTranslationUnit(R.getEnd(), At))
      continue;
    if (isa<CompoundStmt>(S))
      Found = Child;
    if (const Stmt *Inner = blockStatement(SM, Child, At))
      Found = Inner;
    break;
  }
  return Found;
}

/// The statement holding E when it is nothing but E (`smp_wmb();`), with its end after the ';'.
std::optional<CharSourceRange> wholeStatement(const CheckContext &Ctx, const FunctionOrdering &F,
                                              const OrderingEvent &E) {
  const SourceManager &SM = Ctx.ast().getSourceManager();
  if (!E.Range.isValid() || !E.Range.getBegin().isFileID() || !F.Function->getBody())
    return std::nullopt;
  const Stmt *S = blockStatement(SM, F.Function->getBody(), E.Range.getBegin());
  if (!S)
    return std::nullopt;
  CharSourceRange R = SM.getExpansionRange(S->getSourceRange());
  if (R.getBegin() != E.Range.getBegin() || R.getEnd() != E.Range.getEnd())
    return std::nullopt;
  SourceLocation AfterSemi = Lexer::findLocationAfterToken(R.getEnd(), tok::semi, SM, Ctx.langOpts(), false);
  if (AfterSemi.isInvalid())
    return std::nullopt;
  return CharSourceRange::getCharRange(R.getBegin(), AfterSemi);
}

/// The block statement holding E, whatever it is.
std::optional<SourceLocation> statementStart(const CheckContext &Ctx, const FunctionOrdering &F,
                                             const OrderingEvent &E) {
  const SourceManager &SM = Ctx.ast().getSourceManager();
  if (!E.At.isValid() || !F.Function->getBody())
    return std::nullopt;
  const Stmt *S = blockStatement(SM, F.Function->getBody(), E.At);
  if (!S)
    return std::nullopt;
  SourceLocation Begin = SM.getExpansionLoc(S->getBeginLoc());
  if (!Begin.isFileID())
    return std::nullopt;
  return Begin;
}

/// R widened to its whole line (with the newline) when nothing else is on that line.
CharSourceRange wholeLines(const SourceManager &SM, CharSourceRange R) {
  bool Invalid = false;
  const char *Begin = SM.getCharacterData(R.getBegin(), &Invalid);
  if (Invalid)
    return R;
  const char *End = SM.getCharacterData(R.getEnd(), &Invalid);
  if (Invalid)
    return R;
  unsigned Column = SM.getSpellingColumnNumber(R.getBegin());
  const char *LineStart = Begin - (Column - 1);
  for (const char *P = LineStart; P < Begin; ++P)
    if (*P != ' ' && *P != '\t')
      return R;
  const char *P = End;
  while (*P == ' ' || *P == '\t')
    ++P;
  if (*P != '\n')
    return R;
  return CharSourceRange::getCharRange(R.getBegin().getLocWithOffset(LineStart - Begin),
                                       R.getEnd().getLocWithOffset(P + 1 - End));
}

bool simpleLvalue(const std::string &Text) {
  for (char C : Text)
    if (!std::isalnum(static_cast<unsigned char>(C)) && C != '_' && C != '.' && C != '-' && C != '>' && C != '[' &&
        C != ']')
      return false;
  return !Text.empty();
}

} // namespace

std::string indentOf(const SourceManager &SM, SourceLocation Loc) {
  bool Invalid = false;
  const char *Data = SM.getCharacterData(Loc, &Invalid);
  if (Invalid)
    return "";
  unsigned Column = SM.getSpellingColumnNumber(Loc);
  std::string Indent(Data - (Column - 1), Data);
  for (char &C : Indent)
    if (C != '\t')
      C = ' ';
  return Indent;
}

std::string describeEvent(const OrderingEvent &E) {
  bool Load = E.What == OrderingEvent::Kind::Load;
  if (!E.Api.empty()) {
    std::string Out = "'" + E.Api + "'";
    // An access seen through a call has no order argument here, but says its order.
    if (E.Order && (!E.OrderText.empty() || E.Inlined))
      Out += std::string(" (") + ApiNames::orderName(*E.Order) + ")";
    return Out;
  }
  switch (E.How) {
  case OrderingEvent::Access::Volatile:
    return Load ? "a volatile load" : "a volatile store";
  case OrderingEvent::Access::Atomic:
    return Load ? "an atomic load" : "an atomic store";
  default:
    return Load ? "a plain load" : "a plain store";
  }
}

std::string quotedList(const std::vector<std::string> &Items) {
  std::string Out;
  size_t Shown = std::min<size_t>(Items.size(), 3);
  for (size_t I = 0; I < Shown; ++I) {
    if (I > 0)
      Out += (I + 1 == Shown && Items.size() == Shown) ? " and " : ", ";
    Out += "'" + Items[I] + "'";
  }
  if (Items.size() > Shown)
    Out += " and " + std::to_string(Items.size() - Shown) + " more";
  return Out;
}

std::string functionLabel(const FunctionOrdering &F) { return "'" + F.Function->getNameAsString() + "'"; }

std::optional<TargetBarrier> targetBarrier(const CheckContext &Ctx, const std::string &Op) {
  const ResolvedSpec *Spec = Ctx.target().Spec;
  if (!Spec)
    return std::nullopt;
  std::optional<ArchModel::BarrierEffect> Effect = Spec->model().barrierEffect(Op);
  if (!Effect)
    return std::nullopt;
  TargetBarrier B;
  B.Implementation = Effect->Implementation;
  auto It = Spec->model().Barriers.find(Op);
  B.Instruction = It != Spec->model().Barriers.end() ? It->second.Kind != Fence::Form::CompilerOnly
                                                      : Effect->Implementation.find("compiler") == std::string::npos;
  return B;
}

std::optional<FixItHint> respellOrderFix(const CheckContext &Ctx, const OrderingEvent &E, MemoryOrder Wanted) {
  if (!E.OrderArg.isValid() || !E.OrderArg.getBegin().isFileID() || !E.Order)
    return std::nullopt;
  std::string Current = ApiNames::orderName(*E.Order), WantedName = ApiNames::orderName(Wanted);
  std::string Text = E.OrderText;
  std::string Lower = Text;
  for (char &C : Lower)
    C = static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  size_t At = Lower.rfind(Current);
  if (At == std::string::npos)
    return std::nullopt;
  bool Upper = std::isupper(static_cast<unsigned char>(Text[At]));
  std::string Replacement = WantedName;
  if (Upper)
    for (char &C : Replacement)
      C = static_cast<char>(std::toupper(static_cast<unsigned char>(C)));
  std::string NewText = Text.substr(0, At) + Replacement + Text.substr(At + Current.size());
  std::string Compact;
  for (char C : NewText)
    if (C != ' ')
      Compact += C;
  if (Ctx.model().names().orderConstant(Compact) != Wanted)
    return std::nullopt;
  return FixItHint::CreateReplacement(CharSourceRange::getTokenRange(E.OrderArg), NewText);
}

std::vector<FixItHint> strengthenFix(const CheckContext &Ctx, const OrderingEvent &E, MemoryOrder Wanted) {
  const ApiNames &Names = Ctx.model().names();
  const SourceManager &SM = Ctx.ast().getSourceManager();
  // An order argument: the same spelling with the order's name changed, when that names Wanted.
  if (E.OrderArg.isValid() && E.OrderArg.getBegin().isFileID() && E.Order == MemoryOrder::Relaxed) {
    if (std::optional<FixItHint> Fix = respellOrderFix(Ctx, E, Wanted))
      return {*Fix};
    return {};
  }
  // A ONCE accessor: its dialect's release store or acquire load, which take an address.
  if ((E.Op == "write_once" && Wanted == MemoryOrder::Release) ||
      (E.Op == "read_once" && Wanted == MemoryOrder::Acquire)) {
    std::optional<std::string> Name =
        Names.nameFor(E.Dialect, Wanted == MemoryOrder::Release ? "release_store" : "acquire_load", E.Api, E.Op);
    if (!Name || !E.NameRange.isValid() || !E.AddressArg.isValid() || !E.AddressArg.getBegin().isFileID() ||
        !SM.isWrittenInSameFile(E.NameRange.getBegin(), E.AddressArg.getBegin()))
      return {};
    std::vector<FixItHint> Fixes = {
        FixItHint::CreateReplacement(CharSourceRange::getTokenRange(E.NameRange), *Name)};
    if (simpleLvalue(E.AddressText)) {
      Fixes.push_back(FixItHint::CreateInsertion(E.AddressArg.getBegin(), "&"));
    } else {
      Fixes.push_back(FixItHint::CreateInsertion(E.AddressArg.getBegin(), "&("));
      Fixes.push_back(FixItHint::CreateInsertion(
          Lexer::getLocForEndOfToken(E.AddressArg.getEnd(), 0, SM, Ctx.langOpts()), ")"));
    }
    return Fixes;
  }
  return {};
}

std::vector<FixItHint> moveBarrierFix(const CheckContext &Ctx, const FunctionOrdering &F,
                                      const OrderingEvent &Barrier, const OrderingEvent &Target,
                                      SourceLocation NotBefore) {
  const SourceManager &SM = Ctx.ast().getSourceManager();
  std::optional<CharSourceRange> Statement = wholeStatement(Ctx, F, Barrier);
  std::optional<SourceLocation> Before = statementStart(Ctx, F, Target);
  if (!Statement || !Before || !SM.isWrittenInSameFile(Statement->getBegin(), *Before))
    return {};
  if (NotBefore.isValid() && SM.isBeforeInTranslationUnit(*Before, NotBefore))
    return {}; // the statement holding Target also holds the access the barrier must follow
  std::string Text = Lexer::getSourceText(*Statement, SM, Ctx.langOpts()).str();
  return {FixItHint::CreateRemoval(wholeLines(SM, *Statement)),
          FixItHint::CreateInsertion(*Before, Text + "\n" + indentOf(SM, *Before))};
}

std::vector<FixItHint> removeBarrierFix(const CheckContext &Ctx, const FunctionOrdering &F,
                                        const OrderingEvent &Barrier) {
  std::optional<CharSourceRange> Statement = wholeStatement(Ctx, F, Barrier);
  if (!Statement)
    return {};
  return {FixItHint::CreateRemoval(wholeLines(Ctx.ast().getSourceManager(), *Statement))};
}

std::vector<FixItHint> replaceBarrierFix(const CheckContext &Ctx, const FunctionOrdering &F,
                                         const OrderingEvent &Barrier, const std::string &Replacement) {
  if (!wholeStatement(Ctx, F, Barrier))
    return {};
  return {FixItHint::CreateReplacement(CharSourceRange::getTokenRange(Barrier.Range), Replacement)};
}

} // namespace lockwright

namespace lockwright {

using Kind = OrderingEvent::Kind;

namespace {

/// An RMW the target orders fully in hardware and the compiler cannot move accesses across
/// (a hardware_rmw name on an architecture with rmw_fully_ordered).
bool hardwareFullRmw(const CheckContext &Ctx, const OrderingEvent &E) {
  const ResolvedSpec *Spec = Ctx.target().Spec;
  return E.What == Kind::Rmw && E.HardwareRmw && Spec && Spec->model().RmwFullyOrdered.Value;
}

} // namespace

bool ordersStoresOn(const CheckContext &Ctx, const OrderingEvent &E) {
  return OrderingModel::ordersStores(E) || hardwareFullRmw(Ctx, E);
}
bool ordersLoadsOn(const CheckContext &Ctx, const OrderingEvent &E) {
  return OrderingModel::ordersLoads(E) || hardwareFullRmw(Ctx, E);
}
bool releasesOn(const CheckContext &Ctx, const OrderingEvent &E) { return E.releases() || hardwareFullRmw(Ctx, E); }
bool acquiresOn(const CheckContext &Ctx, const OrderingEvent &E) { return E.acquires() || hardwareFullRmw(Ctx, E); }

bool storesOrderedBetween(const CheckContext &Ctx, const FunctionOrdering &F, size_t From, size_t To) {
  const OrderingEvent &Publish = F.Events[To];
  if (releasesOn(Ctx, Publish))
    return true;
  for (size_t I = From + 1; I < To; ++I) {
    const OrderingEvent &E = F.Events[I];
    if (ordersStoresOn(Ctx, E))
      return true;
    // smp_mb__before_atomic() orders what precedes it with the RMW that follows; a store
    // through the pointer that RMW returned comes after it too (`prev = fas(&tail, node);
    // prev->next = node`: an address dependency).
    if (E.What == Kind::Fence && E.Op == "before_atomic") {
      if (Publish.What == Kind::Rmw)
        return true;
      for (size_t J = I + 1; J < To; ++J)
        if (F.Events[J].What == Kind::Rmw && F.Events[J].ValueTo && F.Events[J].ValueTo == Publish.Through)
          return true;
    }
  }
  return false;
}

bool loadsOrderedBetween(const CheckContext &Ctx, const FunctionOrdering &F, size_t From, size_t To) {
  const OrderingEvent &Guard = F.Events[From];
  if (acquiresOn(Ctx, Guard))
    return true;
  for (size_t I = From + 1; I < To; ++I) {
    const OrderingEvent &E = F.Events[I];
    if (ordersLoadsOn(Ctx, E))
      return true;
    if (Guard.What == Kind::Rmw && E.What == Kind::Fence && E.Op == "after_atomic")
      return true;
  }
  return false;
}

bool dependenciesOrder(const CheckContext &Ctx, const OrderingEvent &Guard) {
  if (Guard.Order == ApiNames::MemoryOrder::Consume || Guard.How == OrderingEvent::Access::Once)
    return true; // READ_ONCE and rcu_dereference keep address dependencies on every architecture
  const ResolvedSpec *Spec = Ctx.target().Spec;
  return Spec && Spec->model().DependencyOrdering.Value;
}

bool dependencyOrders(const CheckContext &Ctx, const OrderingPair &P) {
  for (size_t D : P.DataLoads)
    if (!P.Reader->dependsOn(P.Guard, D, Ctx.ast().getSourceManager()))
      return false;
  return dependenciesOrder(Ctx, P.Reader->Events[P.Guard]);
}

bool plainOnBothSides(const OrderingPair &P) {
  return P.Writer->Events[P.Publish].How == OrderingEvent::Access::Plain &&
         P.Reader->Events[P.Guard].How == OrderingEvent::Access::Plain;
}

bool writerOrdered(const CheckContext &Ctx, const OrderingPair &P) {
  return storesOrderedBetween(Ctx, *P.Writer, P.LastDataStore, P.Publish);
}

/// Whether a barrier the authors wrote (a fence or an RMW, not a call or lock that may happen
/// to order) stands in (From, To) of F and orders what Orders says.
bool deliberateBetween(const CheckContext &Ctx, const FunctionOrdering &F, size_t From, size_t To,
                       bool (*Orders)(const CheckContext &, const OrderingEvent &)) {
  for (size_t I = From + 1; I < To; ++I) {
    const OrderingEvent &E = F.Events[I];
    if ((E.What == Kind::Fence || E.What == Kind::Rmw) && Orders(Ctx, E))
      return true;
  }
  return false;
}

bool writerCares(const CheckContext &Ctx, const OrderingPair &P) {
  const OrderingEvent &Publish = P.Writer->Events[P.Publish];
  return releasesOn(Ctx, Publish) || deliberateBetween(Ctx, *P.Writer, P.LastDataStore, P.Publish, ordersStoresOn);
}

bool readerCares(const CheckContext &Ctx, const OrderingPair &P) {
  if (P.DataLoads.empty())
    return true;
  const OrderingEvent &Guard = P.Reader->Events[P.Guard];
  // A dependency is evidence where the guard is marked (READ_ONCE, rcu_dereference): a plain
  // pointer load followed by a dereference is what every pointer read looks like.
  return acquiresOn(Ctx, Guard) ||
         (Guard.How != OrderingEvent::Access::Plain && dependencyOrders(Ctx, P)) ||
         deliberateBetween(Ctx, *P.Reader, P.Guard, P.FirstDataLoad, ordersLoadsOn);
}

bool readerOrdered(const CheckContext &Ctx, const OrderingPair &P) {
  return P.DataLoads.empty() || loadsOrderedBetween(Ctx, *P.Reader, P.Guard, P.FirstDataLoad) ||
         dependencyOrders(Ctx, P);
}

namespace {

/// A barrier whose one job is to order stores (a write barrier, a release fence), written in
/// this function. Full barriers do several jobs (store buffering, ordering a caller's accesses
/// at a function's entry), so where one stands is no evidence it is misplaced; and a barrier
/// inside a callee is the callee's to place.
bool storeFence(const OrderingEvent &E) {
  if (E.What != Kind::Fence || E.Inlined)
    return false;
  return E.Op == "write" || (E.Op == "fence" && E.Order == ApiNames::MemoryOrder::Release);
}

bool loadFence(const OrderingEvent &E) {
  if (E.What != Kind::Fence || E.Inlined)
    return false;
  return E.Op == "read" || E.Op == "acquire_after_ctrl_dep" ||
         (E.Op == "fence" && (E.Order == ApiNames::MemoryOrder::Acquire || E.Order == ApiNames::MemoryOrder::Consume));
}

} // namespace

namespace {

/// Whether the barrier at I of F stands between two shared accesses of one kind on one path,
/// on the side away from the pair it misses (after the publishing store and before another
/// store; before the guard and after another load): there it orders those, and moving it would
/// break that. Such a barrier is not misplaced; the pair it misses just lacks ordering.
bool ordersOthers(const FunctionOrdering &F, size_t I, bool After, bool (OrderingEvent::*Kind)() const) {
  const OrderingEvent &Barrier = F.Events[I];
  auto Shared = [&](const OrderingEvent &E) { return (E.*Kind)() && !E.Location.empty() && !E.Private; };
  if (After) {
    for (size_t J = I + 1; J < F.Events.size(); ++J)
      if (Shared(F.Events[J]) && F.forwardReaches(Barrier.Block, F.Events[J].Block))
        return true;
  } else {
    for (size_t J = 0; J < I; ++J)
      if (Shared(F.Events[J]) && F.forwardReaches(F.Events[J].Block, Barrier.Block))
        return true;
  }
  return false;
}

/// Whether event I of F is a write (Stores) or read barrier that orders no other access of
/// that kind on the far side of the flag access at Flag: one outside the pair is misplaced.
bool strayBarrier(const FunctionOrdering &F, size_t I, size_t Flag, bool Stores) {
  const OrderingEvent &B = F.Events[I];
  return (Stores ? storeFence(B) : loadFence(B)) &&
         !ordersOthers(F, I, /*After=*/I > Flag, Stores ? &OrderingEvent::isStore : &OrderingEvent::isLoad);
}

} // namespace

std::vector<size_t> strayLoadBarriers(const FunctionOrdering &R, size_t Guard) {
  std::vector<size_t> Out;
  for (size_t I = 0; I < R.Events.size(); ++I)
    if (strayBarrier(R, I, Guard, /*Stores=*/false))
      Out.push_back(I);
  return Out;
}

std::optional<size_t> misplacedWriteBarrier(const CheckContext &Ctx, const OrderingPair &P) {
  if (storesOrderedBetween(Ctx, *P.Writer, P.LastDataStore, P.Publish))
    return std::nullopt;
  for (size_t I = 0; I < P.Writer->Events.size(); ++I)
    if (!(I > P.DataStores.front() && I < P.Publish) && strayBarrier(*P.Writer, I, P.Publish, /*Stores=*/true))
      return I;
  return std::nullopt;
}

std::optional<size_t> misplacedReadBarrier(const CheckContext &Ctx, const OrderingPair &P) {
  if (P.DataLoads.empty() || loadsOrderedBetween(Ctx, *P.Reader, P.Guard, P.FirstDataLoad))
    return std::nullopt;
  for (size_t I = 0; I < P.Reader->Events.size(); ++I)
    if (!(I > P.Guard && I < P.FirstDataLoad) && strayBarrier(*P.Reader, I, P.Guard, /*Stores=*/false))
      return I;
  return std::nullopt;
}

std::string hardwareNote(const CheckContext &Ctx, bool Stores) {
  std::optional<TargetBarrier> B = targetBarrier(Ctx, Stores ? "write" : "read");
  if (!B)
    return "";
  const char *What = Stores ? "stores" : "loads";
  if (B->Instruction)
    return "on " + Ctx.target().label() + " the hardware reorders " + What + " (a " +
           (Stores ? std::string("write") : std::string("read")) + " barrier is " + B->Implementation + ")";
  return "on " + Ctx.target().label() + " the hardware keeps " + What + " in order, but the compiler may reorder them";
}

} // namespace lockwright
