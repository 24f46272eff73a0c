#include "analysis/SyncModel.h"

#include "analysis/IdentifierMemo.h"
#include "SetOps.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace lockwright {

std::set<const FunctionDecl *> ObjectUse::accessors() const {
  std::set<const FunctionDecl *> All = Readers;
  All.insert(Writers.begin(), Writers.end());
  All.insert(ColdWriters.begin(), ColdWriters.end());
  return All;
}

namespace {

/// Records the spelling range of the first argument of every API macro.
class MacroRecorder : public PPCallbacks {
public:
  MacroRecorder(const ApiNames &Names, Preprocessor &PP, std::vector<MacroArgUse> &Out,
                std::vector<std::pair<SourceRange, std::string>> &RunOnce, std::set<SourceLocation> &ThreadIds)
      : Names(Names), PP(PP), Out(Out), RunOnce(RunOnce), ThreadIds(ThreadIds) {}

  void MacroExpands(const Token &NameTok, const MacroDefinition &, SourceRange Range, const MacroArgs *Args) override {
    if (!Args)
      return;
    const MacroApi &Api = Apis.get(NameTok.getIdentifierInfo(), [&](const std::string &Name) {
      const ApiNames::Operation *Op = Names.operation(Name);
      return MacroApi{Names.access(Name), Contention::of(Names, Name), Op && Op->Op == "assert_held",
                      Op && Op->Op == "atomic_cmpxchg", Op && Op->Op == "run_once", Op && Op->Op == "thread_id"};
    });
    SourceManager &SM = PP.getSourceManager();
    if (Api.ThreadId) { // smp_processor_id(): the running CPU
      ThreadIds.insert(SM.getExpansionLoc(NameTok.getLocation()));
      return;
    }
    if (Args->getNumMacroArguments() == 0)
      return;
    if (Api.RunsOnce) { // early_initcall(fn): fn runs once
      if (const Token *Fn = Args->getUnexpArgument(0); Fn->isNot(tok::eof))
        RunOnce.push_back({SourceRange(SM.getSpellingLoc(Fn->getLocation())),
                           NameTok.getIdentifierInfo()->getName().str()});
      return;
    }
    if (!Api.Access && !Api.AssertsHeld)
      return;
    // An API macro expanded by another one's body is that macro's implementation
    // (rcu_assign_pointer expands to smp_store_release): the outer one says what the code does.
    // One written in the outer's arguments (WRITE_ONCE(x, READ_ONCE(y))) is the code's own.
    if (NameTok.getLocation().isMacroID() && Outer.isValid()) {
      auto InOuter = [&](SourceLocation L) {
        return L.isValid() && !SM.isBeforeInTranslationUnit(L, Outer.getBegin()) &&
               !SM.isBeforeInTranslationUnit(Outer.getEnd(), L);
      };
      if (InOuter(SM.getExpansionLoc(NameTok.getLocation())) && !InOuter(SM.getSpellingLoc(NameTok.getLocation())))
        return;
    }
    Outer = SM.getExpansionRange(Range).getAsRange();
    const Token *First = Args->getUnexpArgument(0);
    const Token *Last = First;
    for (const Token *T = First; T->isNot(tok::eof); ++T)
      Last = T;
    if (First->is(tok::eof))
      return;
    SourceLocation Begin = SM.getSpellingLoc(First->getLocation());
    SourceLocation End = SM.getSpellingLoc(Last->getLocation());
    // cmpxchg(p, old, new), or the kernel's variadic cmpxchg(ptr, ...) whose old value leads
    // its __VA_ARGS__.
    bool FromNull = Api.CompareAndSwap && Args->getNumMacroArguments() >= 2 && nullToken(Args->getUnexpArgument(1));
    Out.push_back({SourceRange(Begin, End), Api.Access.value_or(ApiNames::Access::LockUse), Api.Contends,
                   NameTok.getIdentifierInfo()->getName().str(), Api.AssertsHeld, FromNull});
  }

  /// Whether an unexpanded macro argument is just NULL or 0 (or starts a __VA_ARGS__ so).
  static bool nullToken(const Token *T) {
    if (T->is(tok::eof) || (T[1].isNot(tok::eof) && T[1].isNot(tok::comma)))
      return false;
    if (T->is(tok::identifier))
      return T->getIdentifierInfo()->getName() == "NULL";
    return T->is(tok::numeric_constant) && T->getLength() == 1 && *T->getLiteralData() == '0';
  }

private:
  const ApiNames &Names;
  Preprocessor &PP;
  std::vector<MacroArgUse> &Out;
  std::vector<std::pair<SourceRange, std::string>> &RunOnce;
  std::set<SourceLocation> &ThreadIds;
  struct MacroApi {
    std::optional<ApiNames::Access> Access;
    Contention Contends;
    bool AssertsHeld = false;
    bool CompareAndSwap = false;
    bool RunsOnce = false;
    bool ThreadId = false;
  };
  IdentifierMemo<MacroApi> Apis;
  SourceRange Outer; // the file range of the last API macro expansion not nested in another
};

} // namespace

