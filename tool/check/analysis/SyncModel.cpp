#include "analysis/SyncModel.h"

#include "analysis/IdentifierMemo.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace lockwright {

std::set<const FunctionDecl *> ObjectUse::accessors() const {
  std::set<const FunctionDecl *> All = Readers;
  All.insert(Writers.begin(), Writers.end());
  return All;
}

namespace {

/// Records the spelling range of the first argument of every API macro.
class MacroRecorder : public PPCallbacks {
public:
  MacroRecorder(const ApiNames &Names, Preprocessor &PP, std::vector<MacroArgUse> &Out)
      : Names(Names), PP(PP), Out(Out) {}

  void MacroExpands(const Token &NameTok, const MacroDefinition &, SourceRange Range, const MacroArgs *Args) override {
    if (!Args || Args->getNumMacroArguments() == 0)
      return;
    const MacroApi &Api = Apis.get(NameTok.getIdentifierInfo(), [&](const std::string &Name) {
      return MacroApi{Names.access(Name), Contention::of(Names, Name)};
    });
    if (!Api.Access)
      return;
    SourceManager &SM = PP.getSourceManager();
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
    Out.push_back({SourceRange(Begin, End), *Api.Access, Api.Contends, NameTok.getIdentifierInfo()->getName().str()});
  }

private:
  const ApiNames &Names;
  Preprocessor &PP;
  std::vector<MacroArgUse> &Out;
  struct MacroApi {
    std::optional<ApiNames::Access> Access;
    Contention Contends;
  };
  IdentifierMemo<MacroApi> Apis;
  SourceRange Outer; // the file range of the last API macro expansion not nested in another
};

} // namespace

/// The object an expression designates, through &, *, casts, parentheses and subscripts.
static const ValueDecl *designated(const Expr *E, bool *Subscripted = nullptr, bool *ConstantIndex = nullptr) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E)) {
      E = Cast->getSubExpr();
    } else if (const auto *U = dyn_cast<UnaryOperator>(E);
               U && (U->getOpcode() == UO_AddrOf || U->getOpcode() == UO_Deref)) {
      E = U->getSubExpr();
    } else if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      if (Subscripted)
        *Subscripted = true;
      if (ConstantIndex)
        *ConstantIndex = A->getIdx()->IgnoreParenImpCasts()->getStmtClass() == Stmt::IntegerLiteralClass;
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

std::string SyncModel::className(const CXXRecordDecl *RD) {
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    return Spec->getSpecializedTemplate()->getQualifiedNameAsString();
  return RD->getQualifiedNameAsString();
}

