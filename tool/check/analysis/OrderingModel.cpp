#include "analysis/OrderingModel.h"

#include "analysis/Describe.h"
#include "analysis/IdentifierMemo.h"
#include "analysis/SyncModel.h"
#include "analysis/WaitLoops.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/CFG.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <set>
#include <string_view>
#include <unordered_map>

using namespace clang;

namespace lockwright {

using Kind = OrderingEvent::Kind;
using Access = OrderingEvent::Access;
using MemoryOrder = ApiNames::MemoryOrder;

bool rangeHolds(const SourceManager &SM, SourceRange Range, SourceLocation Loc) {
  return Range.isValid() && Loc.isValid() && !SM.isBeforeInTranslationUnit(Loc, Range.getBegin()) &&
         !SM.isBeforeInTranslationUnit(Range.getEnd(), Loc);
}

bool rangeHolds(const SourceManager &SM, SourceRange Range, SourceRange Inner) {
  return Inner.isValid() && rangeHolds(SM, Range, Inner.getBegin()) && rangeHolds(SM, Range, Inner.getEnd());
}

bool FunctionOrdering::mentions(SourceRange Range, const VarDecl *V, const SourceManager &SM) const {
  auto ByVar = [](const std::pair<SourceLocation, const VarDecl *> &M, const VarDecl *Var) {
    return std::less<const VarDecl *>()(M.second, Var);
  };
  for (auto It = std::lower_bound(Mentions.begin(), Mentions.end(), V, ByVar); It != Mentions.end() && It->second == V;
       ++It)
    if (rangeHolds(SM, Range, It->first))
      return true;
  return false;
}

bool FunctionOrdering::follows(int Earlier, int Later) const {
  for (int Block = Later, Steps = 0; Steps < 16; ++Steps) {
    if (Block == Earlier)
      return true;
    auto It = SolePredecessor.find(Block);
    if (It == SolePredecessor.end())
      return false;
    Block = It->second;
  }
  return false;
}

bool FunctionOrdering::branchDecides(int Branch, int Block) const {
  if (Branch == Block || Branch < 0 || Block < 0 || static_cast<size_t>(Branch) >= Successors.size())
    return false;
  auto Known = Decided.find({Branch, Block});
  if (Known != Decided.end())
    return Known->second;
  // The blocks reached from Start without passing through Branch.
  auto ReachesAvoidingBranch = [&](int Start) {
    std::vector<char> Seen(Successors.size(), 0);
    std::vector<int> Work;
    if (Start != Branch && Start >= 0)
      Work.push_back(Start), Seen[Start] = 1;
    while (!Work.empty()) {
      int B = Work.back();
      Work.pop_back();
      if (B == Block)
        return true;
      for (int Next : Successors[B])
        if (Next != Branch && !Seen[Next])
          Seen[Next] = 1, Work.push_back(Next);
    }
    return false;
  };
  bool Result = false;
  // Branch dominates Block (the entry cannot reach it around the branch), and some outcome of
  // the branch cannot reach it without coming back to the branch.
  if (!ReachesAvoidingBranch(EntryBlock)) {
    bool SomeReach = false, SomeMiss = false;
    for (int Next : Successors[Branch])
      (ReachesAvoidingBranch(Next) ? SomeReach : SomeMiss) = true;
    Result = SomeReach && SomeMiss;
  }
  Decided[{Branch, Block}] = Result;
  return Result;
}

bool FunctionOrdering::forwardReaches(int From, int To) const {
  if (From == To)
    return true;
  if (From < 0 || To < 0 || static_cast<size_t>(std::max(From, To)) >= RpoIndex.size())
    return true; // no shape known: assume it may
  if (RpoIndex[To] <= RpoIndex[From])
    return false;
  auto Known = Forward.find({From, To});
  if (Known != Forward.end())
    return Known->second;
  std::vector<char> Seen(Successors.size(), 0);
  std::vector<int> Work = {From};
  bool Found = false;
  while (!Work.empty() && !Found) {
    int B = Work.back();
    Work.pop_back();
    for (int Next : Successors[B]) {
      if (RpoIndex[Next] <= RpoIndex[B] || RpoIndex[Next] > RpoIndex[To] || Seen[Next])
        continue; // a back edge, or past To in the order
      if (Next == To) {
        Found = true;
        break;
      }
      Seen[Next] = 1;
      Work.push_back(Next);
    }
  }
  Forward[{From, To}] = Found;
  return Found;
}

const std::vector<const VarDecl *> &FunctionOrdering::valuesOf(size_t GuardIndex, const SourceManager &SM) const {
  auto [Known, Inserted] = ValuesByGuard.try_emplace(GuardIndex);
  if (!Inserted)
    return Known->second;
  std::vector<const VarDecl *> &Values = Known->second;
  if (const VarDecl *V = Events[GuardIndex].ValueTo)
    Values.push_back(V);
  for (size_t I = 0; I < Values.size() && Values.size() < 8; ++I)
    for (const auto &[To, From] : Copies)
      if (std::find(Values.begin(), Values.end(), To) == Values.end() && mentions(From, Values[I], SM))
        Values.push_back(To);
  return Values;
}

bool FunctionOrdering::dependsOn(size_t GuardIndex, size_t DataIndex, const SourceManager &SM) const {
  const OrderingEvent &Guard = Events[GuardIndex], &Data = Events[DataIndex];
  // READ_ONCE(gp)->x: the guard is the base expression itself.
  if (Data.BaseRange.isValid() && Guard.Range.isValid() && Data.BaseRange.getBegin() == Guard.Range.getBegin())
    return true;
  if (!Data.Through)
    return false;
  const std::vector<const VarDecl *> &Values = valuesOf(GuardIndex, SM);
  return std::find(Values.begin(), Values.end(), Data.Through) != Values.end();
}

bool FunctionOrdering::decides(size_t GuardIndex, size_t DataIndex, const SourceManager &SM) const {
  const OrderingEvent &Guard = Events[GuardIndex], &Data = Events[DataIndex];
  if (Guard.Block < 0 || Data.Block < 0 || Guard.Block == Data.Block)
    return false;
  auto [It, New] = BranchesByGuard.try_emplace(GuardIndex);
  if (New) {
    const std::vector<const VarDecl *> &Values = valuesOf(GuardIndex, SM);
    for (const auto &[Branch, Condition] : Branches)
      if (rangeHolds(SM, Condition, Guard.Range.getBegin()) ||
          std::any_of(Values.begin(), Values.end(), [&](const VarDecl *V) { return mentions(Condition, V, SM); }))
        It->second.push_back(Branch);
  }
  return std::any_of(It->second.begin(), It->second.end(),
                     [&](int Branch) { return branchDecides(Branch, Data.Block); });
}

bool OrderingEvent::isLoad() const { return What == Kind::Load || What == Kind::Rmw; }
bool OrderingEvent::isStore() const { return What == Kind::Store || What == Kind::Rmw; }

bool OrderingEvent::acquires() const {
  return Order && (*Order == MemoryOrder::Acquire || *Order == MemoryOrder::AcqRel || *Order == MemoryOrder::SeqCst ||
                   *Order == MemoryOrder::Full);
}

bool OrderingEvent::releases() const {
  return Order && (*Order == MemoryOrder::Release || *Order == MemoryOrder::AcqRel || *Order == MemoryOrder::SeqCst ||
                   *Order == MemoryOrder::Full);
}

/// One expansion of an API macro: what it does and where its arguments are spelled.
struct OrderingModel::ExpansionInfo {
  std::string Name;
  const ApiNames::Operation *Op = nullptr;
  SourceRange Range;                 // the invocation, as the preprocessor saw it
  std::vector<SourceRange> Args;     // spelling ranges (invalid when not spelled in a file)
  std::vector<std::string> ArgTexts; // the tokens of each argument, joined
  bool FunctionLike = true;
};

namespace {

class ExpansionRecorder : public PPCallbacks {
public:
  ExpansionRecorder(const ApiNames &Names, Preprocessor &PP, std::map<unsigned, OrderingModel::ExpansionInfo> &Out)
      : Names(Names), PP(PP), Out(Out) {}