/// The object an expression designates, through &, *, casts, parentheses and subscripts.
static const ValueDecl *designated(const Expr *E, bool *Subscripted = nullptr, bool *ConstantIndex = nullptr,
                                   const Expr **Index = nullptr) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E)) {
      E = Cast->getSubExpr();
    } else if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf) {
      E = U->getSubExpr();
    } else if (const auto *D = dyn_cast<UnaryOperator>(E); D && D->getOpcode() == UO_Deref) {
      // `*(T *)&x` is x seen through another type (the kernel's ACCESS_PRIVATE around an
      // rcu_node's lock, a volatile access written out); `*p` is what p points to: unknown.
      const auto *Addr = dyn_cast<UnaryOperator>(D->getSubExpr()->IgnoreParenCasts());
      if (!Addr || Addr->getOpcode() != UO_AddrOf)
        return nullptr;
      E = Addr->getSubExpr();
    } else if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      // Through a pointer (p->q[i], not an array member): the object is what it points to.
      if (A->getBase()->IgnoreParenImpCasts()->getType()->isPointerType())
        return nullptr;
      if (Subscripted)
        *Subscripted = true;
      if (ConstantIndex)
        *ConstantIndex = A->getIdx()->IgnoreParenImpCasts()->getStmtClass() == Stmt::IntegerLiteralClass;
      if (Index)
        *Index = A->getIdx();
      E = A->getBase();
    } else if (const auto *M = dyn_cast<MemberExpr>(E)) {
      return M->getMemberDecl();
    } else if (const auto *R = dyn_cast<DeclRefExpr>(E)) {
      return R->getDecl();
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E); Op && Op->getOperator() == OO_Subscript) {
      if (Subscripted)
        *Subscripted = true;
      E = Op->getArg(0);
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

/// The declaration uses are recorded under: a variable's first (a header's `extern`, its
/// definition and an `EXPORT_SYMBOL` redeclaration are one variable).
static const ValueDecl *canonical(const ValueDecl *D) {
  if (const auto *V = dyn_cast_or_null<VarDecl>(D))
    return V->getCanonicalDecl();
  return D;
}

std::string SyncModel::className(const CXXRecordDecl *RD) {
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    return Spec->getSpecializedTemplate()->getQualifiedNameAsString();
  return RD->getQualifiedNameAsString();
}

class UsageVisitor : public RecursiveASTVisitor<UsageVisitor> {
public:
  explicit UsageVisitor(SyncModel &Model) : Model(Model), SM(Model.Context.getSourceManager()) {}

  bool TraverseFunctionDecl(FunctionDecl *FD) { return inFunction(FD, [&] { return Base::TraverseFunctionDecl(FD); }); }
  bool TraverseCXXMethodDecl(CXXMethodDecl *MD) {
    // A call through a base (`b->run()`) names the base's method: an override has callers we
    // cannot see.
    if (MD->isVirtual())
      named(MD);
    return inFunction(MD, [&] { return Base::TraverseCXXMethodDecl(MD); });
  }
  bool TraverseCXXConstructorDecl(CXXConstructorDecl *CD) {
    return inFunction(CD, [&] { return Base::TraverseCXXConstructorDecl(CD); });
  }
  bool TraverseCXXDestructorDecl(CXXDestructorDecl *DD) {
    return inFunction(DD, [&] { return Base::TraverseCXXDestructorDecl(DD); });
  }
  bool TraverseLambdaExpr(LambdaExpr *LE) {
    return inFunction(LE->getCallOperator(), [&] { return Base::TraverseLambdaExpr(LE); });
  }

  // Objects this function allocated or declared are its own until their address is handed on
  // (to a call, a store, a return): writes to them then contend with nobody.
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->hasGlobalStorage())
      if (const auto *Section = VD->getAttr<SectionAttr>();
          Section && Model.Names.section(Section->getName().str()) == ApiNames::Section::PerCpu)
        perCpu(VD->getType());
    // A thread-local variable (`__thread`, `thread_local`, liburcu's DEFINE_URCU_TLS) has a copy
    // per thread, as a per-CPU one has a copy per CPU: each thread writes its own. A record is
    // per thread when every variable of its type is thread-local.
    if (VD->hasGlobalStorage())
      if (const RecordDecl *RD = recordOf(VD->getType()))
        (VD->getTLSKind() != VarDecl::TLS_None ? Model.ThreadLocal : Model.SharedGlobal).insert(RD);
    // __attribute__((cleanup(f))) calls f at every exit of the variable's scope, without a call
    // expression: a caller we do not model.
    if (const auto *Cleanup = VD->getAttr<CleanupAttr>(); Cleanup && Cleanup->getFunctionDecl())
      named(Cleanup->getFunctionDecl());
    if (!Current || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD))
      return true;
    if (VD->getType()->isRecordType() || (VD->getInit() && isAllocation(VD->getInit())))
      Fresh.insert(VD);
    else if (VD->getInit())
      escape(VD->getInit());
    if (const Expr *Init = VD->getInit())
      madeFrom(VD, Init);
    return true;
  }

  bool VisitReturnStmt(ReturnStmt *RS) {
    escape(RS->getRetValue());
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) {
    if (isa<CXXMemberCallExpr>(CE) || isa<CXXOperatorCallExpr>(CE))
      return true; // handled below
    const FunctionDecl *Callee = CE->getDirectCallee();
    // A call in a template whose callee depends on its arguments names candidates the pattern
    // does not resolve (instantiations are not walked): any of them has a caller we do not see.
    if (const auto *Unresolved = dyn_cast<UnresolvedLookupExpr>(CE->getCallee()->IgnoreParenImpCasts()))
      for (const NamedDecl *Candidate : Unresolved->decls())
        if (const FunctionDecl *FD = Candidate->getAsFunction())
          named(FD);
    if (Callee) {
      CalleeRefs.insert(CE->getCallee()->IgnoreParenImpCasts());
      // Outside a function body (a C++ member or global initialiser): a caller we do not model.
      if (!Current)
        named(Callee);
      if (Current) {
        Model.Callers[Callee->getCanonicalDecl()].insert(Current);
        // Two calls here, or one in a loop: the callee may run more than once per run of this.
        // Specialisations of one template are one function to the summaries: counted together.
        const FunctionDecl *Pattern = Callee->getTemplateInstantiationPattern();
        if (++CallSites[{(Pattern ? Pattern : Callee)->getCanonicalDecl(), Current}] > 1 || Walk.LoopDepth)
          Model.RepeatedCalls.insert({Callee->getCanonicalDecl(), Current});
        Walk.CalledHere.push_back(Callee->getCanonicalDecl());
        keepHeld(Model.CallLocks.try_emplace(Callee->getCanonicalDecl(), heldNow()));
        // A lock wrapper seen before (`__pipe_lock(pipe)` takes pipe->mutex and returns), or one
        // that takes or releases the lock it is handed (`mutex_lock(&rcu_gp_lock)`).
        if (auto Takes = TakenOnReturn.find(Callee->getCanonicalDecl()); Takes != TakenOnReturn.end())
          Held.insert(Held.end(), Takes->second.begin(), Takes->second.end());
        if (auto Drops = ReleasedOnReturn.find(Callee->getCanonicalDecl()); Drops != ReleasedOnReturn.end())
          for (const ValueDecl *L : Drops->second)
            release(L);
        // The argument's lock: a named one, or this function's own parameter (a wrapper of a
        // wrapper, `locked_work(m) { lock_it(m); ...; unlock_it(m); }`).
        auto ArgumentLock = [&](unsigned Index) -> const ValueDecl * {
          const ValueDecl *L = Index < CE->getNumArgs() ? designated(CE->getArg(Index)) : nullptr;
          return L && (namedLock(canonical(L)) || isa<ParmVarDecl>(L)) ? canonical(L) : nullptr;
        };
        for (const auto &[Wrappers, Takes] : {std::pair(&TakesArgument, true), std::pair(&ReleasesArgument, false)})
          if (auto It = Wrappers->find(Callee->getCanonicalDecl()); It != Wrappers->end())
            for (unsigned Index : It->second)
              if (const ValueDecl *L = ArgumentLock(Index))
                wrapperHolds(L, Takes);
      }
    }
    if (!Callee || CE->getNumArgs() == 0)
      return true;
    std::string Name = Callee->getNameAsString();
    const ApiNames::Operation *Op = Model.Names.operation(Name);
    if (Op && Op->Op == "thread_create")
      startsThread(CE->getBeginLoc(), llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()));
    // alloc_percpu(struct x) passes sizeof(struct x): one copy per CPU.
    if (Op && Op->Op == "allocate_per_cpu")
      if (const auto *Size = dyn_cast<UnaryExprOrTypeTraitExpr>(CE->getArg(0)->IgnoreParenImpCasts());
          Size && Size->getKind() == UETT_SizeOf)
        perCpu(Size->getTypeOfArgument());
    // A lock operation on a member of what its argument points to (`lock_sock(sk)` owns
    // `sk->sk_lock`): the member is the lock it takes, releases or asserts held.
    if (Op && !Op->Member.empty()) {
      const FieldDecl *Lock = memberOfPointee(CE->getArg(0), Op->Member);
      if (Op->Op == "assert_held") {
        if (Current && Lock)
          Held.push_back(canonical(Lock));
      } else if (std::optional<ApiNames::Access> A = ApiNames::accessOf(*Op)) {
        record(Lock, *A, Name, Contention::of(Model.Names, Name));
      }
      return true;
    }
    if (std::optional<ApiNames::Access> A = Model.Names.access(Name)) {
      record(designated(CE->getArg(0)), *A, Name, Contention::of(Model.Names, Name), CE->getArg(0));
      return true;
    }
    // '&s->stack' handed to a function we do not know (ck_stack_push_upmc): it may write all of it.
    for (const Expr *Arg : CE->arguments())
      if (const auto *UO = dyn_cast<UnaryOperator>(Arg->IgnoreParenImpCasts()); UO && UO->getOpcode() == UO_AddrOf)
        if (const ValueDecl *D = designated(UO->getSubExpr()); D && Current)
          if (ObjectUse &Who = Model.Uses[canonical(D)]; !setOnce(Who, UO))
            write(Who, UO);
    // Handed on: pthread_create's argument, list_add's node. A member handed to an initialiser
    // (`init_waitqueue_head(&pipe->rd_wait)`, `mutex_init(&p->lock)`) is set up, not published:
    // the object stays the function's own.
    bool Initialises = SyncModel::isInitialiser(Callee, Model.Names);
    for (const Expr *Arg : CE->arguments())
      if (!(Initialises && addressOfMember(Arg)))
        escape(Arg);
    return true;
  }

  // __atomic_* and __c11_atomic_* builtins are AtomicExprs, not calls.
  bool VisitAtomicExpr(AtomicExpr *AE) {
    std::string Name = AE->getOpAsString().str();
    if (std::optional<ApiNames::Access> A = Model.Names.access(Name))
      record(designated(AE->getPtr()), *A, Name, Contention::of(Model.Names, Name), AE->getPtr());
    return true;
  }

  /// The API meaning of a method called on Object: looked up by the object's
  /// class (std::atomic), then by the classes the method is inherited from
  /// (libstdc++ defines fetch_add in std::__atomic_base).
  std::optional<ApiNames::Access> methodAccess(const Expr *Object, const CXXMethodDecl *MD) {
    std::string Method = MD->getNameAsString();
    // The derived-to-base cast to the inherited method's class hides the object's own type.
    QualType T = Object->IgnoreImpCasts()->getType();
    if (T->isPointerType())
      T = T->getPointeeType();
    if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl())
      if (std::optional<ApiNames::Access> A = Model.Names.methodAccess(SyncModel::className(RD), Method))
        return A;
    return Model.Names.methodAccess(SyncModel::className(MD->getParent()), Method);
  }

  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *CE) {
    const CXXMethodDecl *MD = CE->getMethodDecl();
    const Expr *Object = CE->getImplicitObjectArgument();
    if (!MD || !Object)
      return true;
    if (std::optional<ApiNames::Access> A = methodAccess(Object, MD))
      record(designated(Object), *A, MD->getNameAsString());
    return true;
  }

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *CE) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee());
    if (!MD || CE->getNumArgs() == 0)
      return true;
    if (std::optional<ApiNames::Access> A = methodAccess(CE->getArg(0), MD))
      record(designated(CE->getArg(0)), *A, MD->getNameAsString());
    else if (CE->isAssignmentOp())
      plainWrite(CE->getArg(0), CE->getOperator() != OO_Equal ||
                                    (CE->getNumArgs() > 1 && refersTo(CE->getArg(1), designated(CE->getArg(0)))));
    else if (CE->getOperator() == OO_PlusPlus || CE->getOperator() == OO_MinusMinus)
      plainWrite(CE->getArg(0), true);
    return true;
  }

  // Parents are visited before their children: a member expression marks its base, so that
  // WRITE_ONCE(e->node.next, n) writes 'next', not the 'node' that holds it (or 'e').
  bool VisitMemberExpr(MemberExpr *ME) {
    const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    if (isa<MemberExpr>(Base) || isa<DeclRefExpr>(Base))
      Bases.insert(Base);
    noteUse(ME->getMemberDecl(), ME->getMemberLoc(), Bases.count(ME) != 0, ME);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    // A function named other than as a callee (a callback, an ops table) has callers we
    // cannot see.
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()); FD && !CalleeRefs.count(DRE)) {
      // What a thread starts with, or a registration to run once (`early_initcall(fn)`), has
      // callers we cannot see, but only that one.
      std::string RunOnceMacro = runOnceMacroAt(DRE->getLocation());
      if (!RunOnceMacro.empty())
        Model.RegisteredToRunOnce.emplace(FD->getCanonicalDecl(),
                                          "'" + FD->getNameAsString() + "' runs once ('" + RunOnceMacro + "')");
      if (ThreadEntryRefs.count(DRE) || !RunOnceMacro.empty())
        Model.AddressTaken.insert(FD->getCanonicalDecl());
      else
        named(FD);
    }
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (VD && VD->hasGlobalStorage())
      noteUse(VD, DRE->getLocation(), Bases.count(DRE) != 0);
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isCompoundAssignmentOp()) {
      plainWrite(BO->getLHS(), true);
    } else if (BO->isAssignmentOp()) {
      const auto *Target = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
      const auto *Local = Target ? dyn_cast<VarDecl>(Target->getDecl()) : nullptr;
      if (Local && Current && Local->hasLocalStorage() && isAllocation(BO->getRHS()))
        Fresh.insert(Local);
      else
        escape(BO->getRHS());
      if (Local && Current && Local->hasLocalStorage())
        madeFrom(Local, BO->getRHS());
      plainWrite(BO->getLHS(), refersTo(BO->getRHS(), designated(BO->getLHS())));
    }
    return true;
  }

  // *p->ptr and p->ptr[i] reach what the pointer field points to, not the field: an API macro
  // around them works on the pointee.
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *ASE) {
    const Expr *Base = ASE->getBase()->IgnoreParenImpCasts();
    if (Base->getType()->isPointerType() && (isa<MemberExpr>(Base) || isa<DeclRefExpr>(Base)))
      Bases.insert(Base);
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() == UO_Deref) {
      const Expr *Sub = UO->getSubExpr()->IgnoreParenImpCasts();
      if (isa<MemberExpr>(Sub) || isa<DeclRefExpr>(Sub))
        Bases.insert(Sub);
    }
    if (UO->isIncrementDecrementOp())
      plainWrite(UO->getSubExpr(), true);
    return true;
  }

  bool VisitCXXNewExpr(CXXNewExpr *NE) {
    QualType T = NE->getAllocatedType();
    while (const ArrayType *AT = Model.Context.getAsArrayType(T))
      T = AT->getElementType();
    if (const RecordDecl *RD = T->getAsRecordDecl())
      Model.NewAllocated.insert(RD->getDefinition() ? RD->getDefinition() : RD);
    return true;
  }

