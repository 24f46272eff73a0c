#include "barrier/MissingReleaseCheck.h"

#include "barrier/ProgramPairs.h"

#include <algorithm>
#include <set>

namespace lockwright {

void MissingReleaseCheck::judge(OrderingModel &Model) {
  exportOrderingSides(context());
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

namespace {

/// The message of a finding at a publishing store: message passing (the reader loads the data),
/// or S (the reader stores through the pointer it loaded, and the writer's late store can
/// overwrite that).
std::string releaseMessage(const std::string &Event, const std::string &Flag, const std::string &Data, bool ReaderLoads) {
  return ReaderLoads ? Event + " publishes '" + Flag + "' after the stores to " + Data +
                           " with no release ordering: a reader that sees the new '" + Flag + "' may still read the old " +
                           Data
                     : Event + " publishes '" + Flag + "' after the stores to " + Data +
                           " with no release ordering: they may land after a thread that saw the new '" + Flag +
                           "' wrote " + Data + ", and overwrite it";
}

} // namespace

void MissingReleaseCheck::judgeProgram(const ProgramSummary &Program, Finding::Level Severity,
                                       std::vector<Finding> &Out, unsigned &Suppressed) {
  std::set<SourcePoint> Reported;
  for (const ProgramPair &P : programPairs(Program)) {
    const OrderingSide &W = *P.Writer, &R = *P.Reader;
    bool ReaderCares = !P.FirstLoad || P.FirstLoad->Deliberate || (!R.Plain && P.dependencyOrders());
    bool Misplaced = std::any_of(W.StrayBarriers.begin(), W.StrayBarriers.end(),
                                 [&](unsigned I) { return !(I > P.FirstStore && I < W.Index); });
    if ((W.Plain && R.Plain) || !ReaderCares || P.LastStore->Ordered || Misplaced || P.LastStore->InOneCallee ||
        !W.Reportable || !Reported.insert(W.At).second)
      continue;
    if (W.Suppressed) {
      ++Suppressed;
      continue;
    }
    Finding F;
    F.Check = "barrier-missing-release";
    F.Severity = Severity;
    F.At = W.At;
    F.Message = releaseMessage(W.Event, W.Text, quotedList(P.Data), P.FirstLoad != nullptr);
    F.Fixes = W.Fixes;
    F.Notes.push_back({P.LastStore->At, "the store to '" + P.LastStore->Text + "' it publishes", {}});
    F.Notes.push_back({R.At,
                       "paired with this load of '" + R.Text + "' in " + R.Label +
                           " (in another translation unit), which then " + (P.FirstLoad ? "reads " : "writes ") +
                           quotedList(P.Data),
                       {}});
    if (!W.HardwareNote.empty())
      F.Notes.push_back({W.At, W.HardwareNote, {}});
    Out.push_back(std::move(F));
  }
}

} // namespace lockwright