  void MacroExpands(const Token &NameTok, const MacroDefinition &Definition, SourceRange Range,
                    const MacroArgs *Args) override {
    const ApiNames::Operation *Op = Operations.get(
        NameTok.getIdentifierInfo(), [&](const std::string &Name) { return Names.operation(Name); });
    if (!Op)
      return;
    OrderingModel::ExpansionInfo Info;
    Info.Name = NameTok.getIdentifierInfo()->getName().str();
    Info.Op = Op;
    Info.Range = Range;
    if (const MacroInfo *MI = Definition.getMacroInfo())
      Info.FunctionLike = MI->isFunctionLike();
    SourceManager &SM = PP.getSourceManager();
    if (Args)
      for (unsigned I = 0; I < Args->getNumMacroArguments(); ++I) {
        const Token *First = Args->getUnexpArgument(I);
        std::string Text;
        const Token *Last = First;
        for (const Token *T = First; T->isNot(tok::eof); ++T) {
          Text += PP.getSpelling(*T);
          Last = T;
        }
        SourceRange Spelled;
        if (First->isNot(tok::eof))
          Spelled = SourceRange(SM.getSpellingLoc(First->getLocation()), SM.getSpellingLoc(Last->getLocation()));
        Info.Args.push_back(Spelled);
        Info.ArgTexts.push_back(Text);
      }
    Out[NameTok.getLocation().getRawEncoding()] = std::move(Info);
  }

private:
  const ApiNames &Names;
  Preprocessor &PP;
  std::map<unsigned, OrderingModel::ExpansionInfo> &Out;
  IdentifierMemo<const ApiNames::Operation *> Operations;
};

const Expr *strip(const Expr *E) {
  while (E) {
    const Expr *Next = E->IgnoreParenImpCasts();
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(Next))
      Next = Cast->getSubExpr();
    if (Next == E)
      break;
    E = Next;
  }
  return E;
}

std::string recordName(const RecordDecl *R) {
  std::string Label = recordLabel(R);
  size_t Space = Label.find(' ');
  return Space == std::string::npos ? Label : Label.substr(Space + 1);
}

/// What a local pointer V of F points to: a location known within F only.
std::string localPointee(const VarDecl *V, const FunctionDecl *F) {
  return "*" + V->getNameAsString() + "@" + F->getQualifiedNameAsString();
}

/// A shared location an lvalue designates; empty Key for a local object.
struct LocationOf {
  std::string Key, Text;
  const RecordDecl *Record = nullptr; // the record of the field accessed
  const VarDecl *Global = nullptr;    // the global or static variable accessed
  const VarDecl *Through = nullptr;
  const Expr *Base = nullptr; // the pointer expression an arrow or deref goes through
};

LocationOf locationOf(const Expr *E, const FunctionDecl *F) {
  LocationOf L;
  E = strip(E);
  if (!E)
    return L;
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    return locationOf(U->getSubExpr(), F);
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
    const Expr *Base = strip(A->getBase());
    if (Base->getType()->isPointerType() && !isa<MemberExpr>(Base) && !isa<DeclRefExpr>(Base))
      return L;
    if (const auto *R = dyn_cast<DeclRefExpr>(Base); R && R->getType()->isPointerType()) {
      // p[i] through a pointer: the pointee, as *p.
      if (const auto *V = dyn_cast<VarDecl>(R->getDecl()); V && !V->hasGlobalStorage()) {
        L.Key = localPointee(V, F);
        L.Text = V->getNameAsString() + "[]";
        L.Through = V;
        L.Base = Base;
        return L;
      }
    }
    return locationOf(A->getBase(), F);
  }
  if (const auto *M = dyn_cast<MemberExpr>(E)) {
    const auto *Field = dyn_cast<FieldDecl>(M->getMemberDecl());
    if (!Field)
      return L;
    const Expr *Base = strip(M->getBase());
    // A member of an anonymous struct or union is named as the enclosing record's own
    // (`bkt->w1`, not `bkt->.w1`).
    std::string Path = Field->isAnonymousStructOrUnion() ? "" : "." + Field->getNameAsString();
    if (!M->isArrow()) {
      if (const auto *Inner = dyn_cast<MemberExpr>(Base)) {
        LocationOf Outer = locationOf(Inner, F);
        if (Outer.Key.empty())
          return L;
        Outer.Key += Path;
        Outer.Text += Path;
        return Outer;
      }
      if (const auto *A = dyn_cast<ArraySubscriptExpr>(Base)) {
        LocationOf Outer = locationOf(A, F);
        if (Outer.Key.empty())
          return L;
        Outer.Key += Path;
        Outer.Text += Path;
        return Outer;
      }
      if (const auto *R = dyn_cast<DeclRefExpr>(Base)) {
        const auto *V = dyn_cast<VarDecl>(R->getDecl());
        if (V && !V->hasGlobalStorage() && V->getType()->isReferenceType())
          L.Through = V; // g.open for a `Gate &g` parameter: as g->open for a pointer
        else if (!V || !V->hasGlobalStorage() || V->getTLSKind() != VarDecl::TLS_None)
          return L; // a local or thread-local object
      }
    } else if (const auto *R = dyn_cast<DeclRefExpr>(Base)) {
      if (const auto *V = dyn_cast<VarDecl>(R->getDecl()); V && !V->hasGlobalStorage())
        L.Through = V;
    }
    if (M->isArrow())
      L.Base = Base;
    const RecordDecl *Record = Field->getParent();
    L.Record = Record;
    L.Key = "record " + recordLabel(Record) + Path;
    L.Text = recordName(Record) + Path;
    return L;
  }
  if (const auto *R = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(R->getDecl());
    if (V && !V->hasGlobalStorage() && V->getType()->isReferenceType()) {
      // A local reference (`std::atomic<int> &a`): what it refers to, as *p for a pointer.
      L.Key = localPointee(V, F);
      L.Text = V->getNameAsString();
      L.Through = V;
      return L;
    }
    if (!V || !V->hasGlobalStorage() || V->getTLSKind() != VarDecl::TLS_None || V->isConstexpr() ||
        V->getType().isConstQualified())
      return L; // local, thread-local or constant: no other thread writes it
    L.Key = "global " + V->getQualifiedNameAsString();
    L.Global = V;
    L.Text = V->getNameAsString();
    return L;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref) {
    const Expr *Ptr = strip(U->getSubExpr());
    if (const auto *A = dyn_cast<UnaryOperator>(Ptr); A && A->getOpcode() == UO_AddrOf)
      return locationOf(A->getSubExpr(), F);
    if (isa<MemberExpr>(Ptr) || isa<ArraySubscriptExpr>(Ptr)) {
      // *s->ptr: what a shared pointer points to, named after it.
      LocationOf Inner = locationOf(Ptr, F);
      if (Inner.Key.empty())
        return L;
      Inner.Key = "*" + Inner.Key;
      Inner.Text = "*" + Inner.Text;
      Inner.Base = Ptr;
      return Inner;
    }
    if (const auto *R = dyn_cast<DeclRefExpr>(Ptr)) {
      const auto *V = dyn_cast<VarDecl>(R->getDecl());
      if (!V)
        return L;
      if (V->hasGlobalStorage()) {
        L.Key = "*global " + V->getQualifiedNameAsString();
      } else {
        // *p for a local pointer: known within this function only.
        L.Key = localPointee(V, F);
        L.Through = V;
      }
      L.Text = "*" + V->getNameAsString();
      L.Base = Ptr;
      return L;
    }
  }
  return L;
}

/// The location a pointer expression points to: X for &X, else what *E designates.
LocationOf pointeeOf(const Expr *E, const FunctionDecl *F) {
  const Expr *Inner = strip(E);
  if (!Inner)
    return {};
  if (const auto *U = dyn_cast<UnaryOperator>(Inner); U && U->getOpcode() == UO_AddrOf)
    return locationOf(U->getSubExpr(), F);
  LocationOf L;
  if (const auto *R = dyn_cast<DeclRefExpr>(Inner)) {
    const auto *V = dyn_cast<VarDecl>(R->getDecl());
    if (!V)
      return L;
    L.Key = V->hasGlobalStorage() ? "*global " + V->getQualifiedNameAsString() : localPointee(V, F);
    L.Text = "*" + V->getNameAsString();
    L.Through = V->hasGlobalStorage() ? nullptr : V;
    L.Base = Inner;
    return L;
  }
  if (isa<MemberExpr>(Inner) || isa<ArraySubscriptExpr>(Inner)) {
    L = locationOf(Inner, F);
    if (L.Key.empty())
      return L;
    L.Key = "*" + L.Key;
    L.Text = "*" + L.Text;
    L.Through = nullptr;
    L.Base = Inner;
  }
  return L;
}


} // namespace

OrderingModel::OrderingModel(const ApiNames &Names, const SyncModel &Sync, ASTContext &AST)
    : Names(Names), Sync(Sync), AST(AST), Expansions(std::make_unique<std::map<unsigned, ExpansionInfo>>()) {}

OrderingModel::~OrderingModel() = default;

const std::vector<WaitLoop> &OrderingModel::waitLoops() {
  if (!WaitLoops)
    WaitLoops = std::make_unique<std::vector<WaitLoop>>(findWaitLoops(functions(), Names, AST.getSourceManager()));
  return *WaitLoops;
}

std::unique_ptr<PPCallbacks> OrderingModel::expansionRecorder(Preprocessor &PP) {
  return std::make_unique<ExpansionRecorder>(Names, PP, *Expansions);
}

const std::vector<FunctionOrdering> &OrderingModel::functions() {
  build();
  return Functions;
}

const std::vector<OrderingPair> &OrderingModel::pairs() {
  build();
  return Pairs;
}

bool OrderingModel::ordersStores(const OrderingEvent &E) {
  switch (E.What) {
  case Kind::OpaqueCall:
    return true;
  case Kind::Rmw:
    return E.Order == MemoryOrder::Full;
  case Kind::Fence:
    if (E.Op == "full" || E.Op == "write")
      return true;
    if (E.Op == "fence")
      return E.releases();
    return false;
  default:
    return false;
  }
}

bool OrderingModel::ordersLoads(const OrderingEvent &E) {
  switch (E.What) {
  case Kind::OpaqueCall:
  case Kind::LockAcquire:
    return true;
  case Kind::Rmw:
    return E.Order == MemoryOrder::Full;
  case Kind::Fence:
    if (E.Op == "full" || E.Op == "read" || E.Op == "acquire_after_ctrl_dep")
      return true;
    if (E.Op == "fence")
      return E.acquires();
    return false;
  default:
    return false;
  }
}

bool OrderingModel::intendsSynchronisation(const OrderingPair &P) const {
  const OrderingEvent &S = P.Writer->Events[P.Publish], &G = P.Reader->Events[P.Guard];
  if (S.How != Access::Plain || G.How != Access::Plain)
    return true;
  // Plain on both sides (an initialiser and a reader of a field set once, one thread's own
  // fields): only barriers on both sides say the two are meant to meet.
  auto HasFence = [](const FunctionOrdering &F, bool (*Orders)(const OrderingEvent &)) {
    return std::any_of(F.Events.begin(), F.Events.end(),
                       [&](const OrderingEvent &E) { return E.What == Kind::Fence && Orders(E); });
  };
  return HasFence(*P.Writer, ordersStores) && HasFence(*P.Reader, ordersLoads);
}