private:
  /// A mention of D at Loc: what an API macro does to it when Loc is one of the
  /// macro's arguments, else a read by the current function.
  void noteUse(const ValueDecl *D, SourceLocation Loc, bool OnlyABase = false, const Expr *Access = nullptr) {
    const MacroArgUse *Use = OnlyABase ? nullptr : macroArgUse(Loc);
    if (Use && Use->AssertsHeld) {
      // lockdep_assert_held(&p->lock): what follows runs under the lock.
      if (Current && namedLock(D))
        Held.push_back(canonical(D));
      return;
    }
    if (Use)
      record(D, Use->Access, Use->Name, Use->Contends, Access);
    else if (Current)
      accessesOf(D, Access).Readers.insert(Current);
  }

  /// What an API macro does to the object written at Loc, when Loc is one of its
  /// arguments. A token that no macro expanded cannot be one: most are not, and
  /// they skip the scan.
  const MacroArgUse *macroArgUse(SourceLocation Loc) {
    if (!Loc.isMacroID())
      return nullptr;
    SourceLocation Spelled = SM.getSpellingLoc(Loc);
    if (Spelled.isInvalid())
      return nullptr;
    if (!ArgsIndexed)
      indexMacroArgs();
    // The first use in recording order whose range holds Spelled, as a scan of them all would
    // find; within one file, offsets compare without SourceManager's include-stack walk.
    size_t Best = Model.MacroArgs.size();
    auto [File, Offset] = SM.getDecomposedLoc(Spelled);
    if (auto It = ArgsByFile.find(File); It != ArgsByFile.end())
      for (const auto &[Begin, End, Index] : It->second)
        if (Begin <= Offset && Offset <= End) {
          Best = Index;
          break;
        }
    for (size_t Index : ArgsAcrossFiles) {
      if (Index >= Best)
        break;
      if (inRange(Spelled, Model.MacroArgs[Index].Range)) {
        Best = Index;
        break;
      }
    }
    return Best < Model.MacroArgs.size() ? &Model.MacroArgs[Best] : nullptr;
  }

  void indexMacroArgs() {
    ArgsIndexed = true;
    for (size_t I = 0; I < Model.MacroArgs.size(); ++I) {
      SourceRange R = Model.MacroArgs[I].Range;
      if (R.isInvalid())
        continue;
      auto [BeginFile, Begin] = SM.getDecomposedLoc(R.getBegin());
      auto [EndFile, End] = SM.getDecomposedLoc(R.getEnd());
      if (BeginFile == EndFile)
        ArgsByFile[BeginFile].push_back({Begin, End, I});
      else
        ArgsAcrossFiles.push_back(I);
    }
  }

  bool inRange(SourceLocation L, SourceRange R) const {
    return L.isValid() && R.isValid() && !SM.isBeforeInTranslationUnit(L, R.getBegin()) &&
           !SM.isBeforeInTranslationUnit(R.getEnd(), L);
  }

  void record(const ValueDecl *D, ApiNames::Access A, const std::string &Name) {
    record(D, A, Name, Contention::of(Model.Names, Name));
  }

  /// Name (a call, macro or method) does A to D, and makes it as contended as Contends says;
  /// Access, where known, is the expression it does it through.
  void record(const ValueDecl *D, ApiNames::Access A, const std::string &Name, Contention Contends,
              const Expr *Access = nullptr) {
    if (!D)
      return;
    ObjectUse &U = Model.Uses[canonical(D)];
    if (A == ApiNames::Access::LockUse && Current)
      trackHeld(D, Name);
    if (U.FirstApi.empty()) {
      U.FirstApi = Name;
      U.FirstApiIn = Current;
    }
    if (Contends.Word && !U.Contended) {
      U.Contended = true;
      U.ContendingApi = Name;
      U.ContendingApiIn = Current;
    }
    if (Contends.Link && !U.ContendedAsPointer) {
      U.ContendedAsPointer = true;
      U.PointerContendingApi = Name;
      U.PointerContendingApiIn = Current;
    }
    ObjectUse &Who = accessesOf(D, Access);
    switch (A) {
    case ApiNames::Access::AtomicRead:
      U.AtomicAccess = true;
      if (Current)
        Who.Readers.insert(Current);
      break;
    case ApiNames::Access::AtomicWrite:
      U.AtomicAccess = true;
      if (Current && !setOnce(Who, Access))
        write(Who, Access);
      break;
    case ApiNames::Access::TasWord:
      U.TasWord = true;
      [[fallthrough]];
    case ApiNames::Access::LockUse:
      U.LockUse = true;
      if (Current)
        (ownObject(Access) ? Who.ColdWriters : InRareBranch ? Who.RareWriters : Who.Writers).insert(Current);
      break;
    }
  }

  /// ReadModifyWrite: a[i]++, a[i] += n, a[i] = a[i] + n. Per-thread slots are
  /// counters updated in place; a buffer or ring filled as a[i] = v is not.
  void plainWrite(const Expr *LHS, bool ReadModifyWrite) {
    bool Subscripted = false, ConstantIndex = false;
    const Expr *Index = nullptr;
    const ValueDecl *D = designated(LHS, &Subscripted, &ConstantIndex, &Index);
    if (!D)
      return;
    ObjectUse &U = Model.Uses[canonical(D)];
    bool Hot = Current && write(accessesOf(D, LHS), LHS);
    // A loop that walks the slots (`for (i = 0; i < n; i++) sum[i] += x[i]`) is one thread
    // updating every slot, not a thread updating its own; nor is a write under a lock (one
    // writer at a time) or one that is not hot (write()). A word written whole through another
    // type (WRITE_ONCE's `*(volatile T *)&a[i] = ...`) is a table entry published to lockless
    // readers, not a thread's own counter.
    const auto *Deref = dyn_cast<UnaryOperator>(LHS->IgnoreParenImpCasts());
    bool WrittenWhole = Deref && Deref->getOpcode() == UO_Deref;
    // A slot per thread is picked by the thread: an index made from its identity
    // (smp_processor_id(), a thread-local), or from what a thread's function was handed.
    if (Hot && Subscripted && !ConstantIndex && ReadModifyWrite && !WrittenWhole && !(Index && walksLoop(Index)) &&
        Held.empty() && Index) {
      if (Origin Made = origin(Index); Made == Origin::Thread)
        U.SlotWriters.insert(Current);
      else if (Made == Origin::Argument)
        U.SlotWritersByArgument.insert(Current);
    }
  }

  /// What an index is made from: the running thread's identity (a `thread_id` operation, a
  /// thread-local variable, a local made from one), the current function's parameters (or a
  /// local made from them), or neither.
  enum class Origin { None, Argument, Thread };
  Origin origin(const Stmt *S) const {
    if (!S)
      return Origin::None;
    if (const auto *E = dyn_cast<Expr>(S); E && S->getBeginLoc().isMacroID() &&
                                           Model.ThreadIdExpansions.count(SM.getExpansionLoc(E->getBeginLoc())))
      return Origin::Thread;
    if (const auto *CE = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *Callee = CE->getDirectCallee())
        if (const ApiNames::Operation *Op = Model.Names.operation(Callee->getQualifiedNameAsString());
            Op && Op->Op == "thread_id")
          return Origin::Thread;
    if (const auto *R = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(R->getDecl())) {
        if (V->getTLSKind() != VarDecl::TLS_None)
          return Origin::Thread;
        if (auto It = Walk.MadeFrom.find(V); It != Walk.MadeFrom.end())
          return It->second;
        if (ownParameter(V))
          return Origin::Argument;
      }
    Origin Most = Origin::None;
    for (const Stmt *Child : S->children())
      Most = std::max(Most, origin(Child));
    return Most;
  }

  /// Local V now holds Value: it carries Value's origin (`int cpu = smp_processor_id();`,
  /// `struct worker *w = arg;`).
  void madeFrom(const VarDecl *V, const Expr *Value) {
    if (Origin Made = origin(Value); Made != Origin::None)
      Walk.MadeFrom[V] = std::max(Made, Walk.MadeFrom.count(V) ? Walk.MadeFrom.at(V) : Origin::None);
  }

  bool walksLoop(const Expr *Index) const {
    for (const VarDecl *V : LoopVariables)
      if (refersTo(Index, V))
        return true;
    return false;
  }

  void perCpu(QualType T) {
    if (const RecordDecl *RD = recordOf(T))
      Model.PerCpu.insert(RD);
  }

  /// The record (its definition) a variable of type T holds, through arrays.
  const RecordDecl *recordOf(QualType T) const {
    while (const ArrayType *AT = Model.Context.getAsArrayType(T))
      T = AT->getElementType();
    const RecordDecl *RD = T->getAsRecordDecl();
    return RD && RD->getDefinition() ? RD->getDefinition() : RD;
  }

  /// A write by the current function to what Access reaches: cold while the function still
  /// owns the object alone, rare on a branch the code does not expect; else hot, under the
  /// locks it holds now. Whether it was hot.
  bool write(ObjectUse &Who, const Expr *Access) {
    if (ownObject(Access)) {
      Who.ColdWriters.insert(Current);
      return false;
    }
    if (InRareBranch) {
      Who.RareWriters.insert(Current);
      return false;
    }
    Who.Writers.insert(Current);
    keepHeld(Who.WriterLocks.try_emplace(Current, heldNow()));
    return true;
  }

  /// A compare-and-swap from NULL (the macro's, or whatever it expands to) sets the word once: a
  /// cold write. A writer that resets the word is what keeps it hot.
  bool setOnce(ObjectUse &Who, const Expr *Access) {
    const MacroArgUse *Cas = Access ? macroArgUse(Access->getExprLoc()) : nullptr;
    if (!Cas || !Cas->SetsFromNull)
      return false;
    Who.ColdWriters.insert(Current);
    Who.ColdWhy.emplace(Current, "'" + Current->getNameAsString() + "' sets it once, from NULL ('" + Cas->Name + "')");
    return true;
  }

  std::set<const ValueDecl *> heldNow() const { return {Held.begin(), Held.end()}; }

  /// Keeps, of the locks an entry already had, those held now (a new entry has just them).
  template <class Emplaced> void keepHeld(Emplaced Result) {
    auto [It, New] = Result;
    if (New)
      return;
    for (auto L = It->second.begin(); L != It->second.end();)
      L = std::find(Held.begin(), Held.end(), *L) == Held.end() ? It->second.erase(L) : std::next(L);
  }

  /// Name takes or releases the lock D. Locks are followed in the order the code is written:
  /// an unlock on an early exit (`if (err) { unlock(l); return; }`) does not end the section
  /// the code after it runs in. Only named locks (a field, a global) can be told apart.
  void trackHeld(const ValueDecl *D, const std::string &Name) {
    D = canonical(D);
    const ApiNames::Operation *Op = Model.Names.operation(Name);
    if (!Op)
      return;
    // The lock a parameter points to (`static void mutex_lock(pthread_mutex_t *m)` around
    // pthread_mutex_lock): the function is a wrapper that takes or releases its argument.
    if (const ParmVarDecl *Param = ownParameter(D)) {
      if (ApiNames::acquiresLock(*Op) || ApiNames::releasesLock(*Op))
        holdsArgument(Param, ApiNames::acquiresLock(*Op));
      return;
    }
    if (!namedLock(D))
      return;
    if (ApiNames::acquiresLock(*Op)) {
      Held.push_back(D);
    } else if (ApiNames::releasesLock(*Op)) {
      if (!release(D))
        ReleasedUnheld.insert(D);
    }
  }

  /// A lock wrapper called here takes (Takes) or releases the lock L: a named lock's section
  /// starts or ends; this function's own parameter makes it a wrapper of its argument too.
  void wrapperHolds(const ValueDecl *L, bool Takes) {
    if (isa<ParmVarDecl>(L)) {
      if (const ParmVarDecl *Param = ownParameter(L))
        holdsArgument(Param, Takes);
      return;
    }
    if (Takes)
      Held.push_back(L);
    else
      release(L);
  }

  /// The current function takes (Takes) or releases the lock its parameter Param points to.
  void holdsArgument(const ParmVarDecl *Param, bool Takes) {
    unsigned Index = Param->getFunctionScopeIndex();
    if (Takes)
      Walk.HeldArguments.insert(Index);
    else if (!Walk.HeldArguments.erase(Index))
      Walk.ReleasedArguments.insert(Index);
  }

  /// D as a parameter of the current function, or null.
  const ParmVarDecl *ownParameter(const ValueDecl *D) const {
    const auto *Param = dyn_cast<ParmVarDecl>(D);
    return Param && Current && Param->getDeclContext() == Current ? Param : nullptr;
  }

  /// The member named Member of the record E points to (or is), if it has one.
  static const FieldDecl *memberOfPointee(const Expr *E, const std::string &Member) {
    QualType T = E->IgnoreParenImpCasts()->getType();
    if (T->isPointerType())
      T = T->getPointeeType();
    const RecordDecl *RD = T->getAsRecordDecl();
    RD = RD ? RD->getDefinition() : nullptr;
    if (!RD)
      return nullptr;
    for (const FieldDecl *F : RD->fields())
      if (F->getDeclName().isIdentifier() && F->getName() == Member)
        return F;
    return nullptr;
  }

  /// A lock that can be told apart from others: a field (by declaration) or a global, not a
  /// parameter or a local.
  static bool namedLock(const ValueDecl *D) {
    const auto *Var = dyn_cast<VarDecl>(D);
    return isa<FieldDecl>(D) || (Var && Var->hasGlobalStorage());
  }

  /// Ends the section of the lock D, unless on an early exit; false when D was not held.
  bool release(const ValueDecl *D) {
    for (auto It = Held.rbegin(); It != Held.rend(); ++It)
      if (*It == D) {
        if (!InExit)
          Held.erase(std::next(It).base());
        return true;
      }
    return false;
  }

