// layout-lock-alignment: a lock word aligned below what the target's lock
// instructions need (PA-RISC ldcw: 16 bytes, lock_word.align in the spec) or
// below its own type's natural alignment (packed records).
#include "layout/LockAlignmentCheck.h"

#include "CheckContext.h"
#include "analysis/Describe.h"
#include "analysis/LayoutMath.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecordLayout.h"
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace lockwright {

void LockAlignmentCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(recordDecl(isDefinition(), unless(isImplicit())).bind("record"), this);
  Finder.addMatcher(varDecl(hasGlobalStorage(), unless(parmVarDecl())).bind("var"), this);
}

namespace {

/// The alignment a lock of this type needs on the target: its natural one, and
/// for a lock word (up to 16 bytes) at least the spec's lock_word.align.
uint64_t requiredAlign(const ASTContext &AST, QualType T, const TargetFacts &Target, bool &ByTarget) {
  uint64_t Natural = AST.getTypeAlignInChars(T).getQuantity();
  uint64_t Size = AST.getTypeSizeInChars(T).getQuantity();
  ByTarget = Size <= 16 && Target.LockWordAlign > Natural;
  return ByTarget ? Target.LockWordAlign : Natural;
}

} // namespace

void LockAlignmentCheck::check(const MatchFinder::MatchResult &Result) {
  CheckContext &Ctx = context();
  const ASTContext &AST = Ctx.ast();
  const SyncModel &Model = Ctx.model();
  const TargetFacts &T = Ctx.target();
  const SourceManager &SM = AST.getSourceManager();

  auto Report = [&](const ValueDecl *Lock, const std::string &Path, uint64_t Have, uint64_t Need, bool ByTarget,
                    const Decl *FixAt, const RecordDecl *Packed) {
    std::vector<CheckContext::Note> Notes;
    if (ByTarget)
      Notes.push_back({Lock->getLocation(), "the spec's lock_word.align for " + T.label(), {}, T.LockWordSource});
    if (Packed)
      Notes.push_back({Packed->getLocation(), recordDisplayName(Packed) + " is packed"});
    std::vector<FixItHint> Fixes;
    if (FixAt && editable(SM, FixAt->getBeginLoc()))
      Fixes.push_back(FixItHint::CreateInsertion(FixAt->getBeginLoc(), Ctx.alignmentSpelling(Need) + " "));
    report(Lock->getLocation(), ByTarget ? "lock word '%0' is aligned to %1 byte%2; %3 needs %4 for its lock instructions"
                                         : "lock word '%0' is aligned to %1 byte%2; its type needs %4",
           {Path, std::to_string(Have), Have == 1 ? "" : "s", T.label(), std::to_string(Need)}, Notes, Fixes);
  };

  if (const auto *R = Result.Nodes.getNodeAs<RecordDecl>("record")) {
    if (!Ctx.inUserCode(R->getLocation()) || R->isDependentType() || R->isInvalidDecl())
      return;
    if (Model.kindOfType(AST.getRecordType(R)) != SyncKind::None)
      return; // the lock type's own members are judged where the lock is used
    uint64_t RecordAlign = AST.getASTRecordLayout(R).getAlignment().getQuantity();
    for (const SyncObject &O : Model.flatten(R)) {
      if (O.Kind != SyncKind::Lock)
        continue;
      bool ByTarget = false;
      uint64_t Need = requiredAlign(AST, O.Leaf->getType(), T, ByTarget);
      uint64_t Have = effectiveAlign(O.Offset, RecordAlign);
      if (Have >= Need)
        continue;
      bool IsPacked = R->hasAttr<PackedAttr>() || R->hasAttr<MaxFieldAlignmentAttr>();
      // Under #pragma pack a member's alignment attribute does not apply: no mechanical fix.
      bool Fixable = O.Top == O.Leaf && !R->hasAttr<MaxFieldAlignmentAttr>();
      Report(O.Leaf, O.Path, Have, Need, ByTarget, Fixable ? O.Top : nullptr, IsPacked ? R : nullptr);
    }
    return;
  }
  const auto *V = Result.Nodes.getNodeAs<VarDecl>("var");
  if (!V || !Ctx.inUserCode(V->getLocation()) || V->getType()->isDependentType() ||
      V->getType()->isIncompleteType() || Model.kindOf(V) != SyncKind::Lock || AST.getAsArrayType(V->getType()))
    return;
  bool ByTarget = false;
  uint64_t Need = requiredAlign(AST, V->getType(), T, ByTarget);
  uint64_t Have = AST.getDeclAlign(V).getQuantity();
  if (Have < Need)
    Report(V, V->getNameAsString(), Have, Need, ByTarget, V, nullptr);
}

} // namespace lockwright
