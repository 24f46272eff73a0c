#include "analysis/SharingPairs.h"

#include "analysis/LayoutMath.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecordLayout.h"

#include <algorithm>

using namespace clang;

namespace lockwright {

std::vector<SharingPair> falseSharingPairs(const SyncModel &Model, const RecordDecl *R, uint64_t Window) {
  std::vector<SharingPair> Pairs;
  // A lock or atomic type is one object: the halves of a ticket lock are not two.
  if (Model.kindOfType(Model.context().getRecordType(R)) != SyncKind::None)
    return Pairs;
  std::vector<SyncObject> Objects = Model.flatten(R);
  Objects.erase(std::remove_if(Objects.begin(), Objects.end(),
                               [&](const SyncObject &O) { return !Model.mayBeWritten(O.Leaf); }),
                Objects.end());
  std::stable_sort(Objects.begin(), Objects.end(),
                   [](const SyncObject &A, const SyncObject &B) { return A.Offset < B.Offset; });
  uint64_t RecordAlign = Model.context().getASTRecordLayout(R).getAlignment().getQuantity();
  for (size_t J = 1; J < Objects.size(); ++J) {
    const SyncObject &B = Objects[J];
    for (size_t I = J; I-- > 0;) {
      const SyncObject &A = Objects[I];
      uint64_t AEnd = A.Offset + std::max<uint64_t>(A.Size, 1);
      // Two parts of one embedded member (a lock's words, a work item's list link and data)
      // are judged where that member's record is declared, once, not again in every record
      // that embeds it.
      bool OneEmbeddedObject = A.Top == B.Top && A.Top != A.Leaf && B.Top != B.Leaf;
      if (B.Offset < AEnd || OneEmbeddedObject || !mayShareWindow(AEnd, B.Offset, Window, RecordAlign) ||
          Model.usedTogether(A, B))
        continue;
      // A member beside an embedded object shares with the object: one finding, not one per
      // part of it.
      bool Reported = std::any_of(Pairs.begin(), Pairs.end(), [&](const SharingPair &P) {
        return P.First.Top == A.Top && P.Second.Top == B.Top;
      });
      if (!Reported)
        Pairs.push_back({A, B});
      break;
    }
  }
  return Pairs;
}

} // namespace lockwright
