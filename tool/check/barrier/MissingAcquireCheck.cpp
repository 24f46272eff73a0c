#include "barrier/MissingAcquireCheck.h"

#include <set>

namespace lockwright {

void MissingAcquireCheck::judge(OrderingModel &Model) {
  std::set<const OrderingEvent *> Reported;
  for (const OrderingPair &P : Model.pairs()) {
    const OrderingEvent &Publish = P.Writer->Events[P.Publish];
    const OrderingEvent &Guard = P.Reader->Events[P.Guard];
    // The guard is a load (an RMW that reads is a lock or counter update: judged by its own
    // order where it publishes); the writer's care is the evidence that it is a flag.
    if (Guard.What != OrderingEvent::Kind::Load || plainOnBothSides(P) || P.DataLoads.empty() ||
        Reported.count(&Guard) || !writerCares(context(), P) || !Model.intendsSynchronisation(P) ||
        readerOrdered(context(), P) || misplacedReadBarrier(context(), P))
      continue;
    Reported.insert(&Guard);
    // Both inside one callee: the callee's own body reports it, once, not each of its callers.
    const OrderingEvent &Data = P.Reader->Events[P.FirstDataLoad];
    if (Guard.Inlined && Data.Inlined && Guard.Range == Data.Range)
      continue;
    std::vector<CheckContext::Note> Notes = {
        {Data.At, "the load of '" + Data.LocationText + "' it guards"},
        {Publish.At, "paired with this store to '" + Publish.LocationText + "' in " + functionLabel(*P.Writer) +
                         ", after it writes " + quotedList(P.Data)}};
    if (std::string Hw = hardwareNote(context(), false); !Hw.empty())
      Notes.push_back({Guard.At, Hw});
    report(Guard.At,
           "%0 of '%1' guards the loads of %2 with no acquire ordering: they may read values older than the '%1' "
           "it saw",
           {describeEvent(Guard), Guard.LocationText, quotedList(P.Data)}, Notes,
           strengthenFix(context(), Guard, ApiNames::MemoryOrder::Acquire));
  }
}

} // namespace lockwright
