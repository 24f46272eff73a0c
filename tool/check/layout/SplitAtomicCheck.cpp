// layout-split-atomic: an atomic or lock word that can straddle a cache-line
// boundary (a packed or misaligned record puts it at an offset that is not a
// multiple of its size): its accesses stop being single-line, and on x86 turn
// into split locks.
#include "layout/SplitAtomicCheck.h"

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

void SplitAtomicCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(recordDecl(isDefinition(), unless(isImplicit())).bind("record"), this);
}

void SplitAtomicCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *R = Result.Nodes.getNodeAs<RecordDecl>("record");
  CheckContext &Ctx = context();
  const SyncModel &Model = Ctx.model();
  if (!Ctx.inUserCode(R->getLocation()) || R->isDependentType() || R->isInvalidDecl())
    return;
  const TargetFacts &T = Ctx.target();
  uint64_t RecordAlign = Ctx.ast().getASTRecordLayout(R).getAlignment().getQuantity();
  const SourceManager &SM = Ctx.ast().getSourceManager();
  for (const SyncObject &O : Model.flatten(R)) {
    // One access is what can split: an element of an array, a word of a lock
    // record; a 40-byte mutex spans lines by size, its lock word does not.
    uint64_t Unit = O.AccessUnit;
    if (!accessMayStraddle(O.Offset, O.Size, Unit, T.L1Line, RecordAlign))
      continue;
    std::string What = Unit == O.Size ? std::to_string(O.Size) + " bytes" : std::to_string(Unit) + "-byte accesses";
    std::string Why = O.Offset % Unit != 0
                          ? std::string(Unit == O.Size ? "its offset is not a multiple of its size" : "its offset is not a multiple of the size of one access")
                          : recordDisplayName(R) + " is only " + std::to_string(RecordAlign) + "-byte aligned";
    std::vector<CheckContext::Note> Notes;
    // Under #pragma pack an alignment attribute on a member does not apply: no mechanical fix.
    bool PragmaPacked = R->hasAttr<MaxFieldAlignmentAttr>();
    if (PragmaPacked)
      Notes.push_back({R->getLocation(), recordDisplayName(R) + " is packed by #pragma pack, which caps member alignment; "
                                         "move '" + O.Path + "' or end the pragma before this record"});
    else if (R->hasAttr<PackedAttr>())
      Notes.push_back({R->getLocation(), recordDisplayName(R) + " is packed"});
    std::vector<FixItHint> Fixes;
    if (!PragmaPacked && O.Top == O.Leaf && editable(SM, O.Top->getBeginLoc()))
      Fixes.push_back(FixItHint::CreateInsertion(O.Top->getBeginLoc(), Ctx.alignmentSpelling(Unit) + " "));
    report(O.Leaf->getLocation(),
           "'%0' (%1, %2 at offset %3 of %4) can straddle a %5-byte cache line on %6: %7, so its accesses can "
           "span two lines",
           {O.Path, syncKindName(O.Kind), What, std::to_string(O.Offset), recordDisplayName(R), std::to_string(T.L1Line),
            T.label(), Why},
           Notes, Fixes, R->getLocation());
  }
}

} // namespace lockwright
