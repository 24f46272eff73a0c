// Bytes as a `lockwright tune` recording (--probe-results FILE): what --raw wrote, hand-edited,
// cut short or not a recording at all. A recording tune accepts must judge into an overlay that
// resolves through the schema (tune calls a failure there its own bug), and its figures must
// write out as a recording that reads back to the same text.
#include "FuzzSupport.h"
#include "tune/TuneAnalysis.h"

#include <fstream>

using namespace lockwright;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  TuneReport Report;
  std::string Error;
  if (!parseProbeRows(std::string(reinterpret_cast<const char *>(Data), Size), Report.Samples, &Report.Machine,
                      Error)) {
    if (Error.empty())
      __builtin_trap(); // refused without saying why
    return 0;
  }
  if (!Report.Samples.Complete || Report.Machine.Arch.empty() || Report.Machine.CpuModel.empty())
    return 0; // what tune refuses before judging
  std::string Text = probeRowsText(Report.Samples, Report.Machine);
  TuneReport Again;
  if (!parseProbeRows(Text, Again.Samples, &Again.Machine, Error) ||
      probeRowsText(Again.Samples, Again.Machine) != Text) {
    std::fprintf(stderr, "a recording written out does not read back the same: %s\n", Error.c_str());
    std::abort();
  }
  // Judged against a fixed spec (the recording's arch name is free text here).
  static SpecRepository Repo({LOCKWRIGHT_FUZZ_SPEC_DIR});
  DiagnosticList Diags;
  static std::optional<ResolvedSpec> Spec = Repo.resolve("x86_64", "", Diags);
  const ArchModel &M = Spec->model();
  Report.Cited = {"x86_64", "", static_cast<unsigned>(M.Cache.L1Line.Value),
                  static_cast<unsigned>(M.Cache.Destructive.Value), M.Cache.Destructive.Source,
                  M.Cache.L1Line.Source, M.DefaultLock.Value, M.DefaultLock.Source, M.Counter.Value,
                  M.Counter.Source};
  decideAll(Report);
  std::string Path = fuzz::scratchDir() + "/tuned.yaml";
  std::ofstream(Path, std::ios::binary | std::ios::trunc) << renderOverlay(Report, "tuned");
  SpecRepository Fresh({LOCKWRIGHT_FUZZ_SPEC_DIR}); // no cached file from the last input
  DiagnosticList OverlayDiags;
  if (!Fresh.resolveFile(Path, "", OverlayDiags)) {
    OverlayDiags.print(stderr);
    std::abort();
  }
  (void)renderComparison(Report);
  return 0;
}
