// layout-false-sharing: two synchronisation objects of one record that are
// written independently (no function touches both) and can fall in one
// destructive-interference window of the target.
#include "layout/FalseSharingCheck.h"

#include "CheckContext.h"
#include "analysis/Describe.h"
#include "analysis/LayoutMath.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecordLayout.h"
#include "clang/ASTMatchers/ASTMatchers.h"

#include <algorithm>

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
  // A lock or atomic type is one object: the halves of a ticket lock are not two.
  if (Model.kindOfType(Ctx.ast().getRecordType(R)) != SyncKind::None)
    return;

  std::vector<SyncObject> Objects = Model.flatten(R);
  Objects.erase(std::remove_if(Objects.begin(), Objects.end(),
                               [&](const SyncObject &O) { return !Model.mayBeWritten(O.Leaf); }),
                Objects.end());
  if (Objects.size() < 2)
    return;
  std::stable_sort(Objects.begin(), Objects.end(),
                   [](const SyncObject &A, const SyncObject &B) { return A.Offset < B.Offset; });

  const TargetFacts &T = Ctx.target();
  uint64_t RecordAlign = Ctx.ast().getASTRecordLayout(R).getAlignment().getQuantity();
  const SourceManager &SM = Ctx.ast().getSourceManager();
  for (size_t J = 1; J < Objects.size(); ++J) {
    const SyncObject &B = Objects[J];
    for (size_t I = J; I-- > 0;) {
      const SyncObject &A = Objects[I];
      uint64_t AEnd = A.Offset + std::max<uint64_t>(A.Size, 1);
      if (B.Offset < AEnd || !mayShareWindow(AEnd, B.Offset, T.Destructive, RecordAlign))
        continue;
      if (Model.coAccessed(A.Leaf, B.Leaf))
        continue;
      std::string Message = "'" + B.Path + "' (" + syncKindName(B.Kind) + ") and '" + A.Path + "' (" +
                            syncKindName(A.Kind) + ") of " + recordLabel(R) + " can share a " +
                            std::to_string(T.Destructive) + "-byte destructive-interference window on " +
                            T.label() + "; no function uses both, so they false-share";
      std::vector<CheckContext::Note> Notes;
      Notes.push_back({A.Leaf->getLocation(), "'" + A.Path + "' is at offset " + std::to_string(A.Offset) + " (" +
                                                  std::to_string(A.Size) + " bytes); '" + B.Path + "' is at offset " +
                                                  std::to_string(B.Offset) + ", " +
                                                  std::to_string(B.Offset - A.Offset) + " bytes after its start"});
      Notes.push_back({B.Leaf->getLocation(), "the destructive interference size of " + T.label() + " is " +
                                                  std::to_string(T.Destructive) + " bytes (" + T.DestructiveSource +
                                                  ")"});
      if (!T.HostLayoutNote.empty())
        Notes.push_back({R->getLocation(), T.HostLayoutNote});
      std::vector<FixItHint> Fixes;
      // Moving B to a window of its own is the mechanical fix when B is a member of R itself.
      if (B.Top == B.Leaf && editable(SM, B.Top->getBeginLoc())) {
        Fixes.push_back(
            FixItHint::CreateInsertion(B.Top->getBeginLoc(), Ctx.alignmentSpelling(T.Destructive) + " "));
        const LangOptions &LO = Ctx.langOpts();
        if (LO.CPlusPlus && !LO.CPlusPlus17 && Model.allocatedWithNew(R))
          Notes.push_back({R->getLocation(), recordLabel(R) + " is allocated with 'new', which before C++17 does "
                                             "not honour alignment above alignof(std::max_align_t)"});
      }
      Ctx.report(name(), B.Leaf->getLocation(), Message, Notes, Fixes);
      break; // one report per object, against its nearest partner
    }
  }
}

} // namespace lockwright
