#include "summary/SummaryBuilder.h"

#include "CheckContext.h"
#include "analysis/Describe.h"
#include "summary/FromClang.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/RecordLayout.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace lockwright {

SummaryBuilder::SummaryBuilder(CheckContext &Ctx, std::string Check) : Ctx(Ctx), Check(std::move(Check)) {}

std::string SummaryBuilder::where(const SourceLocation &Loc) {
  SourcePoint P = pointOf(Ctx.ast().getSourceManager(), Loc);
  return P.File + ":" + std::to_string(P.Line) + ":" + std::to_string(P.Column);
}

std::string SummaryBuilder::recordKey(const RecordDecl *R) {
  const RecordDecl *Def = R->getDefinition() ? R->getDefinition() : R;
  auto [It, New] = RecordKeys.try_emplace(Def);
  // The canonical type names specialisations apart (Ring<int>, Ring<long>) and spells
  // anonymous records by where they are written.
  if (New)
    It->second = Ctx.ast().getRecordType(Def).getCanonicalType().getAsString() + "@" + where(Def->getLocation());
  return It->second;
}

std::string SummaryBuilder::fieldKey(const ValueDecl *D) {
  if (const auto *F = dyn_cast<FieldDecl>(D)) {
    std::string Name = F->getNameAsString();
    return recordKey(F->getParent()) + "::" + (Name.empty() ? "#" + std::to_string(F->getFieldIndex()) : Name);
  }
  return D->getQualifiedNameAsString() + "@" + where(D->getCanonicalDecl()->getLocation());
}

std::string SummaryBuilder::functionKey(const FunctionDecl *F) {
  if (!F)
    return "";
  // The first declaration: a header's prototype or inline definition is the same in every TU,
  // a static function's is in its own file.
  std::string Key = F->getQualifiedNameAsString() + "@" + where(F->getCanonicalDecl()->getLocation());
  // A body in a header is compiled into every file that calls it, also files outside the run.
  if (const FunctionDecl *Def = F->getDefinition()) {
    const SourceManager &SM = Ctx.ast().getSourceManager();
    if (!SM.isInMainFile(SM.getFileLoc(Def->getLocation())))
      Ctx.summary().DefinedInHeaders.insert(Key);
  }
  // A function other files can call is one function in every TU, whichever declaration a TU
  // met first (a header's prototype, a local one, the definition): the reduce step follows
  // calls by its name, and in C++ its type as well (overloads).
  if (F->isExternallyVisible())
    Ctx.summary().ExternNames.emplace(
        Key, F->getQualifiedNameAsString() +
                 (Ctx.langOpts().CPlusPlus ? "@" + F->getType().getCanonicalType().getAsString() : ""));
  return Key;
}

