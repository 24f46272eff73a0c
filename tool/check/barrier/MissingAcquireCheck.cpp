#include "barrier/MissingAcquireCheck.h"

#include "barrier/ProgramPairs.h"

#include <algorithm>
#include <set>

namespace lockwright {

void MissingAcquireCheck::judge(OrderingModel &Model) {
  // Both sides, for judgeProgram: the acquire check is the one judged across TUs.
  exportOrderingSides(context());
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

void MissingAcquireCheck::judgeProgram(const ProgramSummary &Program, Finding::Level Severity,
                                       std::vector<Finding> &Out, unsigned &Suppressed) {
  std::set<SourcePoint> Reported;
  for (const ProgramPair &P : programPairs(Program)) {
    const OrderingSide &W = *P.Writer, &R = *P.Reader;
    if (R.Rmw || (W.Plain && R.Plain) || !P.FirstLoad || !P.LastStore->Deliberate)
      continue;
    bool Misplaced = !P.FirstLoad->Ordered &&
                     std::any_of(R.StrayBarriers.begin(), R.StrayBarriers.end(),
                                 [&](unsigned I) { return !(I > R.Index && I < P.FirstLoad->Index); });
    if (P.FirstLoad->Ordered || P.dependencyOrders() || Misplaced || P.FirstLoad->InOneCallee || !R.Reportable ||
        !Reported.insert(R.At).second)
      continue;
    if (R.Suppressed) {
      ++Suppressed;
      continue;
    }
    std::string Data = quotedList(P.Data);
    Finding F;
    F.Check = "barrier-missing-acquire";
    F.Severity = Severity;
    F.At = R.At;
    F.Message = R.Event + " of '" + R.Text + "' guards the loads of " + Data +
                " with no acquire ordering: they may read values older than the '" + R.Text + "' it saw";
    F.Fixes = R.Fixes;
    F.Notes.push_back({P.FirstLoad->At, "the load of '" + P.FirstLoad->Text + "' it guards", {}});
    F.Notes.push_back({W.At,
                       "paired with this store to '" + W.Text + "' in " + W.Label +
                           " (in another translation unit), after it writes " + Data,
                       {}});
    if (!R.HardwareNote.empty())
      F.Notes.push_back({R.At, R.HardwareNote, {}});
    Out.push_back(std::move(F));
  }
}

} // namespace lockwright