public:
  /// The variables for loops step (`i` of `for (...; ...; i++)`), while their bodies run.
  bool TraverseForStmt(ForStmt *FS) {
    const VarDecl *Stepped = nullptr;
    if (const Expr *Inc = FS->getInc()) {
      Inc = Inc->IgnoreParenImpCasts();
      const Expr *Target = nullptr;
      if (const auto *U = dyn_cast<UnaryOperator>(Inc); U && U->isIncrementDecrementOp())
        Target = U->getSubExpr();
      else if (const auto *B = dyn_cast<BinaryOperator>(Inc); B && B->isAssignmentOp())
        Target = B->getLHS();
      if (const auto *R = Target ? dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts()) : nullptr)
        Stepped = dyn_cast<VarDecl>(R->getDecl());
    }
    if (Stepped)
      LoopVariables.push_back(Stepped);
    bool Result = inLoop([&] { return Base::TraverseForStmt(FS); });
    if (Stepped)
      LoopVariables.pop_back();
    return Result;
  }
  bool TraverseWhileStmt(WhileStmt *WS) { return inLoop([&] { return Base::TraverseWhileStmt(WS); }); }
  bool TraverseDoStmt(DoStmt *DS) { return inLoop([&] { return Base::TraverseDoStmt(DS); }); }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt *FS) {
    return inLoop([&] { return Base::TraverseCXXForRangeStmt(FS); });
  }
  /// Runs Traverse one loop deeper: what it visits may run more than once per call.
  template <class Fn> bool inLoop(Fn Traverse) {
    ++Walk.LoopDepth;
    bool Result = Traverse();
    --Walk.LoopDepth;
    return Result;
  }

  /// `std::thread t(worker, arg)`: a thread-creation constructor (the specs' `op: thread_create`
  /// on the class's constructor name).
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    if (!Ctor || CE->getNumArgs() == 0)
      return true;
    const ApiNames::Operation *Op =
        Model.Names.methodOperation(SyncModel::className(Ctor->getParent()), Ctor->getNameAsString());
    if (Op && Op->Op == "thread_create")
      startsThread(CE->getBeginLoc(), llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()));
    return true;
  }

  /// A `goto` back to an earlier label loops: what the function calls may run more than once.
  bool VisitGotoStmt(GotoStmt *GS) {
    if (const LabelStmt *Target = GS->getLabel()->getStmt();
        Current && Target && SM.isBeforeInTranslationUnit(Target->getBeginLoc(), GS->getBeginLoc()))
      Walk.LoopsBack = true;
    return true;
  }

  /// Marks the calls of a nested block that an exit follows (`unlock(l); return;`).
  bool VisitCompoundStmt(CompoundStmt *CS) {
    if (!Current || CS == Current->getBody())
      return true;
    const Stmt *Previous = nullptr;
    for (const Stmt *S : CS->body()) {
      if (Previous && (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<BreakStmt>(S) || isa<ContinueStmt>(S)) &&
          (isa<CallExpr>(Previous) || isa<DoStmt>(Previous)))
        ExitingStmts.insert(Previous);
      Previous = S;
    }
    return true;
  }
  /// Marks the branch an `if` says it does not expect (`if (unlikely(err)) { ... }`, the else
  /// of `if (likely(ok))`): writes only it makes run rarely.
  bool VisitIfStmt(IfStmt *IS) {
    if (std::optional<bool> Expected = expectedTruth(IS->getCond()))
      if (const Stmt *Rare = *Expected ? IS->getElse() : IS->getThen())
        RareStmts.insert(Rare);
    return true;
  }
  bool dataTraverseStmtPre(Stmt *S) {
    if (ExitingStmts.count(S))
      ++InExit;
    if (RareStmts.count(S))
      ++InRareBranch;
    return true;
  }
  bool dataTraverseStmtPost(Stmt *S) {
    if (ExitingStmts.count(S))
      --InExit;
    if (RareStmts.count(S))
      --InRareBranch;
    return true;
  }