namespace {

/// The ops that are barriers (not accesses): what barrier-redundant judges.
bool fenceOp(const std::string &O) {
  return O == "full" || O == "read" || O == "write" || O == "before_atomic" || O == "after_atomic" ||
         O == "acquire_after_ctrl_dep" || O == "fence";
}

/// The operation specs/api names FD as, by its qualified name (std::atomic_thread_fence) or
/// else its plain one (ck_pr_fence_memory); null when it names none.
const ApiNames::Operation *operationOf(const ApiNames &Names, const FunctionDecl *FD) {
  if (const ApiNames::Operation *Op = Names.operation(FD->getQualifiedNameAsString()))
    return Op;
  return Names.operation(FD->getNameAsString());
}

/// The events of a callee's body, or null where it has none here (or is being walked).
using CalleeSummaries = std::function<const std::vector<OrderingEvent> *(const FunctionDecl *)>;

bool orderingEvent(const OrderingEvent &E);

/// Walks one function's CFG and lists its events.
class FunctionWalker {
public:
  FunctionWalker(const ApiNames &Names, const SyncModel &Sync, ASTContext &AST,
                 const std::map<unsigned, OrderingModel::ExpansionInfo> &Expansions,
                 CalleeSummaries Summaries)
      : Names(Names), Sync(Sync), AST(AST), SM(AST.getSourceManager()), Expansions(Expansions),
        Summaries(std::move(Summaries)) {}

  /// The function's events and the shape of its CFG.
  FunctionOrdering walk(const FunctionDecl *FD) {
    F = FD;
    CFG::BuildOptions Options;
    Options.setAllAlwaysAdd();
    Options.AddImplicitDtors = true;
    Options.AddTemporaryDtors = false;
    std::unique_ptr<CFG> Graph = CFG::buildCFG(FD, FD->getBody(), &AST, Options);
    if (!Graph)
      return {};
    std::vector<const CFGBlock *> Order = reversePostOrder(*Graph);
    // Lock depth is a forward dataflow fact: a block starts at the deepest of its visited
    // predecessors (`if (try) ...; else lock();` leaves one lock held on both paths).
    std::map<unsigned, int> DepthAtExit;
    // Blocks the entry reaches (a do-while (0)'s back-edge block is not one).
    std::set<const CFGBlock *> ReachableBlocks(Order.begin(), Order.end());
    for (const CFGBlock *Block : Order) {
      int Entry = 0;
      bool First = true;
      for (const CFGBlock::AdjacentBlock &Pred : Block->preds())
        if (const CFGBlock *P = Pred.getReachableBlock())
          if (auto It = DepthAtExit.find(P->getBlockID()); It != DepthAtExit.end()) {
            Entry = First ? It->second : std::max(Entry, It->second);
            First = false;
          }
      LockDepth = Entry;
      CurrentBlock = static_cast<int>(Block->getBlockID());
      const CFGBlock *Sole = nullptr;
      unsigned Reachable = 0;
      for (const CFGBlock::AdjacentBlock &Pred : Block->preds())
        if (const CFGBlock *P = Pred.getReachableBlock(); P && ReachableBlocks.count(P)) {
          Sole = P;
          ++Reachable;
        }
      if (Reachable == 1)
        Out.SolePredecessor[CurrentBlock] = static_cast<int>(Sole->getBlockID());
      BaseUses.clear();
      for (const CFGElement &Element : *Block)
        if (std::optional<CFGStmt> S = Element.getAs<CFGStmt>())
          noteBaseUse(S->getStmt());
      for (const CFGElement &Element : *Block) {
        if (std::optional<CFGStmt> S = Element.getAs<CFGStmt>())
          element(S->getStmt());
        else if (std::optional<CFGAutomaticObjDtor> D = Element.getAs<CFGAutomaticObjDtor>())
          if (Guards.count(D->getVarDecl()))
            add(makeEvent(Kind::LockRelease, D->getTriggerStmt()));
      }
      DepthAtExit[Block->getBlockID()] = LockDepth;
    }
    markSingleThreaded();
    Out.Successors.assign(Graph->getNumBlockIDs(), {});
    for (const CFGBlock *Block : Order) {
      int ID = static_cast<int>(Block->getBlockID());
      unsigned Outcomes = 0;
      for (const CFGBlock::AdjacentBlock &Succ : Block->succs())
        if (const CFGBlock *S = Succ.getReachableBlock()) {
          Out.Successors[ID].push_back(static_cast<int>(S->getBlockID()));
          ++Outcomes;
        }
      if (Outcomes > 1)
        if (const Stmt *Condition = Block->getTerminatorCondition(/*StripParens=*/false))
          Out.Branches.emplace_back(ID, fileRange(Condition));
    }
    Out.EntryBlock = static_cast<int>(Graph->getEntry().getBlockID());
    Out.RpoIndex.assign(Graph->getNumBlockIDs(), -1);
    for (size_t I = 0; I < Order.size(); ++I)
      Out.RpoIndex[Order[I]->getBlockID()] = static_cast<int>(I);
    std::stable_sort(Out.Mentions.begin(), Out.Mentions.end(), [](const auto &A, const auto &B) {
      return std::less<const VarDecl *>()(A.second, B.second);
    });
    return std::move(Out);
  }

private:
  /// Before the first thread this function starts, and after the last it joins, it runs
  /// alone: its accesses there neither publish nor guard (a test's serial phase, main's setup).
  void markSingleThreaded() {
    size_t FirstCreate = Events.size(), LastJoin = 0;
    bool Joins = false;
    for (size_t I = 0; I < Events.size(); ++I) {
      if (Events[I].Op == "thread_create" && FirstCreate == Events.size())
        FirstCreate = I;
      if (Events[I].Op == "thread_join") {
        LastJoin = I;
        Joins = true;
      }
    }
    if (FirstCreate == Events.size()) {
      // A program's main that starts no thread runs alone (a serial test).
      if (F->isMain())
        for (OrderingEvent &E : Events)
          E.Private = true;
      return;
    }
    for (size_t I = 0; I < Events.size(); ++I)
      if (I < FirstCreate || (Joins && I > LastJoin && LastJoin > FirstCreate))
        Events[I].Private = true;
  }

  static std::vector<const CFGBlock *> reversePostOrder(const CFG &Graph) {
    std::vector<const CFGBlock *> Post;
    std::set<const CFGBlock *> Seen;
    std::vector<std::pair<const CFGBlock *, CFGBlock::const_succ_iterator>> Stack;
    const CFGBlock *Entry = &Graph.getEntry();
    Seen.insert(Entry);
    Stack.emplace_back(Entry, Entry->succ_begin());
    while (!Stack.empty()) {
      auto &[Block, It] = Stack.back();
      if (It == Block->succ_end()) {
        Post.push_back(Block);
        Stack.pop_back();
        continue;
      }
      const CFGBlock *Next = It->getReachableBlock();
      ++It;
      if (Next && Seen.insert(Next).second)
        Stack.emplace_back(Next, Next->succ_begin());
    }
    return {Post.rbegin(), Post.rend()};
  }