class UsageVisitor : public RecursiveASTVisitor<UsageVisitor> {
public:
  explicit UsageVisitor(SyncModel &Model) : Model(Model), SM(Model.Context.getSourceManager()) {}

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    const FunctionDecl *Saved = Current;
    Current = FD;
    bool Result = RecursiveASTVisitor::TraverseFunctionDecl(FD);
    Current = Saved;
    return Result;
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *MD) {
    const FunctionDecl *Saved = Current;
    Current = MD;
    bool Result = RecursiveASTVisitor::TraverseCXXMethodDecl(MD);
    Current = Saved;
    return Result;
  }
  bool TraverseLambdaExpr(LambdaExpr *LE) {
    const FunctionDecl *Saved = Current;
    Current = LE->getCallOperator();
    bool Result = RecursiveASTVisitor::TraverseLambdaExpr(LE);
    Current = Saved;
    return Result;
  }

  bool VisitCallExpr(CallExpr *CE) {
    if (isa<CXXMemberCallExpr>(CE) || isa<CXXOperatorCallExpr>(CE))
      return true; // handled below
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee || CE->getNumArgs() == 0)
      return true;
    std::string Name = Callee->getNameAsString();
    if (std::optional<ApiNames::Access> A = Model.Names.access(Name)) {
      record(designated(CE->getArg(0)), *A, Name);
      return true;
    }
    // '&s->stack' handed to a function we do not know (ck_stack_push_upmc): it may write all of it.
    for (const Expr *Arg : CE->arguments())
      if (const auto *UO = dyn_cast<UnaryOperator>(Arg->IgnoreParenImpCasts()); UO && UO->getOpcode() == UO_AddrOf)
        if (const ValueDecl *D = designated(UO->getSubExpr()); D && Current)
          Model.Uses[D].Writers.insert(Current);
    return true;
  }

  // __atomic_* and __c11_atomic_* builtins are AtomicExprs, not calls.
  bool VisitAtomicExpr(AtomicExpr *AE) {
    std::string Name = AE->getOpAsString().str();
    if (std::optional<ApiNames::Access> A = Model.Names.access(Name))
      record(designated(AE->getPtr()), *A, Name);
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
    noteUse(ME->getMemberDecl(), ME->getMemberLoc(), Bases.count(ME) != 0);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (VD && VD->hasGlobalStorage())
      noteUse(VD, DRE->getLocation(), Bases.count(DRE) != 0);
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isCompoundAssignmentOp())
      plainWrite(BO->getLHS(), true);
    else if (BO->isAssignmentOp())
      plainWrite(BO->getLHS(), refersTo(BO->getRHS(), designated(BO->getLHS())));
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator *UO) {
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
  void noteUse(const ValueDecl *D, SourceLocation Loc, bool OnlyABase = false) {
    if (const MacroArgUse *Use = OnlyABase ? nullptr : macroArgUse(Loc))
      record(D, Use->Access, Use->Name, Use->Contends);
    else if (Current)
      Model.Uses[D].Readers.insert(Current);
  }

  /// What an API macro does to the object written at Loc, when Loc is one of its
  /// arguments. A token that no macro expanded cannot be one: most are not, and
  /// they skip the scan.
  const MacroArgUse *macroArgUse(SourceLocation Loc) const {
    if (!Loc.isMacroID())
      return nullptr;
    SourceLocation Spelled = SM.getSpellingLoc(Loc);
    for (const MacroArgUse &Use : Model.MacroArgs)
      if (inRange(Spelled, Use.Range))
        return &Use;
    return nullptr;
  }

  bool inRange(SourceLocation L, SourceRange R) const {
    return L.isValid() && R.isValid() && !SM.isBeforeInTranslationUnit(L, R.getBegin()) &&
           !SM.isBeforeInTranslationUnit(R.getEnd(), L);
  }

  void record(const ValueDecl *D, ApiNames::Access A, const std::string &Name) {
    record(D, A, Name, Contention::of(Model.Names, Name));
  }

  /// Name (a call, macro or method) does A to D, and makes it as contended as Contends says.
  void record(const ValueDecl *D, ApiNames::Access A, const std::string &Name, Contention Contends) {
    if (!D)
      return;
    ObjectUse &U = Model.Uses[D];
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
    switch (A) {
    case ApiNames::Access::AtomicRead:
      U.AtomicAccess = true;
      if (Current)
        U.Readers.insert(Current);
      break;
    case ApiNames::Access::AtomicWrite:
      U.AtomicAccess = true;
      if (Current)
        U.Writers.insert(Current);
      break;
    case ApiNames::Access::TasWord:
      U.TasWord = true;
      [[fallthrough]];
    case ApiNames::Access::LockUse:
      U.LockUse = true;
      if (Current)
        U.Writers.insert(Current);
      break;
    }
  }

  /// ReadModifyWrite: a[i]++, a[i] += n, a[i] = a[i] + n. Per-thread slots are
  /// counters updated in place; a buffer or ring filled as a[i] = v is not.
  void plainWrite(const Expr *LHS, bool ReadModifyWrite) {
    bool Subscripted = false, ConstantIndex = false;
    const ValueDecl *D = designated(LHS, &Subscripted, &ConstantIndex);
    if (!D)
      return;
    ObjectUse &U = Model.Uses[D];
    if (Current)
      U.Writers.insert(Current);
    if (Subscripted && !ConstantIndex && ReadModifyWrite)
      U.IndexedWrite = true;
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

  SyncModel &Model;
  SourceManager &SM;
  const FunctionDecl *Current = nullptr;
  /// Expressions seen as the base of a member access: an API macro around the access works on
  /// the member, not on them.
  llvm::DenseSet<const Expr *> Bases;
};

SyncModel::SyncModel(const ApiNames &Names, ASTContext &Context) : Names(Names), Context(Context) {}

std::unique_ptr<PPCallbacks> SyncModel::macroRecorder(Preprocessor &PP) {
  return std::make_unique<MacroRecorder>(Names, PP, MacroArgs);
}

void SyncModel::collect() { UsageVisitor(*this).TraverseDecl(Context.getTranslationUnitDecl()); }

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
  return Pointee && Pointee->getCanonicalDecl() == Field->getParent()->getCanonicalDecl();
}

const ObjectUse *SyncModel::use(const ValueDecl *D) const {
  auto It = Uses.find(D);
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
    // Enter nested records (not arrays of them: an array is one object for the layout checks).
    if (const RecordDecl *Inner = F->getType()->getAsRecordDecl())
      if (Inner->getDefinition()) {
        Containers.push_back(F);
        flattenInto(Inner->getDefinition(), Offset, Path, Containers, Candidates, Out);
        Containers.pop_back();
      }
  }
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