private:
  /// The value a condition is expected to have, where the code says (a call of a `branch_expect`
  /// operation, `__builtin_expect(!!(x), 0)`, through `!` and as the value of a statement
  /// expression: the kernel's WARN_ON).
  std::optional<bool> expectedTruth(const Expr *Cond) const {
    bool Negated = false;
    const Expr *E = Cond ? Cond->IgnoreParenImpCasts() : nullptr;
    while (E) {
      if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_LNot) {
        Negated = !Negated;
        E = U->getSubExpr()->IgnoreParenImpCasts();
      } else if (const auto *SE = dyn_cast<StmtExpr>(E); SE && !SE->getSubStmt()->body_empty()) {
        E = dyn_cast<Expr>(SE->getSubStmt()->body_back());
        E = E ? E->IgnoreParenImpCasts() : nullptr;
      } else {
        break;
      }
    }
    const auto *CE = dyn_cast_or_null<CallExpr>(E);
    const FunctionDecl *Callee = CE ? CE->getDirectCallee() : nullptr;
    if (!Callee || CE->getNumArgs() < 2)
      return std::nullopt;
    const ApiNames::Operation *Op = Model.Names.operation(Callee->getNameAsString());
    Expr::EvalResult Value;
    if (!Op || Op->Op != "branch_expect" || CE->getArg(1)->isValueDependent() ||
        !CE->getArg(1)->EvaluateAsInt(Value, Model.Context))
      return std::nullopt;
    return (Value.Val.getInt() != 0) != Negated;
  }

  /// Where the functions that access D through Access are recorded: the uses of the field
  /// itself, or, for an access through embedded members (rw->rcu.func, rdp->barrier_head.func),
  /// the uses of that path from the outermost record, so that writing one container's rcu_head
  /// is not writing every rcu_head.
  ObjectUse &accessesOf(const ValueDecl *D, const Expr *Access) {
    if (Access) {
      std::vector<const FieldDecl *> Chain = SyncModel::embeddedPath(Access);
      if (Chain.size() >= 2 && Chain.back() == D)
        return Model.PathUses[Chain];
    }
    return Model.Uses[canonical(D)];
  }

  static bool refersTo(const Stmt *S, const ValueDecl *D) {
    if (!S || !D)
      return false;
    if (const auto *ME = dyn_cast<MemberExpr>(S); ME && ME->getMemberDecl() == D)
      return true;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == D)
      return true;
    for (const Stmt *Child : S->children())
      if (refersTo(Child, D))
        return true;
    return false;
  }

  using Base = RecursiveASTVisitor<UsageVisitor>;

  /// Runs Traverse with FD as the current function, and its own set of fresh objects.
  template <class Fn> bool inFunction(const FunctionDecl *FD, Fn Traverse) {
    const FunctionDecl *Saved = Current;
    std::set<const VarDecl *> SavedFresh;
    std::vector<const ValueDecl *> SavedHeld;
    std::set<const ValueDecl *> SavedReleased;
    SavedFresh.swap(Fresh);
    SavedHeld.swap(Held);
    SavedReleased.swap(ReleasedUnheld);
    FunctionWalk SavedWalk;
    std::swap(SavedWalk, Walk);
    Current = FD;
    bool Result = Traverse();
    // A function that returns holding a lock, or releases one it did not take, is a lock
    // wrapper for the calls after it (an API's own body, spin_lock's, is not: its callers
    // name the lock they take).
    if (FD && FD->doesThisDeclarationHaveABody() && !Model.Names.operation(FD->getNameAsString())) {
      if (!Held.empty())
        TakenOnReturn[FD->getCanonicalDecl()].assign(Held.begin(), Held.end());
      if (!ReleasedUnheld.empty())
        ReleasedOnReturn[FD->getCanonicalDecl()] = ReleasedUnheld;
      if (!Walk.HeldArguments.empty())
        TakesArgument[FD->getCanonicalDecl()] = Walk.HeldArguments;
      if (!Walk.ReleasedArguments.empty())
        ReleasesArgument[FD->getCanonicalDecl()] = Walk.ReleasedArguments;
    }
    if (Walk.LoopsBack && FD) {
      for (const FunctionDecl *Callee : Walk.CalledHere)
        Model.RepeatedCalls.insert({Callee, FD});
      for (size_t Start : Walk.StartsHere)
        Model.ThreadStarts[Start].InLoop = true;
    }
    Walk = std::move(SavedWalk);
    Current = Saved;
    Fresh.swap(SavedFresh);
    Held.swap(SavedHeld);
    ReleasedUnheld.swap(SavedReleased);
    return Result;
  }

  /// FD is named other than in a call (an ops table, a callback, a cleanup attribute): it has
  /// callers we cannot see.
  void named(const FunctionDecl *FD) {
    Model.AddressTaken.insert(FD->getCanonicalDecl());
    Model.NamedApartFromThreadStarts.insert(FD->getCanonicalDecl());
  }

  /// A thread-creation call at Loc: the first argument naming a function (`&worker`, `worker`,
  /// a lambda) is what the new thread runs.
  void startsThread(SourceLocation Loc, llvm::ArrayRef<const Expr *> Args) {
    for (const Expr *Arg : Args) {
      const Expr *E = Arg;
      while (true) {
        E = E->IgnoreImplicit()->IgnoreParenCasts();
        if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
          E = U->getSubExpr();
        else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
          E = M->getSubExpr();
        else
          break;
      }
      const FunctionDecl *Entry = nullptr;
      if (const auto *R = dyn_cast<DeclRefExpr>(E)) {
        if ((Entry = dyn_cast<FunctionDecl>(R->getDecl())))
          ThreadEntryRefs.insert(R);
      } else if (const auto *L = dyn_cast<LambdaExpr>(E)) {
        Entry = L->getCallOperator();
      }
      if (Entry) {
        Walk.StartsHere.push_back(Model.ThreadStarts.size());
        Model.ThreadStarts.push_back({Entry->getCanonicalDecl(), Current, Loc, Walk.LoopDepth != 0});
        return;
      }
    }
  }

  /// The macro registering a function to run once (`early_initcall`) whose argument Loc is
  /// spelled in, or "".
  std::string runOnceMacroAt(SourceLocation Loc) const {
    if (!Loc.isMacroID() || Model.RunOnceArgs.empty())
      return "";
    SourceLocation Spelled = SM.getSpellingLoc(Loc);
    for (const auto &[Range, Macro] : Model.RunOnceArgs)
      if (Spelled == Range.getBegin())
        return Macro;
    return "";
  }

  /// A call of an allocator (the specs' `allocate` operation: malloc, kzalloc, rte_zmalloc) or
  /// a new-expression, through casts.
  bool isAllocation(const Expr *E) const {
    E = E->IgnoreParenCasts();
    if (isa<CXXNewExpr>(E))
      return true;
    const auto *CE = dyn_cast<CallExpr>(E);
    const FunctionDecl *Callee = CE ? CE->getDirectCallee() : nullptr;
    const ApiNames::Operation *Op = Callee ? Model.Names.operation(Callee->getNameAsString()) : nullptr;
    return Op && Op->Op == "allocate";
  }

  /// The variable an access goes through: p in p->a.b, s in s.lock, a in a[i].
  static const VarDecl *rootVariable(const Expr *E) {
    while (E) {
      E = E->IgnoreParenCasts();
      if (const auto *M = dyn_cast<MemberExpr>(E))
        E = M->getBase();
      else if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
        E = A->getBase();
      else if (const auto *U = dyn_cast<UnaryOperator>(E);
               U && (U->getOpcode() == UO_AddrOf || U->getOpcode() == UO_Deref))
        E = U->getSubExpr();
      else if (const auto *R = dyn_cast<DeclRefExpr>(E))
        return dyn_cast<VarDecl>(R->getDecl());
      else
        return nullptr;
    }
    return nullptr;
  }

  /// Whether an access through E writes an object the current function still owns alone.
  bool ownObject(const Expr *E) const {
    const VarDecl *V = E ? rootVariable(E) : nullptr;
    return V && Fresh.count(V);
  }

  /// `&p->member` (through casts): the address of a part of an object, not of the object.
  static bool addressOfMember(const Expr *E) {
    const auto *U = dyn_cast<UnaryOperator>(E->IgnoreParenCasts());
    return U && U->getOpcode() == UO_AddrOf && isa<MemberExpr>(U->getSubExpr()->IgnoreParenImpCasts());
  }

  /// E's value leaves the function: a fresh object it names (p, &p->node, &s) may be shared.
  void escape(const Expr *E) {
    if (!E || Fresh.empty())
      return;
    E = E->IgnoreParenCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf) {
      if (const VarDecl *V = rootVariable(U->getSubExpr()))
        Fresh.erase(V);
    } else if (const auto *R = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *V = dyn_cast<VarDecl>(R->getDecl()))
        Fresh.erase(V);
    } else if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
      escape(C->getTrueExpr());
      escape(C->getFalseExpr());
    }
  }

  SyncModel &Model;
  SourceManager &SM;
  // Model.MacroArgs by the file their range is spelled in: (begin, end, index), in order.
  bool ArgsIndexed = false;
  llvm::DenseMap<FileID, std::vector<std::tuple<unsigned, unsigned, size_t>>> ArgsByFile;
  std::vector<size_t> ArgsAcrossFiles;
  const FunctionDecl *Current = nullptr;
  std::set<const VarDecl *> Fresh; // allocated or declared here, not yet handed on
  std::vector<const ValueDecl *> Held; // locks the current function holds here, in taking order
  llvm::DenseSet<const Stmt *> ExitingStmts; // calls an exit follows (trackHeld)
  unsigned InExit = 0;
  llvm::DenseSet<const Stmt *> RareStmts; // branches an `if` says it does not expect
  unsigned InRareBranch = 0;
  std::vector<const VarDecl *> LoopVariables; // of the for loops around the current statement
  std::set<const ValueDecl *> ReleasedUnheld; // locks the current function releases without taking
  /// Lock wrappers: functions that return holding locks, or having released locks they did not
  /// take, by canonical declaration.
  std::map<const FunctionDecl *, std::vector<const ValueDecl *>> TakenOnReturn;
  std::map<const FunctionDecl *, std::set<const ValueDecl *>> ReleasedOnReturn;
  /// Wrappers of the lock they are handed: the parameters (by index) a function returns holding,
  /// or releases without taking; and the current function's so far.
  std::map<const FunctionDecl *, std::set<unsigned>> TakesArgument, ReleasesArgument;
  /// What the walk knows of the current function alone, set aside around a function inside it
  /// (a lambda's body).
  struct FunctionWalk {
    unsigned LoopDepth = 0; // loops around the current statement
    /// The parameters whose lock it holds, or has released without taking, so far.
    std::set<unsigned> HeldArguments, ReleasedArguments;
    /// Its calls and thread starts (indices into Model.ThreadStarts), and whether a `goto`
    /// jumps back in it: then each may run more than once.
    std::vector<const FunctionDecl *> CalledHere;
    std::vector<size_t> StartsHere;
    bool LoopsBack = false;
    std::map<const VarDecl *, Origin> MadeFrom; // locals holding a thread's identity or an argument
  } Walk;
  llvm::DenseSet<const Expr *> CalleeRefs; // function names in callee position
  llvm::DenseSet<const Expr *> ThreadEntryRefs; // function names a thread is started with
  std::map<std::pair<const FunctionDecl *, const FunctionDecl *>, unsigned> CallSites; // (callee, caller)
  /// Expressions seen as the base of a member access: an API macro around the access works on
  /// the member, not on them.
  llvm::DenseSet<const Expr *> Bases;
};