  /// Expressions used as the base of an access (p in p->x, *p, p[i]): reading them does not
  /// publish the pointer.
  void noteBaseUse(const Stmt *S) {
    // Comparing or testing a pointer (`if (p != NULL)`, `if (!p)`) does not publish it either.
    auto Tested = [&](const Expr *E) {
      E = E->IgnoreParens();
      if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E); Cast && Cast->getCastKind() != CK_LValueToRValue)
        E = Cast->getSubExpr()->IgnoreParens();
      BaseUses.insert(E);
    };
    if (const auto *B = dyn_cast<BinaryOperator>(S); B && (B->isEqualityOp() || B->isRelationalOp())) {
      Tested(B->getLHS());
      Tested(B->getRHS());
    } else if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->getOpcode() == UO_LNot) {
      Tested(U->getSubExpr());
    } else if (const auto *C = dyn_cast<ImplicitCastExpr>(S); C && C->getCastKind() == CK_PointerToBoolean) {
      Tested(C->getSubExpr());
    }
    if (const auto *M = dyn_cast<MemberExpr>(S); M && M->isArrow())
      BaseUses.insert(M->getBase()->IgnoreParens());
    else if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->getOpcode() == UO_Deref)
      BaseUses.insert(U->getSubExpr()->IgnoreParens());
    else if (const auto *A = dyn_cast<ArraySubscriptExpr>(S))
      BaseUses.insert(A->getBase()->IgnoreParens());
  }

  /// The outermost API macro whose body (not an argument) produced Loc, with its key.
  std::pair<const OrderingModel::ExpansionInfo *, unsigned> ownerOf(SourceLocation Loc) const {
    const OrderingModel::ExpansionInfo *Owner = nullptr;
    unsigned Key = 0;
    while (Loc.isMacroID()) {
      if (SM.isMacroArgExpansion(Loc)) {
        Loc = SM.getImmediateSpellingLoc(Loc);
        continue;
      }
      SourceLocation NameLoc = SM.getImmediateExpansionRange(Loc).getBegin();
      auto It = Expansions.find(NameLoc.getRawEncoding());
      if (It != Expansions.end()) {
        Owner = &It->second;
        Key = It->first;
      }
      Loc = NameLoc;
    }
    return {Owner, Key};
  }

  bool within(SourceLocation L, SourceRange R) const {
    return L.isValid() && R.isValid() && L.isFileID() && R.getBegin().isFileID() &&
           SM.getFileID(L) == SM.getFileID(R.getBegin()) && !SM.isBeforeInTranslationUnit(L, R.getBegin()) &&
           !SM.isBeforeInTranslationUnit(R.getEnd(), L);
  }

  /// Which argument of Owner the statement is spelled in, or -1 (its body).
  int argumentOf(const Stmt *S, const OrderingModel::ExpansionInfo &Owner) const {
    SourceLocation B = SM.getSpellingLoc(S->getBeginLoc()), E = SM.getSpellingLoc(S->getEndLoc());
    for (size_t I = 0; I < Owner.Args.size(); ++I)
      if (within(B, Owner.Args[I]) && within(E, Owner.Args[I]))
        return static_cast<int>(I);
    return -1;
  }

  SourceRange fileRange(const Stmt *S) const {
    CharSourceRange R = SM.getExpansionRange(S->getSourceRange());
    return R.getAsRange();
  }

  OrderingEvent makeEvent(Kind K, const Stmt *S) const {
    OrderingEvent E;
    E.What = K;
    E.Element = S;
    if (S) {
      E.Range = fileRange(S);
      E.At = SM.getExpansionLoc(S->getBeginLoc());
    }
    return E;
  }

  void add(OrderingEvent E) {
    if (E.Op == "assert_held") {
      ++LockDepth;
      return;
    }
    if (E.What == Kind::LockAcquire)
      ++LockDepth;
    else if (E.What == Kind::LockRelease && LockDepth > 0)
      --LockDepth;
    E.UnderLock = LockDepth > 0 && E.What != Kind::LockAcquire;
    E.Block = CurrentBlock;
    if (E.Through && Fresh.count(E.Through))
      E.Private = true;
    bool ThenFence = E.Op == "store_mb";
    Events.push_back(std::move(E));
    if (ThenFence) {
      OrderingEvent Fence = Events.back();
      Fence.What = Kind::Fence;
      Fence.Op = "full";
      Fence.Order = MemoryOrder::Full;
      Fence.Location.clear();
      Events.push_back(std::move(Fence));
    }
  }

  void setLocation(OrderingEvent &E, const Expr *Lvalue) {
    LocationOf L = locationOf(Lvalue, F);
    E.Location = L.Key;
    E.LocationText = L.Text;
    E.Record = L.Record;
    E.Global = L.Global;
    E.Through = L.Through;
    if (L.Base)
      E.BaseRange = fileRange(L.Base);
    if (E.Through && Fresh.count(E.Through))
      E.Private = true;
  }

  /// The ordering an order argument names: an order constant by its declaration's name
  /// or by the macro that spells it; an unknown expression is taken as seq_cst.
  MemoryOrder orderOf(const Expr *E) const {
    if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
      E = Default->getExpr();
    for (SourceLocation Loc = E->getBeginLoc(); Loc.isMacroID();) {
      StringRef Macro = Lexer::getImmediateMacroName(Loc, SM, AST.getLangOpts());
      if (std::optional<MemoryOrder> O = Names.orderConstant(Macro.str()))
        return *O;
      Loc = SM.getImmediateMacroCallerLoc(Loc);
    }
    const Expr *Inner = E->IgnoreParenImpCasts();
    if (const auto *R = dyn_cast<DeclRefExpr>(Inner)) {
      if (std::optional<MemoryOrder> O = Names.orderConstant(R->getDecl()->getQualifiedNameAsString()))
        return *O;
      if (std::optional<MemoryOrder> O = Names.orderConstant(R->getDecl()->getNameAsString()))
        return *O;
    }
    return MemoryOrder::SeqCst;
  }

  /// E's order from its order argument, and where that argument is written (for fix-its).
  void setOrderArgument(OrderingEvent &E, const Expr *OrderArg) const {
    E.Order = orderOf(OrderArg);
    if (isa<CXXDefaultArgExpr>(OrderArg))
      return;
    // Where it is written: in the file, or as a whole macro (`__ATOMIC_ACQUIRE`, a builtin
    // macro) or a macro's argument written in the file.
    CharSourceRange Written = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(OrderArg->getSourceRange()), SM,
                                                       AST.getLangOpts());
    if (Written.isValid()) {
      E.OrderArg = SourceRange(Written.getBegin(), Lexer::GetBeginningOfToken(Written.getEnd().getLocWithOffset(-1),
                                                                              SM, AST.getLangOpts()));
      E.OrderText = Lexer::getSourceText(Written, SM, AST.getLangOpts()).str();
    }
  }

  /// Fills E from an API operation; false when the op is not an ordering event.
  bool fromOperation(OrderingEvent &E, const ApiNames::Operation &Op) const {
    const std::string &O = Op.Op;
    E.Op = O;
    E.HardwareRmw = Op.HardwareRmw;
    E.Dialect = Op.Dialect;
    E.Order = Op.Order;
    if (fenceOp(O) || O == "compiler_barrier" || O == "cpu_relax") {
      E.What = Kind::Fence;
      if (O == "cpu_relax")
        E.Op = "compiler_barrier";
      if (O == "full" && !E.Order)
        E.Order = MemoryOrder::Full;
    } else if (O == "acquire_load" || O == "cond_load_acquire") {
      E.What = Kind::Load, E.How = Access::Atomic, E.Order = MemoryOrder::Acquire;
    } else if (O == "cond_load_relaxed" || O == "read_once" || O == "counter_read") {
      E.What = Kind::Load, E.How = Access::Once, E.Order = MemoryOrder::Relaxed;
    } else if (O == "subscribe") {
      E.What = Kind::Load, E.How = Access::Once, E.Order = Op.Order ? *Op.Order : MemoryOrder::Consume;
    } else if (O == "release_store" || O == "publish") {
      E.What = Kind::Store, E.How = Access::Atomic, E.Order = MemoryOrder::Release;
    } else if (O == "write_once") {
      E.What = Kind::Store, E.How = Access::Once, E.Order = MemoryOrder::Relaxed;
    } else if (O == "store_mb") {
      // A store, then a full fence (add() appends the fence).
      E.What = Kind::Store, E.How = Access::Once, E.Order = MemoryOrder::Relaxed;
    } else if (O == "atomic_load") {
      E.What = Kind::Load, E.How = Access::Atomic;
    } else if (O == "atomic_store" || O == "atomic_clear") {
      E.What = Kind::Store, E.How = Access::Atomic;
    } else if (O == "atomic_init") {
      E.What = Kind::Store, E.How = Access::Plain, E.Order.reset();
    } else if (O == "atomic_rmw" || O == "atomic_exchange" || O == "atomic_cmpxchg" ||
               O == "atomic_test_and_set" || O == "counter_add") {
      E.What = Kind::Rmw, E.How = Access::Atomic, E.ReturnsValue = true;
      if (!E.Order && Op.OrderArg < 0)
        E.Order = MemoryOrder::Relaxed;
    } else if (O == "atomic_rmw_noreturn") {
      E.What = Kind::Rmw, E.How = Access::Atomic, E.ReturnsValue = false;
    } else if (ApiNames::acquiresLock(Op)) {
      E.What = Kind::LockAcquire;
    } else if (ApiNames::releasesLock(Op)) {
      E.What = Kind::LockRelease;
    } else if (O == "assert_held") {
      E.What = Kind::LockAcquire; // add() counts it; it orders nothing, so it is not kept
    } else if (O == "thread_create" || O == "thread_join") {
      E.What = Kind::OpaqueCall; // what comes before is visible to the thread, or after the join
    } else {
      return false;
    }
    return true;
  }

  void element(const Stmt *S) {
    if (const auto *R = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(R->getDecl()); V && !V->hasGlobalStorage())
        Out.Mentions.emplace_back(SM.getFileLoc(R->getLocation()), V);
    // Tokens of a macro argument are the caller's: only the macro's body makes its event.
    auto [Owner, Key] = ownerOf(S->getBeginLoc());
    if (!Owner || argumentOf(S, *Owner) >= 0)
      plain(S);
    else if (!Owner->FunctionLike && (isa<AtomicExpr>(S) || isa<CallExpr>(S)))
      plain(S, Owner); // `#define atomic_store_explicit __c11_atomic_store`: the call has the arguments
    else if (Owner->FunctionLike)
      expansionEvent(*Owner, Key, S);
  }

  static constexpr size_t NotAnEvent = ~size_t(0);
  struct ExpansionState {
    size_t Event = NotAnEvent;
    bool WholeAddress = false; // the address argument's whole expression was found
  };

  /// The expression of S's subtree spelled as the macro's address argument (the outermost
  /// one: `&m.ready`, not `m`), searched through the parts the macro's body spells.
  const Expr *addressIn(const Stmt *S, SourceRange Arg, int Depth = 0) const {
    if (!S || Depth > 8)
      return nullptr;
    SourceLocation B = SM.getSpellingLoc(S->getBeginLoc()), E = SM.getSpellingLoc(S->getEndLoc());
    if (within(B, Arg) && within(E, Arg))
      return dyn_cast<Expr>(S);
    for (const Stmt *Child : S->children())
      if (const Expr *Found = addressIn(Child, Arg, Depth + 1))
        return Found;
    return nullptr;
  }

  void noteAddress(ExpansionState &State, const OrderingModel::ExpansionInfo &Owner, const Stmt *S) {
    if (State.WholeAddress || State.Event == NotAnEvent || Owner.Args.empty() || !Owner.Args[0].isValid())
      return;
    const Expr *Address = addressIn(S, Owner.Args[0]);
    if (!Address)
      return;
    OrderingEvent &Ev = Events[State.Event];
    if (Ev.What == Kind::Fence)
      return;
    LocationOf L = locationOf(Address, F);
    Ev.Location = L.Key;
    Ev.LocationText = L.Text;
    Ev.Record = L.Record;
    Ev.Global = L.Global;
    Ev.Through = L.Through;
    Ev.BaseRange = L.Base ? fileRange(L.Base) : SourceRange();
    Ev.Private = Ev.Through && Fresh.count(Ev.Through);
    State.WholeAddress = SM.getSpellingLoc(Address->getBeginLoc()) == Owner.Args[0].getBegin() &&
                         SM.getSpellingLoc(Address->getEndLoc()) == Owner.Args[0].getEnd();
  }

  void expansionEvent(const OrderingModel::ExpansionInfo &Owner, unsigned Key, const Stmt *S) {
    auto Known = ByExpansion.find(Key);
    if (Known != ByExpansion.end()) {
      noteAddress(Known->second, Owner, S);
      return;
    }
    OrderingEvent E = makeEvent(Kind::OpaqueCall, S);
    E.Api = Owner.Name;
    E.At = SM.getExpansionLoc(Owner.Range.getBegin());
    E.Range = SM.getExpansionRange(Owner.Range).getAsRange();
    E.Element = nullptr;
    if (!fromOperation(E, *Owner.Op)) {
      ByExpansion[Key] = {};
      return;
    }
    if (Owner.Range.getBegin().isFileID())
      E.NameRange = SourceRange(Owner.Range.getBegin());
    if (!Owner.Args.empty() && E.What != Kind::Fence) {
      E.AddressArg = Owner.Args[0];
      E.AddressText = Owner.ArgTexts[0];
    }
    if (Owner.Op->OrderArg >= 0 && static_cast<size_t>(Owner.Op->OrderArg) < Owner.ArgTexts.size()) {
      std::optional<MemoryOrder> O = Names.orderConstant(Owner.ArgTexts[Owner.Op->OrderArg]);
      E.Order = O ? *O : MemoryOrder::SeqCst;
      E.OrderArg = Owner.Args[Owner.Op->OrderArg];
      E.OrderText = Owner.ArgTexts[Owner.Op->OrderArg];
    }
    size_t Index = Events.size();
    add(std::move(E));
    if (Events.size() == Index) { // counted, not kept (a lock-held assertion)
      ByExpansion[Key] = {};
      return;
    }
    ExpansionState State;
    State.Event = Index;
    noteAddress(State, Owner, S);
    ByExpansion[Key] = State;
  }

  void call(const Stmt *S, const ApiNames::Operation &Op, const Expr *Object, llvm::ArrayRef<const Expr *> Args,
            const std::string &Api) {
    OrderingEvent E = makeEvent(Kind::OpaqueCall, S);
    E.Api = Api;
    if (!fromOperation(E, Op))
      return;
    if (Op.OrderArg >= 0) {
      if (static_cast<size_t>(Op.OrderArg) < Args.size())
        setOrderArgument(E, Args[Op.OrderArg]);
      else
        E.Order = MemoryOrder::SeqCst;
    }
    if (Object)
      setLocation(E, Object);
    else if (!Args.empty() && E.What != Kind::Fence)
      setLocation(E, Args[0]);
    add(std::move(E));
  }

  void plain(const Stmt *S, const OrderingModel::ExpansionInfo *Alias = nullptr) {
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
      // Inline asm that touches memory (a memory clobber or operand) is an access the model
      // cannot name: like a call it cannot see into, it may order anything.
      bool Memory = false;
      for (unsigned I = 0; I < Asm->getNumClobbers(); ++I)
        Memory |= Asm->getClobber(I) == "memory";
      for (unsigned I = 0; I < Asm->getNumOutputs(); ++I)
        Memory |= Asm->getOutputConstraint(I).contains('m');
      for (unsigned I = 0; I < Asm->getNumInputs(); ++I)
        Memory |= Asm->getInputConstraint(I).contains('m');
      if (Memory)
        add(makeEvent(Kind::OpaqueCall, S));
      return;
    }
    if (const auto *AE = dyn_cast<AtomicExpr>(S)) {
      if (const ApiNames::Operation *Op = Names.operation(AE->getOpAsString().str())) {
        OrderingEvent E = makeEvent(Kind::OpaqueCall, S);
        E.Api = AE->getOpAsString().str();
        if (fromOperation(E, *Op)) {
          if (Alias) {
            E.Api = Alias->Name;
            E.Dialect = Alias->Op->Dialect;
          }
          if (Op->OrderArg >= 0) // not __c11_atomic_init, whose operands hold no order
            setOrderArgument(E, AE->getOrder());
          setLocation(E, AE->getPtr());
          add(std::move(E));
        }
      }
      return;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
      memberCall(MC, MC->getImplicitObjectArgument(), MC->getMethodDecl(),
                 llvm::ArrayRef<const Expr *>(MC->getArgs(), MC->getNumArgs()));
      return;
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
      const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
      if (MD && OC->getNumArgs() > 0) {
        memberCall(OC, OC->getArg(0), MD, llvm::ArrayRef<const Expr *>(OC->getArgs() + 1, OC->getNumArgs() - 1));
        return;
      }
    }
    if (const auto *CE = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *Callee = CE->getDirectCallee();
      llvm::ArrayRef<const Expr *> Args(CE->getArgs(), CE->getNumArgs());
      if (!Callee) {
        add(makeEvent(Kind::OpaqueCall, S));
        return;
      }
      if (const ApiNames::Operation *Op = operationOf(Names, Callee)) {
        call(S, *Op, nullptr, Args, Alias ? Alias->Name : Callee->getNameAsString());
        if (Alias && !Events.empty())
          Events.back().Dialect = Alias->Op->Dialect;
        return;
      }
      if (Callee->hasAttr<FormatAttr>()) {
        // Loads in a printf-like call's arguments are read to be printed.
        SourceRange Call = fileRange(S);
        for (OrderingEvent &E : Events)
          if (E.isLoad() && rangeHolds(SM, Call, E.Range.getBegin()))
            E.Diagnostic = true;
      }
      if (Callee->getBuiltinID() != 0)
        return; // __builtin_expect and friends; the atomic ones are AtomicExprs
      callInto(S, Callee, Args);
      return;
    }
    if (const auto *CC = dyn_cast<CXXConstructExpr>(S)) {
      const CXXConstructorDecl *Ctor = CC->getConstructor();
      if (!Ctor || Ctor->isTrivial())
        return;
      // A guard constructed from a lock (std::lock_guard, std::unique_lock): a critical section
      // until its destructor.
      for (const Expr *Arg : CC->arguments())
        if (Sync.kindOfType(Arg->getType()) == SyncKind::Lock) {
          add(makeEvent(Kind::LockAcquire, S));
          PendingGuard = true;
          return;
        }
      callInto(S, Ctor, llvm::ArrayRef<const Expr *>(CC->getArgs(), CC->getNumArgs()));
      return;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D); V && V->hasInit() && !V->hasGlobalStorage()) {
          if (PendingGuard) {
            Guards.insert(V);
            PendingGuard = false;
          }
          assignedTo(V, V->getInit());
        }
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (!BO->isAssignmentOp())
        return;
      const Expr *LHS = strip(BO->getLHS());
      if (const auto *R = dyn_cast<DeclRefExpr>(LHS))
        if (const auto *V = dyn_cast<VarDecl>(R->getDecl()); V && !V->hasGlobalStorage()) {
          assignedTo(V, BO->getRHS());
          return;
        }
      access(S, BO->getLHS(), BO->isCompoundAssignmentOp() ? Kind::Rmw : Kind::Store);
      if (!BO->isCompoundAssignmentOp() && !Events.empty() && Events.back().Element == S &&
          BO->getRHS()->isNullPointerConstant(AST, Expr::NPC_ValueDependentIsNotNull))
        Events.back().StoresNull = true;
      return;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      if (UO->isIncrementDecrementOp())
        access(S, UO->getSubExpr(), Kind::Rmw);
      return;
    }
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(S)) {
      if (IC->getCastKind() != CK_LValueToRValue)
        return;
      const Expr *Sub = IC->getSubExpr();
      if (const auto *R = dyn_cast<DeclRefExpr>(Sub->IgnoreParens()))
        if (const auto *V = dyn_cast<VarDecl>(R->getDecl()); V && Fresh.count(V) && !BaseUses.count(IC))
          Fresh.erase(V); // the new object's address escapes: it may be published
      access(S, Sub, Kind::Load);
    }
  }

  void memberCall(const Expr *S, const Expr *Object, const CXXMethodDecl *MD, llvm::ArrayRef<const Expr *> Args) {
    if (!MD || !Object)
      return;
    QualType T = Object->IgnoreImpCasts()->getType();
    if (T->isPointerType())
      T = T->getPointeeType();
    const ApiNames::Operation *Op = nullptr;
    std::string Method = MD->getNameAsString();
    if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl())
      Op = Names.methodOperation(SyncModel::className(RD), Method);
    if (!Op)
      Op = Names.methodOperation(SyncModel::className(MD->getParent()), Method);
    if (Op) {
      call(S, *Op, Object, Args, Method);
      return;
    }
    if (isa<CXXConversionDecl>(MD) && Sync.kindOfType(T) == SyncKind::Atomic) {
      // Reading an atomic object by conversion is a seq_cst load ([atomics.types.operations]).
      OrderingEvent E = makeEvent(Kind::Load, S);
      E.How = Access::Atomic;
      E.Order = MemoryOrder::SeqCst;
      setLocation(E, Object);
      add(std::move(E));
      return;
    }
    if (Sync.kindOfType(T) == SyncKind::Lock)
      return; // a lock's other methods (try_lock_for, native_handle) order nothing we model
    callInto(S, MD, Args);
  }

  /// A call of a function that is not an API operation: its body's events, seen at the call
  /// (a helper such as `lw__xchg_acq_rel_ptr(&l->tail, v)` is the exchange on l->tail); an
  /// opaque call where there is no body or it is too large to inline.
  void callInto(const Stmt *S, const FunctionDecl *Callee, llvm::ArrayRef<const Expr *> Args) {
    CallSites.push_back({Callee->getDefinition() ? Callee->getDefinition() : Callee, LockDepth > 0});
    const std::vector<OrderingEvent> *Summary = Summaries(Callee);
    if (!Summary) {
      add(makeEvent(Kind::OpaqueCall, S));
      return;
    }
    constexpr size_t InlineLimit = 16;
    if (Summary->size() > InlineLimit) {
      if (std::any_of(Summary->begin(), Summary->end(), orderingEvent))
        add(makeEvent(Kind::OpaqueCall, S));
      else
        Out.LargePlainCalls.emplace_back(CurrentBlock, std::any_of(Summary->begin(), Summary->end(),
                                                                   [](const OrderingEvent &E) { return E.isStore(); }));
      return;
    }
    const FunctionDecl *Def = Callee->getDefinition() ? Callee->getDefinition() : Callee;
    bool CalleeInitialises = SyncModel::isInitialiser(Def, Names);
    std::string CalleeSuffix = "@" + Def->getQualifiedNameAsString();
    OrderingEvent Site = makeEvent(Kind::OpaqueCall, S);
    for (OrderingEvent E : *Summary) {
      E.At = Site.At;
      E.Range = Site.Range;
      E.Element = S;
      E.NameRange = E.AddressArg = E.OrderArg = SourceRange();
      E.AddressText.clear();
      E.OrderText.clear();
      E.ValueTo = nullptr;
      E.UnderLock = false;
      E.Private = CalleeInitialises;
      E.Inlined = true;
      E.InlinedFrom = Def;
      if (E.Api.empty() || E.What == Kind::OpaqueCall)
        E.Api = Def->getNameAsString();
      const auto *Param = dyn_cast_or_null<ParmVarDecl>(E.Through);
      unsigned Index = Param ? Param->getFunctionScopeIndex() : 0;
      bool Substituted = false;
      if (Param && Index < Args.size() && Param->getDeclContext() == Def) {
        const Expr *Arg = Args[Index];
        if (E.Location == localPointee(Param, Def)) {
          LocationOf L = pointeeOf(Arg, F);
          E.Location = L.Key;
          E.LocationText = L.Text;
          E.Record = L.Record;
          E.Global = L.Global;
          E.Through = L.Through;
          E.BaseRange = L.Base ? fileRange(L.Base) : SourceRange();
        } else {
          const Expr *Inner = strip(Arg);
          const auto *R = dyn_cast_or_null<DeclRefExpr>(Inner);
          const auto *V = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
          E.Through = V && !V->hasGlobalStorage() ? V : nullptr;
          E.BaseRange = fileRange(Arg);
        }
        Substituted = true;
      }
      if (!Substituted) {
        E.Through = nullptr;
        if (E.Location.size() > CalleeSuffix.size() &&
            E.Location.compare(E.Location.size() - CalleeSuffix.size(), CalleeSuffix.size(), CalleeSuffix) == 0)
          E.Location.clear(); // what a local of the callee points to
      }
      add(std::move(E));
    }
  }

  /// A plain access of an lvalue, or an atomic one when its type is _Atomic.
  void access(const Stmt *S, const Expr *Lvalue, Kind K) {
    OrderingEvent E = makeEvent(K, S);
    setLocation(E, Lvalue);
    if (E.Location.empty())
      return;
    QualType T = Lvalue->getType();
    if (T->isAtomicType()) {
      E.How = Access::Atomic;
      E.Order = MemoryOrder::SeqCst;
      E.ReturnsValue = true;
    } else if (T.isVolatileQualified()) {
      E.How = Access::Volatile;
    }
    add(std::move(E));
  }

  /// V = Value: the load it takes its value from, or the allocation that makes it fresh.
  void assignedTo(const VarDecl *V, const Expr *Value) {
    const Expr *Inner = strip(Value);
    if (!Inner)
      return;
    Out.Copies.emplace_back(V, fileRange(Inner));
    if (isa<CXXNewExpr>(Inner)) {
      Fresh.insert(V);
      return;
    }
    if (const auto *CE = dyn_cast<CallExpr>(Inner))
      if (const FunctionDecl *Callee = CE->getDirectCallee())
        if (const ApiNames::Operation *Op = Names.operation(Callee->getNameAsString()); Op && Op->Op == "allocate") {
          Fresh.insert(V);
          return;
        }
    // The load whose value it is: the API access the expression spells (not a load of its
    // address argument, `fifo->head` in `ck_pr_load_ptr(&fifo->head->next)`), else the last
    // load there.
    SourceRange R = fileRange(Inner);
    OrderingEvent *Found = nullptr;
    for (auto It = Events.rbegin(); It != Events.rend(); ++It)
      if (It->isLoad() && It->Range.getBegin() == R.getBegin()) {
        if (!It->Api.empty()) {
          Found = &*It;
          break;
        }
        if (!Found)
          Found = &*It;
      }
    if (Found)
      Found->ValueTo = V;
  }

  const ApiNames &Names;
  const SyncModel &Sync;
  ASTContext &AST;
  SourceManager &SM;
  const std::map<unsigned, OrderingModel::ExpansionInfo> &Expansions;
  CalleeSummaries Summaries;
  const FunctionDecl *F = nullptr;
  FunctionOrdering Out;
  std::vector<OrderingEvent> &Events = Out.Events;
  std::unordered_map<unsigned, ExpansionState> ByExpansion;
  std::set<const VarDecl *> Fresh, Guards;
  std::set<const Expr *> BaseUses;
  bool PendingGuard = false;
  int LockDepth = 0;
  int CurrentBlock = -1;