void SummaryBuilder::addRecord(const RecordDecl *R) {
  const SyncModel &Model = Ctx.model();
  ASTContext &AST = Ctx.ast();
  const SourceManager &SM = AST.getSourceManager();
  // A lock or atomic type is one object: the halves of a ticket lock are not two, nor the
  // fields of a record declared inside one (qspinlock's locked and pending bytes).
  for (const DeclContext *DC = R; DC; DC = DC->getParent())
    if (const auto *Enclosing = dyn_cast<RecordDecl>(DC))
      if (Model.kindOfType(AST.getRecordType(Enclosing)) != SyncKind::None)
        return;
  std::vector<SyncObject> Objects = Model.flatten(R, /*Candidates=*/true);
  if (Objects.empty())
    return;
  RecordSummary Out;
  Out.Key = recordKey(R);
  Out.Label = recordDisplayName(R);
  Out.At = pointOf(SM, R->getLocation());
  Out.Align = AST.getASTRecordLayout(R).getAlignment().getQuantity();
  const LangOptions &LO = Ctx.langOpts();
  Out.NewBeforeCxx17 = LO.CPlusPlus && !LO.CPlusPlus17 && Model.allocatedWithNew(R);
  Out.PerCpu = Model.perCpu(R);
  Out.ThreadLocal = Model.threadLocal(R);
  Out.SharedGlobal = Model.sharedGlobal(R);
  uint64_t Window = Ctx.target().Destructive;
  for (const SyncObject &O : Objects) {
    SharedObject S;
    S.Path = O.Path;
    S.Name = O.Leaf->getNameAsString();
    S.Leaf = fieldKey(O.Leaf);
    S.Top = fieldKey(O.Top);
    Mentioned.emplace(S.Leaf, O.Leaf);
    for (const FieldDecl *C : O.Containers) {
      S.Containers.push_back(fieldKey(C));
      S.InUnion.push_back(C->getParent()->isUnion());
      Mentioned.emplace(S.Containers.back(), C);
    }
    S.InUnion.push_back(cast<FieldDecl>(O.Leaf)->getParent()->isUnion());
    // The uses through every embedded path that ends with the object's path in R (from R's
    // member down): accesses through records that embed R count, accesses through other
    // containers of the leaf's record do not. Keyed by that path, alike in every TU.
    std::vector<const FieldDecl *> Path(O.Containers.begin(), O.Containers.end());
    Path.push_back(cast<FieldDecl>(O.Leaf));
    std::string PathKey = "~" + fieldKey(Path.front());
    for (size_t I = 1; I < Path.size(); ++I) {
      std::string Name = Path[I]->getNameAsString();
      PathKey += "." + (Name.empty() ? "#" + std::to_string(Path[I]->getFieldIndex()) : Name);
    }
    S.PathKeys.push_back(PathKey);
    MentionedPaths.emplace(PathKey, std::move(Path));
    S.Offset = O.Offset;
    S.Size = O.Size;
    QualType T = O.Leaf->getType();
    while (const ArrayType *AT = AST.getAsArrayType(T))
      T = AT->getElementType();
    S.TypeKind = Model.kindOfType(T);
    if (S.TypeKind != ObjectKind::None)
      S.TypeName = T.getUnqualifiedType().getAsString();
    S.Link = SyncModel::isLink(O.Leaf);
    S.Const = O.Leaf->getType().isConstQualified();
    S.At = pointOf(SM, O.Leaf->getLocation());
    CheckContext::Disposition D = Ctx.dispositionAt(Check, O.Leaf->getLocation());
    S.Reportable = D != CheckContext::Disposition::Dropped;
    S.Suppressed = D == CheckContext::Disposition::Suppressed;
    // Moving the object to a window of its own is the mechanical fix when it is a member of R.
    if (O.Top == O.Leaf && editable(SM, O.Top->getBeginLoc()))
      if (std::optional<FixItHint> Fix = Ctx.alignmentFix(
              O.Top, Window, FixItHint::CreateInsertion(O.Top->getBeginLoc(), Ctx.alignmentSpelling(Window) + " ")))
        S.AlignAt = editOf(SM, *Fix, LO);
    Out.Objects.push_back(std::move(S));
  }
  Ctx.summary().Records.push_back(std::move(Out));
}

FieldFacts SummaryBuilder::factsOf(const ObjectUse &U) {
  const SyncModel &Model = Ctx.model();
  FieldFacts F;
  for (const FunctionDecl *R : U.Readers)
    F.Readers.insert(functionKey(R));
  for (const FunctionDecl *W : U.Writers) {
    std::string Key = functionKey(W);
    F.Writers.insert(Key);
    if (auto Locks = U.WriterLocks.find(W); Locks != U.WriterLocks.end()) {
      std::set<std::string> &Held = F.WriterLocks[Key]; // empty: writes without a lock
      for (const ValueDecl *Lock : Locks->second)
        Held.insert(fieldKey(Lock));
    }
  }
  for (const FunctionDecl *W : U.ColdWriters) {
    std::string Key = functionKey(W);
    F.ColdWriters.insert(Key);
    std::string Why = Model.coldFunction(W);
    if (auto Own = U.ColdWhy.find(W); Why.empty() && Own != U.ColdWhy.end())
      Why = Own->second;
    F.ColdWhy[Key] = Why.empty() ? "'" + W->getNameAsString() + "' writes an object it has not yet handed on" : Why;
  }
  F.AtomicAccess = U.AtomicAccess;
  F.Contended = U.Contended;
  F.ContendedAsPointer = U.ContendedAsPointer;
  F.LockUse = U.LockUse;
  F.TasWord = U.TasWord;
  auto Name = [](const FunctionDecl *In) { return In ? In->getNameAsString() : std::string(); };
  F.FirstApi = U.FirstApi;
  F.FirstApiIn = Name(U.FirstApiIn);
  F.ContendingApi = U.ContendingApi;
  F.ContendingApiIn = Name(U.ContendingApiIn);
  F.PointerContendingApi = U.PointerContendingApi;
  F.PointerContendingApiIn = Name(U.PointerContendingApiIn);
  return F;
}