SyncModel::SyncModel(const ApiNames &Names, ASTContext &Context) : Names(Names), Context(Context) {}

std::unique_ptr<PPCallbacks> SyncModel::macroRecorder(Preprocessor &PP) {
  return std::make_unique<MacroRecorder>(Names, PP, MacroArgs, RunOnceArgs, ThreadIdExpansions);
}

void SyncModel::collect() {
  UsageVisitor(*this).TraverseDecl(Context.getTranslationUnitDecl());
  // An index made from a thread function's argument picks that thread's slot.
  std::set<const FunctionDecl *> Entries;
  for (const ThreadStart &Start : ThreadStarts)
    Entries.insert(Start.Entry);
  for (auto &[D, U] : Uses)
    for (const FunctionDecl *F : U.SlotWritersByArgument)
      if (Entries.count(F->getCanonicalDecl()))
        U.SlotWriters.insert(F);
  classifyColdFunctions();
  inheritCallersLocks();
  auto Cool = [&](ObjectUse &U) {
    for (const FunctionDecl *F : U.RareWriters)
      if (!U.Writers.count(F) && U.ColdWriters.insert(F).second)
        U.ColdWhy.emplace(F, "'" + F->getNameAsString() + "' writes it only on a branch the code marks unexpected");
    for (auto It = U.Writers.begin(); It != U.Writers.end();)
      if (Cold.count(*It)) {
        U.ColdWriters.insert(*It);
        It = U.Writers.erase(It);
      } else {
        ++It;
      }
  };
  for (auto &[D, U] : Uses)
    Cool(U);
  for (auto &[Chain, U] : PathUses) {
    Cool(U);
    PathsByLeaf[Chain.back()].push_back(&Chain);
  }
}

