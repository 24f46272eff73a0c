// layout-unpadded-array: an array of locks, atomics, records holding them, or
// per-thread slots (written as a[i]) whose elements sit closer together than
// the target's destructive interference size.
#include "layout/UnpaddedArrayCheck.h"

#include "CheckContext.h"
#include "analysis/Describe.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>

using namespace clang;
using namespace clang::ast_matchers;

namespace lockwright {

namespace {

/// The element type and count of a C array, std::array or std::vector (count 0: unknown).
bool elementOf(QualType T, const ASTContext &AST, QualType &Element, uint64_t &Count) {
  if (const auto *CAT = AST.getAsConstantArrayType(T)) {
    Element = CAT->getElementType();
    Count = CAT->getSize().getZExtValue();
    return true;
  }
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsRecordDecl());
  if (!Spec || Spec->getTemplateArgs().size() == 0 || Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return false;
  std::string Name = Spec->getSpecializedTemplate()->getQualifiedNameAsString();
  if (Name != "std::array" && Name != "std::vector")
    return false;
  Element = Spec->getTemplateArgs()[0].getAsType();
  Count = 0;
  if (Name == "std::array" && Spec->getTemplateArgs().size() > 1 &&
      Spec->getTemplateArgs()[1].getKind() == TemplateArgument::Integral)
    Count = Spec->getTemplateArgs()[1].getAsIntegral().getZExtValue();
  return true;
}

/// Where several threads can reach plain slots: a member, a global or a static.
/// A function's own buffer written as buf[i] is not a table of per-thread slots,
/// nor is an array inside a record padded to the window (a per-thread unit such
/// as liburcu's DEFINE_PER_THREAD, whose one owner updates every slot).
bool sharable(const ValueDecl *D, const ASTContext &AST, uint64_t Window) {
  if (const auto *VD = dyn_cast<VarDecl>(D))
    return VD->hasGlobalStorage();
  if (const auto *FD = dyn_cast<FieldDecl>(D)) {
    const RecordDecl *Parent = FD->getParent();
    return !Parent->isCompleteDefinition() ||
           (uint64_t)AST.getTypeAlignInChars(AST.getRecordType(Parent)).getQuantity() < Window;
  }
  return false;
}

/// Whether threads contend for D itself: a lock or atomic by its type, a lock by its uses, or
/// a word an RMW, an acquire or release, or a poll works on. A word only read and written whole
/// (READ_ONCE, WRITE_ONCE, rcu_assign_pointer: a table of pointers published to lockless
/// readers) is written by whoever updates it, not by one thread per element.
bool contended(const ValueDecl *D, const SyncModel &Model) {
  QualType T = D->getType();
  while (const ArrayType *AT = Model.context().getAsArrayType(T))
    T = AT->getElementType();
  if (Model.kindOfType(T) != SyncKind::None)
    return true;
  const ObjectUse *U = Model.use(D);
  return U && (U->LockUse || U->TasWord || U->Contended);
}

/// A variable in a per-CPU section (DEFINE_PER_CPU) or thread-local, or a member of a record the
/// TU makes per CPU or per thread (alloc_percpu, DEFINE_PER_CPU, a thread-local of its type).
bool perCpu(const ValueDecl *D, const CheckContext &Ctx) {
  if (const auto *VD = dyn_cast<VarDecl>(D)) {
    if (VD->getTLSKind() != VarDecl::TLS_None) // a copy per thread
      return true;
    for (const VarDecl *Redecl : VD->redecls())
      if (const auto *Section = Redecl->getAttr<SectionAttr>())
        return Ctx.model().names().section(Section->getName().str()) == ApiNames::Section::PerCpu;
    return false;
  }
  const auto *FD = dyn_cast<FieldDecl>(D);
  return FD && Ctx.model().perCpuOrThread(FD->getParent()->getDefinition() ? FD->getParent()->getDefinition()
                                                                            : FD->getParent());
}

/// Whether a function that updates D's slots in place runs often and without a lock: not only
/// at boot, configuration or teardown (node_load[], zone_movable_pfn[] are filled by __init
/// code), nor only under the lock its callers hold (path_count[] under epmutex).
bool slotsWrittenHot(const ObjectUse &U, const SyncModel &Model) {
  return std::any_of(U.SlotWriters.begin(), U.SlotWriters.end(), [&](const FunctionDecl *W) {
    return Model.coldFunction(W).empty() && !Model.inheritsCallersLock(W);
  });
}

/// The first object of an element record that threads contend for.
const SyncObject *contendedObject(const std::vector<SyncObject> &Objects, const SyncModel &Model) {
  for (const SyncObject &O : Objects)
    if (contended(O.Leaf, Model))
      return &O;
  return nullptr;
}

} // namespace

void UnpaddedArrayCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(fieldDecl().bind("decl"), this);
  Finder.addMatcher(varDecl(unless(parmVarDecl())).bind("decl"), this);
}

void UnpaddedArrayCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *D = Result.Nodes.getNodeAs<ValueDecl>("decl");
  CheckContext &Ctx = context();
  const ASTContext &AST = Ctx.ast();
  const SyncModel &Model = Ctx.model();
  if (!Ctx.inUserCode(D->getLocation()) || D->getType()->isDependentType())
    return;
  // A variable is judged once, at its first declaration (a header's extern), not again at its
  // definition or a redeclaration (EXPORT_SYMBOL's).
  if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD != VD->getCanonicalDecl())
    return;
  // Each CPU writes its own copy of a per-CPU array, or of one inside a per-CPU record.
  if (perCpu(D, Ctx))
    return;
  QualType Element;
  uint64_t Count = 0;
  if (!elementOf(D->getType(), AST, Element, Count) || Element->isDependentType() || Element->isIncompleteType())
    return;
  if (Count == 1)
    return;

  std::string What;
  SyncKind K = Model.kindOfType(Element);
  const RecordDecl *ElementRecord = Element->getAsRecordDecl();
  std::vector<SyncObject> ElementObjects = ElementRecord ? Model.flatten(ElementRecord) : std::vector<SyncObject>();
  const SyncObject *Held = contendedObject(ElementObjects, Model);
  // Records whose word is contended only by what the TU does to other objects of their type
  // (a page-table entry's cmpxchg through a pointer) say nothing of this array's elements
  // unless the TU uses the array: an array it only declares (the boot page tables an `extern`
  // of a header names) is judged where it is used. The model follows uses of members and
  // globals, not of locals.
  const auto *Var = dyn_cast<VarDecl>(D);
  if (K == SyncKind::None && Held && Model.kindOfType(Held->Leaf->getType()) == SyncKind::None &&
      (!Var || Var->hasGlobalStorage()))
    if (const ObjectUse *U = Model.use(D); (!U || (U->Writers.empty() && U->Readers.empty())) && !D->isReferenced())
      return;
  if (K != SyncKind::None) {
    What = std::string(syncKindName(K)) + "s";
  } else if (Held) {
    What = "records holding " + std::string(syncKindName(Held->Kind)) + "s";
  } else if (Model.kindOf(D) != SyncKind::None && contended(D, Model)) {
    What = std::string(syncKindName(Model.kindOf(D))) + "s";
  } else if (const ObjectUse *U = Model.use(D); U && slotsWrittenHot(*U, Model) && sharable(D, AST, Ctx.target().Destructive)) {
    What = "per-thread slots (written as " + D->getNameAsString() + "[i])";
  } else {
    return;
  }

  const TargetFacts &T = Ctx.target();
  uint64_t Stride = AST.getTypeSizeInChars(Element).getQuantity();
  if (Stride == 0 || Stride >= T.Destructive)
    return;
  std::string ElementName = Element.getAsString(AST.getPrintingPolicy());
  // Elements (or parts of them) that one window can hold: D / stride, plus one more when they do not tile it.
  uint64_t PerWindow = T.Destructive / Stride + (T.Destructive % Stride ? 1 : 0) + (T.Destructive % Stride ? 1 : 0);
  std::vector<CheckContext::Note> Notes;
  std::vector<FixItHint> Fixes;
  const SourceManager &SM = AST.getSourceManager();
  const RecordDecl *Def = ElementRecord ? ElementRecord->getDefinition() : nullptr;
  if (Def && !Def->getName().empty() && editable(SM, Def->getBeginLoc()) && Ctx.inUserCode(Def->getLocation())) {
    // Align the element type itself: every element then owns a window.
    SourceLocation AfterKeyword = Lexer::getLocForEndOfToken(Def->getBeginLoc(), 0, SM, Ctx.langOpts());
    std::string Attr = Ctx.langOpts().CPlusPlus11 ? " alignas(" + std::to_string(T.Destructive) + ")"
                                                  : " __attribute__((aligned(" + std::to_string(T.Destructive) + ")))";
    std::optional<FixItHint> Fix = Ctx.alignmentFix(Def, T.Destructive, FixItHint::CreateInsertion(AfterKeyword, Attr));
    Notes.push_back({Def->getLocation(),
                     "aligning " + recordDisplayName(Def) + " to " + std::to_string(T.Destructive) +
                         " bytes gives every element a window of its own",
                     Fix ? std::vector<FixItHint>{*Fix} : std::vector<FixItHint>{}});
  } else {
    Notes.push_back({D->getLocation(), "wrap each '" + ElementName + "' in a type aligned to " +
                                           std::to_string(T.Destructive) +
                                           " bytes (lockwright's LW_PADDED, lw::cache_padded<T>)"});
  }
  report(D->getLocation(),
         "'%0' is an array of %1 with a %2-byte stride: each %3-byte destructive-interference window on %4 holds "
         "%5%6 elements",
         {D->getNameAsString(), What, std::to_string(Stride), std::to_string(T.Destructive), T.label(),
          T.Destructive % Stride ? "parts of up to " : "", std::to_string(PerWindow)},
         Notes, Fixes);
}

} // namespace lockwright