public:
  /// The functions this one calls, each with whether a lock is held at the call.
  std::vector<std::pair<const FunctionDecl *, bool>> CallSites;
};

class FunctionCollector : public RecursiveASTVisitor<FunctionCollector> {
public:
  FunctionCollector(std::vector<const FunctionDecl *> &Out, const ApiNames &Names) : Out(Out), Names(Names) {}
  bool TraverseDecl(Decl *D) {
    auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (FD)
      Enclosing.push_back(FD);
    bool Continue = RecursiveASTVisitor::TraverseDecl(D);
    if (FD)
      Enclosing.pop_back();
    return Continue;
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() && !FD->isDependentContext() && !FD->isTemplated())
      Out.push_back(FD);
    return true;
  }
  // Functions named other than as a call's callee (a callback, an ops table entry) may be
  // called from anywhere.
  bool VisitCallExpr(CallExpr *CE) {
    if (const auto *R = dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreParenImpCasts()))
      CalleeRefs.insert(R);
    if (const FunctionDecl *Callee = CE->getDirectCallee(); Callee && isFenceFunction(Callee))
      FenceCallers.insert(Enclosing.begin(), Enclosing.end());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *R) {
    if (const auto *FD = dyn_cast<FunctionDecl>(R->getDecl()); FD && !CalleeRefs.count(R))
      Escaped.insert(FD->getCanonicalDecl());
    return true;
  }
  std::set<const FunctionDecl *> Escaped;
  /// Functions whose bodies call a barrier function (ck_pr_fence_*, atomic_thread_fence,
  /// rte_smp_wmb), found on this one walk rather than by walking each body again.
  std::set<const FunctionDecl *> FenceCallers;

