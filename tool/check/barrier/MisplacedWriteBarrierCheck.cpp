#include "barrier/MisplacedWriteBarrierCheck.h"

#include <set>

namespace lockwright {

void MisplacedWriteBarrierCheck::judge(OrderingModel &Model) {
  std::set<const OrderingEvent *> Reported;
  for (const OrderingPair &P : Model.pairs()) {
    std::optional<size_t> B = misplacedWriteBarrier(context(), P);
    if (!B || !readerCares(context(), P) || !Model.intendsSynchronisation(P))
      continue;
    const OrderingEvent &Barrier = P.Writer->Events[*B];
    const OrderingEvent &Publish = P.Writer->Events[P.Publish];
    if (Reported.count(&Barrier))
      continue;
    Reported.insert(&Barrier);
    bool After = *B > P.Publish;
    const OrderingEvent &Data = P.Writer->Events[P.LastDataStore];
    std::vector<CheckContext::Note> Notes = {
        {Publish.At, "the publishing store to '" + Publish.LocationText + "'"},
        {Data.At, "the store to '" + Data.LocationText + "' it must be ordered after"},
        {P.Reader->Events[P.Guard].At, "paired with this load of '" + Publish.LocationText + "' in " +
                                           functionLabel(*P.Reader)}};
    report(Barrier.At,
           "%0 stands %1, so it does not order the stores to %2 before the publishing store to '%3'; move it "
           "between them",
           {describeEvent(Barrier), After ? "after the publishing store" : "before the stores it should order",
            quotedList(P.Data), Publish.LocationText},
           Notes, moveBarrierFix(context(), *P.Writer, Barrier, Publish, Data.Range.getEnd()));
  }
}

} // namespace lockwright
