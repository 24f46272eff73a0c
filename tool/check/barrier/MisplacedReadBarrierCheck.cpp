#include "barrier/MisplacedReadBarrierCheck.h"

#include <set>

namespace lockwright {

void MisplacedReadBarrierCheck::judge(OrderingModel &Model) {
  std::set<const OrderingEvent *> Reported;
  for (const OrderingPair &P : Model.pairs()) {
    std::optional<size_t> B = misplacedReadBarrier(context(), P);
    if (!B || !writerCares(context(), P) || !Model.intendsSynchronisation(P))
      continue;
    const OrderingEvent &Barrier = P.Reader->Events[*B];
    const OrderingEvent &Guard = P.Reader->Events[P.Guard];
    if (Reported.count(&Barrier))
      continue;
    Reported.insert(&Barrier);
    bool Before = *B < P.Guard;
    const OrderingEvent &Data = P.Reader->Events[P.FirstDataLoad];
    std::vector<CheckContext::Note> Notes = {
        {Guard.At, "the guarding load of '" + Guard.LocationText + "'"},
        {Data.At, "the load of '" + Data.LocationText + "' it must be ordered before"},
        {P.Writer->Events[P.Publish].At, "paired with this store to '" + Guard.LocationText + "' in " +
                                             functionLabel(*P.Writer)}};
    report(Barrier.At,
           "%0 stands %1, so it does not order the load of '%2' before the loads of %3; move it between them",
           {describeEvent(Barrier), Before ? "before the guarding load" : "after the loads it should order",
            Guard.LocationText, quotedList(P.Data)},
           Notes, moveBarrierFix(context(), *P.Reader, Barrier, Data, Guard.Range.getEnd()));
  }
}

} // namespace lockwright