private:
  bool isFenceFunction(const FunctionDecl *Callee) {
    auto [It, New] = FenceFunctions.emplace(Callee->getCanonicalDecl(), false);
    if (New) {
      const ApiNames::Operation *Op = operationOf(Names, Callee);
      It->second = Op && fenceOp(Op->Op);
    }
    return It->second;
  }

  std::vector<const FunctionDecl *> &Out;
  const ApiNames &Names;
  std::vector<const FunctionDecl *> Enclosing;
  llvm::SmallPtrSet<const DeclRefExpr *, 32> CalleeRefs; // one per call: a hash set, not a tree
  std::map<const FunctionDecl *, bool> FenceFunctions; // by canonical declaration
};

bool orderingEvent(const OrderingEvent &E) {
  switch (E.What) {
  case Kind::Fence:
    return E.Op != "compiler_barrier";
  case Kind::LockAcquire:
  case Kind::LockRelease:
  case Kind::OpaqueCall:
    return true;
  default:
    return E.Order && *E.Order != MemoryOrder::Relaxed;
  }
}

} // namespace

namespace {

/// The functions of this TU that run only under a caller's lock: internal (no other TU calls
/// them), never named but to be called, and every call either holds a lock or stands in a
/// function that runs under one (`__ptr_ring_swap_queue`, called by resize with both locks).
std::set<const FunctionDecl *>
calledUnderLock(const std::map<const FunctionDecl *, std::vector<std::pair<const FunctionDecl *, bool>>> &CallsFrom,
                const std::set<const FunctionDecl *> &Escaped) {
  std::map<const FunctionDecl *, std::vector<std::pair<const FunctionDecl *, bool>>> CallersOf;
  for (const auto &[Caller, Sites] : CallsFrom)
    for (const auto &[Callee, Held] : Sites)
      CallersOf[Callee].emplace_back(Caller, Held);
  std::set<const FunctionDecl *> Locked;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const auto &[Callee, Callers] : CallersOf) {
      if (Locked.count(Callee) || Callee->isExternallyVisible() || Escaped.count(Callee->getCanonicalDecl()))
        continue;
      bool All = std::all_of(Callers.begin(), Callers.end(), [&](const auto &Site) {
        return Site.second || (Site.first != Callee && Locked.count(Site.first));
      });
      if (All) {
        Locked.insert(Callee);
        Changed = true;
      }
    }
  }
  return Locked;
}

} // namespace