bool SyncModel::isInitialiser(const FunctionDecl *FD, const ApiNames &Names) {
  if (isa<CXXConstructorDecl>(FD))
    return true;
  std::string Name = FD->getNameAsString();
  if (const ApiNames::Operation *Op = Names.operation(Name))
    return Op->Op == "lock_init" || Op->Op == "atomic_init";
  llvm::StringRef N(Name);
  return N == "init" || N.ends_with("_init") || N.starts_with("init_") || N.contains("_init_");
}

void SyncModel::inheritCallersLocks() {
  // Locks every caller holds at every call of a static function whose callers are all seen:
  // the locks its calls hold, and those every caller itself inherits.
  std::map<const FunctionDecl *, std::set<const ValueDecl *>> Entry;
  auto Inherits = [&](const FunctionDecl *FD) {
    return !FD->isExternallyVisible() && !AddressTaken.count(FD) && Callers.count(FD) && !Callers.at(FD).count(FD);
  };
  for (const auto &[FD, Locks] : CallLocks)
    if (Inherits(FD))
      Entry[FD] = Locks;
  for (int Round = 0; Round < 8; ++Round) {
    bool Changed = false;
    for (auto &[FD, Locks] : Entry) {
      std::optional<std::set<const ValueDecl *>> FromCallers;
      for (const FunctionDecl *Caller : Callers.at(FD)) {
        auto It = Entry.find(Caller->getCanonicalDecl());
        std::set<const ValueDecl *> Theirs = It == Entry.end() ? std::set<const ValueDecl *>() : It->second;
        if (!FromCallers)
          FromCallers = std::move(Theirs);
        else
          keepCommon(*FromCallers, Theirs);
      }
      if (FromCallers)
        for (const ValueDecl *L : *FromCallers)
          Changed |= Locks.insert(L).second;
    }
    if (!Changed)
      break;
  }
  auto Add = [&](ObjectUse &U) {
    for (auto &[Writer, Locks] : U.WriterLocks)
      if (auto It = Entry.find(Writer->getCanonicalDecl()); It != Entry.end())
        Locks.insert(It->second.begin(), It->second.end());
  };
  for (auto &[D, U] : Uses)
    Add(U);
  for (auto &[Chain, U] : PathUses)
    Add(U);
  for (auto &[FD, Locks] : Entry)
    if (!Locks.empty())
      CallersLocks[FD] = std::move(Locks);
}

bool SyncModel::inheritsCallersLock(const FunctionDecl *FD) const {
  return CallersLocks.count(FD->getCanonicalDecl()) != 0;
}

std::string SyncModel::coldFunction(const FunctionDecl *FD) const {
  auto It = Cold.find(FD);
  return It == Cold.end() ? "" : It->second;
}

std::string SyncModel::runsOnce(const FunctionDecl *FD) const {
  if (!FD)
    return "";
  if (auto It = RegisteredToRunOnce.find(FD->getCanonicalDecl()); It != RegisteredToRunOnce.end())
    return It->second;
  if (FD->isMain())
    return "'" + FD->getNameAsString() + "' runs once";
  if (const FunctionDecl *Def = FD->getDefinition(); Def && Def->hasAttr<ConstructorAttr>())
    return "'" + FD->getNameAsString() + "' runs once, before main";
  return "";
}

void SyncModel::classifyColdFunctions() {
  std::set<const FunctionDecl *> Functions;
  for (const auto &[D, U] : Uses) {
    Functions.insert(U.Writers.begin(), U.Writers.end());
    Functions.insert(U.Readers.begin(), U.Readers.end());
  }
  for (const auto &[Chain, U] : PathUses) {
    Functions.insert(U.Writers.begin(), U.Writers.end());
    Functions.insert(U.Readers.begin(), U.Readers.end());
  }
  for (const auto &[Callee, Set] : Callers)
    Functions.insert(Set.begin(), Set.end());
  // Rare: the rule says when the function runs (boot, configuration, registration), so its
  // callees in any file run only then; the others say only that it writes an object of its
  // own (an initialiser, a clone), which may happen on every request.
  auto Own = [&](const FunctionDecl *FD, bool &Rare) -> std::string {
    Rare = true;
    std::string Name = "'" + FD->getNameAsString() + "'";
    if (const auto *Section = FD->getAttr<SectionAttr>())
      if (Names.section(Section->getName().str()) == ApiNames::Section::Init)
        return Name + " runs at boot or unload (section '" + Section->getName().str() + "')";
    if (std::optional<std::string> Dialect = Names.configurationEntry(FD->getNameAsString()))
      return Name + " runs when a setting changes (a configuration entry point in the " + *Dialect + " spec)";
    if (std::optional<std::string> Dialect = Names.registrationEntry(FD->getNameAsString()))
      return Name + " registers or unregisters (a registration entry point in the " + *Dialect + " spec)";
    if (FD->hasAttr<ConstructorAttr>() || FD->hasAttr<DestructorAttr>())
      return Name + " runs before main or after exit";
    if (FD->hasAttr<ColdAttr>())
      return Name + " is marked cold (attribute 'cold')";
    // Constructors and operators have no identifier: none of these names applies to them.
    llvm::StringRef N = FD->getDeclName().isIdentifier() ? FD->getName() : "";
    if (N.contains("register"))
      return Name + " registers or unregisters";
    Rare = false;
    if (isa<CXXDestructorDecl>(FD))
      return Name + " is a destructor";
    if (isInitialiser(FD, Names))
      return Name + " is an initialiser";
    if (const ApiNames::Operation *Op = Names.operation(FD->getNameAsString()); Op && Op->Op == "retire")
      return Name + " retires its object (nobody writes it after)";
    if (N.ends_with("_destroy") || N.ends_with("_fini") || N.ends_with("_cleanup") || N == "destroy" || N == "fini")
      return Name + " tears down";
    // A clone is a new object, written before it is handed on (sk_clone_lock, skb_clone).
    if (N.contains("_clone") || N.starts_with("clone_"))
      return Name + " creates a copy";
    return "";
  };
  for (const FunctionDecl *FD : Functions) {
    bool Rare = false;
    if (std::string Why = Own(FD, Rare); !Why.empty()) {
      Cold[FD] = Why;
      if (Rare)
        RunsRarely.insert(FD);
    }
  }
  // A static function called only from those runs only then.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const FunctionDecl *FD : Functions) {
      if (Cold.count(FD) || FD->isExternallyVisible() || AddressTaken.count(FD->getCanonicalDecl()))
        continue;
      auto CallersOf = Callers.find(FD->getCanonicalDecl());
      if (CallersOf == Callers.end() || CallersOf->second.empty() || CallersOf->second.count(FD))
        continue;
      const FunctionDecl *Caller = *CallersOf->second.begin();
      if (std::all_of(CallersOf->second.begin(), CallersOf->second.end(),
                      [&](const FunctionDecl *C) { return Cold.count(C) != 0; })) {
        Cold[FD] = "'" + FD->getNameAsString() + "' is called only from '" + Caller->getNameAsString() + "'";
        Changed = true;
      }
    }
  }
}