void SummaryBuilder::finish() {
  const SyncModel &Model = Ctx.model();
  UseTable &Fields = Ctx.summary().Fields;
  // What the reduce step needs to give a function defined in one file the locks its callers
  // in other files hold.
  TuSummary &Summary = Ctx.summary();
  // Only functions that take a pointer to a record the summary describes can write its fields
  // under a caller's lock; keying every callee would cost the line tables of every header.
  auto TakesDescribedRecord = [&](const FunctionDecl *F) {
    for (const ParmVarDecl *P : F->parameters()) {
      QualType T = P->getType();
      if (T->isPointerType())
        T = T->getPointeeType();
      if (const RecordDecl *R = T->getAsRecordDecl())
        if (RecordKeys.count(R->getDefinition() ? R->getDefinition() : R))
          return true;
    }
    return false;
  };
  for (const auto &[Callee, Locks] : Model.callLocks())
    if (Callee->isExternallyVisible() && TakesDescribedRecord(Callee)) {
      std::set<std::string> &Held = Summary.CallLocks[functionKey(Callee)];
      for (const ValueDecl *Lock : Locks)
        Held.insert(fieldKey(Lock));
    }
  for (const FunctionDecl *FD : Model.addressTaken())
    if (FD->isExternallyVisible() && TakesDescribedRecord(FD))
      Summary.AddressTaken.insert(functionKey(FD));
  for (const auto &[Key, D] : Mentioned)
    if (const ObjectUse *U = Model.use(D))
      Fields[Key].merge(factsOf(*U));
  for (const auto &[Key, Path] : MentionedPaths)
    Model.forEachPathEndingWith(Path, [&, &Key = Key](const ObjectUse &U) { Fields[Key].merge(factsOf(U)); });
  addCalls();
}

void SummaryBuilder::addCalls() {
  const SyncModel &Model = Ctx.model();
  const SourceManager &SM = Ctx.ast().getSourceManager();
  TuSummary &Summary = Ctx.summary();
  // Any function called here may be a writer that another TU describes, so every call counts,
  // but for those into system headers and into the APIs the specs name (spin_lock, atomic_inc):
  // neither writes a field of the program's records as a function of its own.
  auto Counts = [&](const FunctionDecl *F) {
    return !SM.isInSystemHeader(F->getLocation()) && !Model.names().operation(F->getNameAsString());
  };
  std::set<const FunctionDecl *> Seen;
  for (const auto &[Callee, Callers] : Model.callers()) {
    if (!Counts(Callee))
      continue;
    std::set<std::string> &Keys = Summary.Callers[functionKey(Callee)];
    for (const FunctionDecl *Caller : Callers) {
      Keys.insert(functionKey(Caller));
      Seen.insert(Caller->getCanonicalDecl());
    }
    Seen.insert(Callee->getCanonicalDecl());
  }
  // Named other than in a call (an ops table, a callback), called or not here.
  for (const FunctionDecl *F : Model.addressTaken())
    if (Counts(F))
      Summary.AddressTaken.insert(functionKey(F));
  // Rare by a rule of their own only: a header's inline function called only from cold
  // functions here may have hot callers in other TUs, and the reduce step follows every TU's
  // calls; an initialiser may run on every request, and its callees with it.
  for (const FunctionDecl *F : Seen) {
    if (F->getDefinition() && Model.runsRarely(F->getDefinition()))
      Summary.ColdFunctions.emplace(functionKey(F), Model.coldFunction(F->getDefinition()));
    // A body here may be inlined into its callers here: a sampling profile then shows them.
    if (F->isExternallyVisible() && F->hasBody())
      Summary.DefinedHere.insert(functionKey(F));
  }
  // Which threads run which functions: the threads started here, the calls that can repeat
  // (a function called once from one that runs once runs once) and what runs once by itself.
  for (const ThreadStart &Start : Model.threadStarts()) {
    Summary.ThreadStarts.push_back(
        {functionKey(Start.Entry), functionKey(Start.Site), pointOf(SM, Start.At), Start.InLoop});
    if (Model.namedApartFromThreadStarts().count(Start.Entry))
      Summary.NamedApartFromThreadStarts.insert(functionKey(Start.Entry));
    Seen.insert(Start.Entry);
    if (Start.Site)
      Seen.insert(Start.Site->getCanonicalDecl());
  }
  for (const auto &[Callee, Caller] : Model.repeatedCalls())
    if (Counts(Callee) && !Summary.DefinedInHeaders.count(functionKey(Callee)))
      Summary.RepeatedCalls[functionKey(Callee)].insert(functionKey(Caller));
  for (const FunctionDecl *F : Seen)
    if (std::string Why = Model.runsOnce(F); !Why.empty()) {
      Summary.RunsOnce.emplace(functionKey(F), Why);
      if (Model.namedApartFromThreadStarts().count(F->getCanonicalDecl()))
        Summary.NamedApartFromThreadStarts.insert(functionKey(F));
    }
}

} // namespace lockwright
