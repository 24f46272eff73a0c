#include "barrier/MissingReleaseCheck.h"

#include <set>

namespace lockwright {

void MissingReleaseCheck::judge(OrderingModel &Model) {
  std::set<const OrderingEvent *> Reported;
  for (const OrderingPair &P : Model.pairs()) {
    const OrderingEvent &Publish = P.Writer->Events[P.Publish];
    const OrderingEvent &Guard = P.Reader->Events[P.Guard];
    // The reader's care is the evidence that the location is a flag.
    if (plainOnBothSides(P) || Reported.count(&Publish) || !readerCares(context(), P) ||
        !Model.intendsSynchronisation(P) || writerOrdered(context(), P) || misplacedWriteBarrier(context(), P))
      continue;
    Reported.insert(&Publish);
    // Both inside one callee: the callee's own body reports it, once, not each of its callers.
    const OrderingEvent &Data = P.Writer->Events[P.LastDataStore];
    if (Publish.Inlined && Data.Inlined && Publish.Range == Data.Range)
      continue;
    std::vector<CheckContext::Note> Notes = {
        {Data.At, "the store to '" + Data.LocationText + "' it publishes"},
        {Guard.At, "paired with this load of '" + Guard.LocationText + "' in " + functionLabel(*P.Reader) +
                        ", which then " + (P.DataLoads.empty() ? "writes " : "reads ") + quotedList(P.Data)}};
    if (std::string Hw = hardwareNote(context(), true); !Hw.empty())
      Notes.push_back({Publish.At, Hw});
    // Message passing (the reader loads the data), or S (the reader stores through the pointer
    // it loaded, and the writer's late store can overwrite that).
    report(Publish.At,
           P.DataLoads.empty()
               ? "%0 publishes '%1' after the stores to %2 with no release ordering: they may land after a thread "
                 "that saw the new '%1' wrote %2, and overwrite it"
               : "%0 publishes '%1' after the stores to %2 with no release ordering: a reader that sees the new '%1' "
                 "may still read the old %2",
           {describeEvent(Publish), Publish.LocationText, quotedList(P.Data)}, Notes,
           strengthenFix(context(), Publish, ApiNames::MemoryOrder::Release));
  }
}

} // namespace lockwright