std::vector<std::string> SyncModel::typeNames(QualType T) {
  std::vector<std::string> Names;
  QualType Cur = T;
  while (true) {
    if (const auto *TT = Cur->getAs<TypedefType>())
      Names.push_back(TT->getDecl()->getQualifiedNameAsString());
    const Type *Ty = Cur.getTypePtr();
    if (const auto *TT = dyn_cast<TypedefType>(Ty)) {
      Cur = TT->getDecl()->getUnderlyingType();
      continue;
    }
    if (const auto *ET = dyn_cast<ElaboratedType>(Ty)) {
      Cur = ET->getNamedType();
      continue;
    }
    break;
  }
  if (const auto *RT = T->getAs<RecordType>()) {
    const RecordDecl *RD = RT->getDecl();
    if (const auto *CRD = dyn_cast<CXXRecordDecl>(RD))
      Names.push_back(className(CRD));
    else
      Names.push_back(RD->getNameAsString());
  }
  return Names;
}

SyncKind SyncModel::kindOfType(QualType T) const {
  if (T.isNull())
    return SyncKind::None;
  if (T->isAtomicType() && Names.atomicQualifier())
    return SyncKind::Atomic;
  for (const std::string &N : typeNames(T))
    if (std::optional<ApiNames::TypeRole> Role = Names.typeRole(N))
      return *Role == ApiNames::TypeRole::Lock ? SyncKind::Lock : SyncKind::Atomic;
  return SyncKind::None;
}

SyncKind SyncModel::kindOf(const ValueDecl *D) const {
  QualType T = D->getType();
  while (const ArrayType *AT = Context.getAsArrayType(T))
    T = AT->getElementType();
  if (SyncKind K = kindOfType(T); K != SyncKind::None)
    return K;
  if (const ObjectUse *U = use(D)) {
    if (U->LockUse || U->TasWord)
      return SyncKind::Lock;
    // A link of a list or tree read and written whole for lockless readers
    // (WRITE_ONCE(prev->next, n)) or published (rcu_assign_pointer, smp_store_release):
    // nobody contends for it unless an RMW or a poll does.
    if (U->AtomicAccess && (!isLink(D) || U->ContendedAsPointer))
      return SyncKind::Atomic;
  }
  return SyncKind::None;
}

Contention Contention::of(const ApiNames &Names, const std::string &CalleeOrMacro) {
  const ApiNames::Operation *Op = Names.operation(CalleeOrMacro);
  if (!Op)
    return {};
  return {ApiNames::contends(*Op), ApiNames::contends(*Op, /*OnPointer=*/true)};
}

bool SyncModel::isLink(const ValueDecl *D) {
  const auto *Field = dyn_cast<FieldDecl>(D);
  if (!Field)
    return false;
  QualType T = D->getType();
  if (!T->isPointerType())
    return false;
  while (T->isPointerType())
    T = T->getPointeeType();
  const RecordDecl *Pointee = T->getAsRecordDecl();
  if (!Pointee)
    return false;
  if (Pointee->getCanonicalDecl() == Field->getParent()->getCanonicalDecl())
    return true;
  // The head of a chain of pure link nodes (hlist_head.first -> hlist_node, rb_root.rb_node,
  // llist_head.first): container code, as the nodes' own links are.
  const RecordDecl *Node = Pointee->getDefinition();
  if (!Node)
    return false;
  bool AnyLink = false;
  for (const FieldDecl *F : Node->fields()) {
    QualType FT = F->getType();
    if (!FT->isPointerType())
      continue;
    while (FT->isPointerType())
      FT = FT->getPointeeType();
    const RecordDecl *To = FT->getAsRecordDecl();
    if (!To || To->getCanonicalDecl() != Node->getCanonicalDecl())
      return false; // a node that points elsewhere carries data: not a pure link
    AnyLink = true;
  }
  return AnyLink;
}

std::vector<const FieldDecl *> SyncModel::embeddedPath(const Expr *E) {
  std::vector<const FieldDecl *> Chain;
  while (E) {
    E = E->IgnoreParenCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && (U->getOpcode() == UO_AddrOf || U->getOpcode() == UO_Deref))
      E = U->getSubExpr();
    else
      break;
  }
  const auto *ME = E ? dyn_cast<MemberExpr>(E) : nullptr;
  while (ME) {
    const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!F)
      break;
    Chain.insert(Chain.begin(), F);
    if (ME->isArrow())
      break; // through a pointer: another object, whose record starts the path
    ME = dyn_cast<MemberExpr>(ME->getBase()->IgnoreParenImpCasts());
  }
  return Chain;
}

void SyncModel::forEachPathEndingWith(const std::vector<const FieldDecl *> &Suffix,
                                      const std::function<void(const ObjectUse &)> &Fn) const {
  if (Suffix.empty())
    return;
  auto It = PathsByLeaf.find(Suffix.back());
  if (It == PathsByLeaf.end())
    return;
  for (const std::vector<const FieldDecl *> *Chain : It->second)
    if (Chain->size() >= Suffix.size() && std::equal(Suffix.rbegin(), Suffix.rend(), Chain->rbegin()))
      Fn(PathUses.at(*Chain));
}

const ObjectUse *SyncModel::use(const ValueDecl *D) const {
  auto It = Uses.find(canonical(D));
  return It == Uses.end() ? nullptr : &It->second;
}

std::vector<SyncObject> SyncModel::flatten(const RecordDecl *R, bool Candidates) const {
  std::vector<SyncObject> Out;
  std::vector<const FieldDecl *> Containers;
  if (R && R->getDefinition() && !R->isInvalidDecl() && !R->isDependentType())
    flattenInto(R->getDefinition(), 0, "", Containers, Candidates, Out);
  return Out;
}

void SyncModel::flattenInto(const RecordDecl *R, uint64_t Base, const std::string &Prefix,
                            std::vector<const FieldDecl *> &Containers, bool Candidates,
                            std::vector<SyncObject> &Out) const {
  if (Containers.size() > 8)
    return;
  const ASTRecordLayout &Layout = Context.getASTRecordLayout(R);
  for (const FieldDecl *F : R->fields()) {
    if (F->isBitField() || F->getType()->isIncompleteType() || F->getType()->isDependentType())
      continue;
    uint64_t Offset = Base + Context.toCharUnitsFromBits(Layout.getFieldOffset(F->getFieldIndex())).getQuantity();
    const FieldDecl *Owner = Containers.empty() ? F : Containers.front();
    std::string Path = Prefix.empty() ? F->getNameAsString() : Prefix + "." + F->getNameAsString();
    SyncKind K = kindOf(F);
    const ObjectUse *U = Candidates && K == SyncKind::None ? use(F) : nullptr;
    if (K != SyncKind::None || (U && U->AtomicAccess && isLink(F))) {
      Out.push_back({Owner, F, Path, Offset, (uint64_t)Context.getTypeSizeInChars(F->getType()).getQuantity(), K,
                     accessUnit(F->getType()), Containers});
      continue;
    }
    // A retirement record (rcu_head) is written only when its object is retired: nothing in
    // it contends with the live object's fields.
    if (retirementRecord(F->getType()))
      continue;
    // Enter nested records (not arrays of them: an array is one object for the layout checks).
    if (const RecordDecl *Inner = F->getType()->getAsRecordDecl())
      if (Inner->getDefinition()) {
        Containers.push_back(F);
        flattenInto(Inner->getDefinition(), Offset, Path, Containers, Candidates, Out);
        Containers.pop_back();
      }
  }
}

bool SyncModel::retirementRecord(QualType T) const {
  if (!T->isRecordType())
    return false;
  for (const std::string &N : typeNames(T))
    if (const ApiNames::Operation *Op = Names.operation(N); Op && Op->Op == "retire")
      return true;
  return false;
}

uint64_t SyncModel::accessUnit(QualType T) const {
  while (const ArrayType *AT = Context.getAsArrayType(T))
    T = AT->getElementType();
  // A record (a ticket lock, an rwlock of two counters) is accessed a word at a
  // time, or whole when the author aligned it for a double-width CAS: either
  // way its alignment bounds what one access can touch.
  if (T->isRecordType())
    return Context.getTypeAlignInChars(T).getQuantity();
  return Context.getTypeSizeInChars(T).getQuantity();
}

} // namespace lockwright
