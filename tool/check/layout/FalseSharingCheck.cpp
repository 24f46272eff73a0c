// layout-false-sharing: two synchronisation objects of one record that are
// written independently (no function touches both) and can fall in one
// destructive-interference window of the target.
#include "layout/FalseSharingCheck.h"

#include "CheckContext.h"
#include "analysis/Describe.h"
#include "analysis/SharingPairs.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchers.h"


using namespace clang;
using namespace clang::ast_matchers;

namespace lockwright {

void FalseSharingCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(recordDecl(isDefinition(), unless(isImplicit())).bind("record"), this);
}

void FalseSharingCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *R = Result.Nodes.getNodeAs<RecordDecl>("record");
  CheckContext &Ctx = context();
  const SyncModel &Model = Ctx.model();
  if (!Ctx.inUserCode(R->getLocation()) || R->isDependentType() || R->isInvalidDecl())
    return;
  const TargetFacts &T = Ctx.target();
  const SourceManager &SM = Ctx.ast().getSourceManager();
  for (const SharingPair &P : falseSharingPairs(Model, R, T.Destructive)) {
    const SyncObject &A = P.First, &B = P.Second;
    std::vector<CheckContext::Note> Notes;
    Notes.push_back({A.Leaf->getLocation(), "'" + A.Path + "' is at offset " + std::to_string(A.Offset) + " (" +
                                                std::to_string(A.Size) + " bytes); '" + B.Path + "' is at offset " +
                                                std::to_string(B.Offset) + ", " + std::to_string(B.Offset - A.Offset) +
                                                " bytes after its start"});
    Notes.push_back({B.Leaf->getLocation(), "the destructive interference size of " + T.label() + " is " +
                                                std::to_string(T.Destructive) + " bytes (" + T.DestructiveSource +
                                                ")"});
    // Which rule made each a sync object.
    for (const SyncObject *O : {&A, &B})
      if (std::string Why = Model.reasonFor(O->Leaf); !Why.empty())
        Notes.push_back({O->Leaf->getLocation(), Why});
    std::vector<FixItHint> Fixes;
    // Moving B to a window of its own is the mechanical fix when B is a member of R itself.
    if (B.Top == B.Leaf && editable(SM, B.Top->getBeginLoc())) {
      Fixes.push_back(FixItHint::CreateInsertion(B.Top->getBeginLoc(), Ctx.alignmentSpelling(T.Destructive) + " "));
      const LangOptions &LO = Ctx.langOpts();
      if (LO.CPlusPlus && !LO.CPlusPlus17 && Model.allocatedWithNew(R))
        Notes.push_back({R->getLocation(), recordLabel(R) + " is allocated with 'new', which before C++17 does "
                                           "not honour alignment above alignof(std::max_align_t)"});
    }
    report(B.Leaf->getLocation(),
           "'%0' (%1) and '%2' (%3) of %4 can share a %5-byte destructive-interference window on %6; they are "
           "written independently, so they false-share",
           {B.Path, syncKindName(B.Kind), A.Path, syncKindName(A.Kind), recordLabel(R), std::to_string(T.Destructive),
            T.label()},
           Notes, Fixes, R->getLocation());
  }
}

} // namespace lockwright