void OrderingModel::build() {
  if (Built)
    return;
  Built = true;
  std::vector<const FunctionDecl *> Decls;
  FunctionCollector Collector(Decls, Names);
  for (Decl *D : AST.getTraversalScope())
    Collector.TraverseDecl(D);

  // Bodies, walked once: a callee's events are seen at its calls. Null for a function
  // without a body here, or while its own walk is under way (recursion).
  std::map<const FunctionDecl *, std::unique_ptr<FunctionOrdering>> Walked;
  std::map<const FunctionDecl *, std::vector<std::pair<const FunctionDecl *, bool>>> CallsFrom;
  std::set<const FunctionDecl *> Walking;
  std::function<const FunctionOrdering *(const FunctionDecl *)> WalkOnce;
  CalleeSummaries Summary = [&](const FunctionDecl *FD) -> const std::vector<OrderingEvent> * {
    // Barriers are judged where they are written: callees stay opaque (they may order).
    if (FencesOnly)
      return nullptr;
    const FunctionOrdering *FO = WalkOnce(FD);
    return FO ? &FO->Events : nullptr;
  };
  WalkOnce = [&](const FunctionDecl *FD) -> const FunctionOrdering * {
    const FunctionDecl *Def = nullptr;
    if (!FD->hasBody(Def) || !Def || Walking.count(Def))
      return nullptr;
    auto It = Walked.find(Def);
    if (It != Walked.end())
      return It->second.get();
    Walking.insert(Def);
    FunctionWalker Walker(Names, Sync, AST, *Expansions, Summary);
    auto FO = std::make_unique<FunctionOrdering>(Walker.walk(Def));
    FO->Function = Def;
    CallsFrom[Def] = std::move(Walker.CallSites);
    Walking.erase(Def);
    return (Walked[Def] = std::move(FO)).get();
  };

  SourceManager &SM = AST.getSourceManager();
  std::vector<std::pair<const FunctionDecl *, const FunctionOrdering *>> Walks;
  for (const FunctionDecl *FD : Decls) {
    if (SM.isInSystemHeader(SM.getFileLoc(FD->getLocation())) || (FencesOnly && !writesFence(FD, Collector.FenceCallers)))
      continue;
    // A primitive's body (ck_pr_load_int's asm) is what its name in specs/api stands for: its
    // calls are events by that name, and its body is not user code to judge. Lock functions
    // (lw_mcs_lock) are: a lock's own ordering is what the barrier checks guard.
    const ApiNames::Operation *Primitive = operationOf(Names, FD);
    if (Primitive && Primitive->Callable && ApiNames::accessOf(*Primitive) != ApiNames::Access::LockUse)
      continue;
    const FunctionOrdering *Walk = WalkOnce(FD);
    if (Walk && !Walk->Events.empty())
      Walks.emplace_back(FD, Walk);
  }
  // (Only when every function was walked: each call site must be known.)
  std::set<const FunctionDecl *> Locked;
  if (!FencesOnly)
    Locked = calledUnderLock(CallsFrom, Collector.Escaped);
  // A walk is moved into Functions at its last use (a declaration and its definition share one).
  std::map<const FunctionOrdering *, size_t> UsesLeft;
  for (const auto &[FD, Walk] : Walks)
    ++UsesLeft[Walk];
  for (const auto &[FD, Walk] : Walks) {
    const FunctionDecl *Def = Walk->Function;
    FunctionOrdering FO = --UsesLeft[Walk] ? *Walk : std::move(*Walked[Def]);
    FO.Function = FD;
    bool Initialiser = SyncModel::isInitialiser(FD, Names);
    bool UnderCallersLock = Locked.count(Def) > 0;
    for (OrderingEvent &E : FO.Events) {
      E.Private |= Initialiser;
      E.UnderLock |= UnderCallersLock && E.What != Kind::LockAcquire && E.What != Kind::LockRelease;
    }
    Functions.push_back(std::move(FO));
  }
  if (!FencesOnly)
    pair();
}

bool OrderingModel::writesFence(const FunctionDecl *FD, const std::set<const FunctionDecl *> &FenceCallers) const {
  const Stmt *Body = FD->getBody();
  if (!Body)
    return false;
  const SourceManager &SM = AST.getSourceManager();
  if (!FenceSitesKnown) {
    // Where each barrier macro was expanded, as (file, offset): compared without walking
    // include stacks for every function.
    for (const auto &[Key, Info] : *Expansions)
      if (fenceOp(Info.Op->Op))
        FenceSites.push_back(SM.getDecomposedExpansionLoc(Info.Range.getBegin()));
    FenceSitesKnown = true;
  }
  CharSourceRange Range = SM.getExpansionRange(Body->getSourceRange());
  std::pair<FileID, unsigned> Begin = SM.getDecomposedLoc(Range.getBegin()), End = SM.getDecomposedLoc(Range.getEnd());
  for (const auto &[File, Offset] : FenceSites)
    if (File == Begin.first && Begin.first == End.first && Offset >= Begin.second && Offset <= End.second)
      return true;
  return FenceCallers.count(FD) > 0;
}

namespace {

/// Whether two locations are parts of one member (`next.pointer` and `next.generation` of a
/// double-word CAS target, `next` and `next.pointer`): one object, not data and its flag.
bool oneObject(const std::string &A, const std::string &B) {
  if (A == B)
    return true;
  auto Parent = [](std::string_view L) {
    size_t First = L.find('.');
    size_t Last = L.rfind('.');
    return First == Last ? L : L.substr(0, Last); // "record R.a.b" -> "record R.a"
  };
  auto Within = [](std::string_view Inner, std::string_view Outer) {
    return Inner.size() > Outer.size() && Inner.compare(0, Outer.size(), Outer) == 0 && Inner[Outer.size()] == '.';
  };
  std::string_view PA = Parent(A), PB = Parent(B);
  return (PA == PB && PA.size() != A.size()) || Within(A, B) || Within(B, A);
}

/// A link of a linked container (list_head, hlist_node, llist_node, rb_node): a record whose
/// fields all point to its own type. Its fields are written with WRITE_ONCE for lockless
/// traversal, but one link's next and prev are not a flag and its data.
bool linkRecord(const RecordDecl *R) {
  if (!R || R->field_empty())
    return false;
  const RecordDecl *Def = R->getDefinition() ? R->getDefinition() : R;
  for (const FieldDecl *F : Def->fields()) {
    QualType T = F->getType();
    int Depth = 0;
    while (T->isPointerType() && Depth < 2) {
      T = T->getPointeeType();
      ++Depth;
    }
    const RecordDecl *Target = T->getAsRecordDecl();
    if (Depth == 0 || !Target || (Target->getDefinition() ? Target->getDefinition() : Target) != Def)
      return false;
  }
  return true;
}

/// Whether a writer's data store and its publishing store concern one object: not when they
/// go through two different local pointers (`node->next` and `l->tail`), unless the publishing
/// store names the data's pointer (it publishes it: `xchg(&l->tail, node)`).
bool publishesData(const FunctionOrdering &W, const OrderingEvent &Publish, const OrderingEvent &Data,
                   const SourceManager &SM) {
  if (!Publish.Through || !Data.Through || Publish.Through == Data.Through)
    return true;
  return W.mentions(Publish.Range, Data.Through, SM);
}

/// Whether the store at S goes into an object this function publishes later (`entry->next =
/// head` before the CAS that links `entry` in): a store of data, not a publication.
bool publishedLater(const FunctionOrdering &W, size_t S, const SourceManager &SM) {
  const OrderingEvent &Store = W.Events[S];
  if (!Store.Through)
    return false;
  for (size_t I = S + 1; I < W.Events.size(); ++I) {
    const OrderingEvent &Later = W.Events[I];
    if (Later.isStore() && Later.Through != Store.Through && W.mentions(Later.Range, Store.Through, SM))
      return true;
  }
  return false;
}

/// Whether two accesses come from two calls of one function (`enqueue(r, a); enqueue(r, b);`):
/// each call's protocol is judged in the callee's body, and one call's store with the next
/// call's flag is two operations in a row, not data and its flag.
bool separateCalls(const OrderingEvent &A, const OrderingEvent &B) {
  return A.Inlined && B.Inlined && A.InlinedFrom == B.InlinedFrom && A.Element != B.Element;
}

/// Whether the reader's load at D only computes the value of a marked store it stands in
/// (`WRITE_ONCE(s->deadline, jiffies + timeout())`): the reader is updating a flag there, not
/// consuming what the writer published.
bool feedsMarkedStore(const FunctionOrdering &R, size_t D, const SourceManager &SM) {
  const OrderingEvent &Load = R.Events[D];
  // (A macro's store may be listed before its value argument's loads: the macro's first
  // token can come first in the CFG. A call in a macro argument has the macro's range.)
  for (size_t I = 0; I < R.Events.size(); ++I) {
    const OrderingEvent &Store = R.Events[I];
    if (I != D && Store.Block == Load.Block && Store.What == Kind::Store && Store.How != Access::Plain &&
        !Store.Location.empty() && rangeHolds(SM, Store.Range, Load.Range.getBegin()))
      return true;
  }
  return false;
}

/// Whether a reader's access after the guard reads what the guard leads to: the same object,
/// or one the guard's value points to (`p = READ_ONCE(head); p->key`); not an object the reader
/// held already (its own queue node).
bool guardedBy(const FunctionOrdering &R, size_t G, size_t D, const SourceManager &SM) {
  const OrderingEvent &Guard = R.Events[G], &Data = R.Events[D];
  if (!Guard.Through || !Data.Through || Guard.Through == Data.Through)
    return true;
  return R.dependsOn(G, D, SM);
}

} // namespace

