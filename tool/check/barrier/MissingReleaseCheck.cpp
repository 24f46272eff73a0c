#include "barrier/MissingReleaseCheck.h"

#include <set>

namespace lockwright {

void MissingReleaseCheck::judge(OrderingModel &Model) {
  std::set<const OrderingEvent *> Reported;
  for (const OrderingPair &P : Model.pairs()) {
    const OrderingEvent &Publish = P.Writer->Events[P.Publish];
    const OrderingEvent &Guard = P.Reader->Events[P.Guard];
    if (Reported.count(&Publish) || !Model.intendsSynchronisation(P) ||
        storesOrderedBetween(*P.Writer, P.LastDataStore, P.Publish) || misplacedWriteBarrier(P))
      continue;
    Reported.insert(&Publish);
    const OrderingEvent &Data = P.Writer->Events[P.LastDataStore];
    std::vector<CheckContext::Note> Notes = {
        {Data.At, "the store to '" + Data.LocationText + "' it publishes"},
        {Guard.At, "paired with this load of '" + Guard.LocationText + "' in " + functionLabel(*P.Reader) +
                        ", which then " + (P.DataLoads.empty() ? "writes " : "reads ") + quotedList(P.Data)}};
    if (std::string Hw = hardwareNote(context(), true); !Hw.empty())
      Notes.push_back({Publish.At, Hw});
    report(Publish.At,
           "%0 publishes '%1' after the stores to %2 with no release ordering: a reader that sees the new '%1' may "
           "still %3 %2",
           {describeEvent(Publish), Publish.LocationText, quotedList(P.Data),
            P.DataLoads.empty() ? "have its own stores to" : "read the old"}, Notes,
           strengthenFix(context(), Publish, ApiNames::MemoryOrder::Release));
  }
}

} // namespace lockwright