bool OrderingModel::publishes(const FunctionOrdering &W, size_t S) const {
  const OrderingEvent &Publish = W.Events[S];
  // A plain access where the TU's other accesses of that kind are marked was written plain on
  // purpose: the owner reading its own field, the single producer's store (`push_spnc`), code
  // under a lock the model cannot see.
  return Publish.isStore() && !Publish.Location.empty() && !Publish.Private && !Publish.UnderLock &&
         Marked.count(Publish.Location) && !(Publish.StoresNull && Publish.How == Access::Plain) &&
         !(Publish.What == Kind::Store && Publish.How == Access::Plain && MarkedStores.count(Publish.Location)) &&
         !publishedLater(W, S, AST.getSourceManager());
}

std::map<std::string, size_t> OrderingModel::dataStoresBefore(const FunctionOrdering &W, size_t S) const {
  const SourceManager &SM = AST.getSourceManager();
  const OrderingEvent &Publish = W.Events[S];
  std::map<std::string, size_t> DataStores;
  for (size_t D = 0; D < S; ++D) {
    const OrderingEvent &E = W.Events[D];
    if (E.What == Kind::OpaqueCall)
      DataStores.clear(); // what came before may be handed over there (pthread_create, a lock)
    else if (E.isStore() && !E.Location.empty() && !E.UnderLock && !oneObject(E.Location, Publish.Location) &&
             !(linkRecord(Publish.Record) && E.Record == Publish.Record) && publishesData(W, Publish, E, SM) &&
             !separateCalls(E, Publish) && W.forwardReaches(E.Block, Publish.Block))
      DataStores[E.Location] = D;
  }
  return DataStores;
}

bool OrderingModel::guards(const FunctionOrdering &R, size_t G) const {
  const OrderingEvent &Guard = R.Events[G];
  if (!Guard.isLoad() || Guard.Location.empty() || Guard.UnderLock || Guard.Private || Guard.Diagnostic)
    return false;
  bool PlainLoad = Guard.What == Kind::Load && Guard.How == Access::Plain;
  if (PlainLoad && MarkedLoads.count(Guard.Location))
    return false; // deliberately plain, as for stores in publishes()
  // A load inside a callee guards the caller's loads only when the callee returns it.
  if (Guard.Inlined && !Guard.ValueTo && Guard.What == Kind::Load)
    return false;
  // A plain load by a function that also stores there is the owner reading its own (a single
  // writer's probe of its table), not a reader meeting a writer.
  return !PlainLoad || std::none_of(R.Events.begin(), R.Events.end(), [&](const OrderingEvent &E) {
    return E.isStore() && E.Location == Guard.Location;
  });
}

OrderingModel::GuardedUse OrderingModel::guardedUse(const FunctionOrdering &R, size_t G, size_t D) const {
  const SourceManager &SM = AST.getSourceManager();
  const OrderingEvent &Guard = R.Events[G], &E = R.Events[D];
  if (D <= G || E.UnderLock || E.Diagnostic || E.Location.empty() || oneObject(E.Location, Guard.Location) ||
      !guardedBy(R, G, D, SM) || separateCalls(Guard, E) || !R.forwardReaches(Guard.Block, E.Block))
    return GuardedUse::None;
  if (E.What == Kind::Load) {
    // A load the guard does not decide (a second statistics read, code after an `if` that runs
    // either way) is not read on the strength of the guard.
    bool Dependent = R.dependsOn(G, D, SM);
    if ((!Dependent && !R.decides(G, D, SM)) || (!Dependent && feedsMarkedStore(R, D, SM)))
      return GuardedUse::None;
    return GuardedUse::Load;
  }
  // S: a store through the pointer the guard loaded (`prev = xchg(&l->tail, node); prev->next =
  // node`); a store to some other object is not what the writer handed over.
  if (E.isStore() && E.Through && E.Through == Guard.ValueTo)
    return GuardedUse::Store;
  return GuardedUse::None;
}

void OrderingModel::pair() {
  // A flag, pointer or index is a location some access of the TU marks as shared (ONCE,
  // volatile, atomic, an API call): a field only ever read and written plainly (a ring's
  // mask, a consumer's own head) publishes nothing.
  for (const FunctionOrdering &FO : Functions)
    for (const OrderingEvent &E : FO.Events)
      if (!E.Location.empty() && E.How != Access::Plain) {
        Marked.insert(E.Location);
        if (E.What == Kind::Load)
          MarkedLoads.insert(E.Location);
        if (E.isStore())
          MarkedStores.insert(E.Location);
      }
  // The guard loads of each location, by function.
  std::map<std::string, std::vector<std::pair<const FunctionOrdering *, size_t>>> Guards;
  for (const FunctionOrdering &FO : Functions)
    for (size_t I = 0; I < FO.Events.size(); ++I)
      if (guards(FO, I))
        Guards[FO.Events[I].Location].emplace_back(&FO, I);
  for (const FunctionOrdering &W : Functions)
    for (size_t S = 0; S < W.Events.size(); ++S) {
      if (!publishes(W, S))
        continue;
      const OrderingEvent &Publish = W.Events[S];
      auto Readers = Guards.find(Publish.Location);
      if (Readers == Guards.end())
        continue;
      std::map<std::string, size_t> DataStores = dataStoresBefore(W, S);
      if (DataStores.empty())
        continue;
      std::set<const FunctionOrdering *> Paired;
      for (const auto &[R, G] : Readers->second) {
        // One function is both sides only as two threads running it meet at one RMW (a queue
        // lock's tail exchange): a later load of its own store is program order, not a reader.
        if (Paired.count(R) || (R == &W && G != S))
          continue;
        OrderingPair P;
        P.Writer = &W;
        P.Reader = R;
        P.Publish = S;
        P.Guard = G;
        std::set<std::string> Seen;
        for (size_t D = G + 1; D < R->Events.size(); ++D) {
          const OrderingEvent &E = R->Events[D];
          GuardedUse Use = guardedUse(*R, G, D);
          if (Use == GuardedUse::None)
            continue;
          auto Store = DataStores.find(E.Location);
          if (Store == DataStores.end())
            continue;
          if (Use == GuardedUse::Load) {
            if (P.DataLoads.empty())
              P.FirstDataLoad = D;
            P.DataLoads.push_back(D);
          } else {
            P.ReaderStores.push_back(D);
          }
          if (Seen.insert(E.Location).second) {
            P.Data.push_back(E.LocationText);
            P.DataStores.push_back(Store->second);
          }
        }
        if (P.DataStores.empty())
          continue;
        std::sort(P.DataStores.begin(), P.DataStores.end());
        P.LastDataStore = P.DataStores.back();
        Paired.insert(R);
        Pairs.push_back(std::move(P));
      }
    }
}

} // namespace lockwright

namespace lockwright {

namespace {

const char *kindName(Kind K) {
  switch (K) {
  case Kind::Load:
    return "load";
  case Kind::Store:
    return "store";
  case Kind::Rmw:
    return "rmw";
  case Kind::Fence:
    return "fence";
  case Kind::LockAcquire:
    return "lock-acquire";
  case Kind::LockRelease:
    return "lock-release";
  case Kind::OpaqueCall:
    return "opaque-call";
  }
  return "";
}

const char *accessName(Access A) {
  switch (A) {
  case Access::Plain:
    return "plain";
  case Access::Volatile:
    return "volatile";
  case Access::Once:
    return "once";
  case Access::Atomic:
    return "atomic";
  }
  return "";
}


} // namespace

void OrderingModel::dump(llvm::raw_ostream &OS) {
  build();
  SourceManager &SM = AST.getSourceManager();
  auto Where = [&](SourceLocation L) {
    if (!L.isValid())
      return std::string("?");
    PresumedLoc P = SM.getPresumedLoc(L);
    return P.isValid() ? std::to_string(P.getLine()) + ":" + std::to_string(P.getColumn()) : std::string("?");
  };
  for (const FunctionOrdering &F : Functions) {
    OS << "function " << F.Function->getQualifiedNameAsString() << "\n";
    for (size_t I = 0; I < F.Events.size(); ++I) {
      const OrderingEvent &E = F.Events[I];
      OS << "  " << I << " " << Where(E.At) << " " << kindName(E.What);
      if (E.What == Kind::Load || E.What == Kind::Store || E.What == Kind::Rmw)
        OS << " " << accessName(E.How);
      if (!E.Op.empty())
        OS << " op=" << E.Op;
      if (E.Order)
        OS << " order=" << ApiNames::orderName(*E.Order);
      if (!E.Api.empty())
        OS << " api=" << E.Api;
      if (!E.LocationText.empty())
        OS << " loc=" << E.LocationText;
      if (E.ValueTo)
        OS << " value->" << E.ValueTo->getName();
      if (E.Through)
        OS << " through=" << E.Through->getName();
      if (E.Private)
        OS << " private";
      if (E.UnderLock)
        OS << " under-lock";
      OS << "\n";
    }
  }
  for (const OrderingPair &P : Pairs) {
    OS << "pair writer " << P.Writer->Function->getQualifiedNameAsString() << "#" << P.Publish << " reader "
       << P.Reader->Function->getQualifiedNameAsString() << "#" << P.Guard << " on "
       << P.Writer->Events[P.Publish].LocationText << " data";
    for (const std::string &D : P.Data)
      OS << " " << D;
    OS << "\n";
  }
}

} // namespace lockwright
