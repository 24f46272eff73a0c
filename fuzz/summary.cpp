// Bytes as a TU summary file (--summaries DIR, the cache): `lockwright report` and the cache read
// what another run, another version or a full disk left. A summary read back must write out as
// the same bytes it reads as (the format is canonical), and reducing it must not crash.
#include "ProgramRun.h"
#include "summary/Summary.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace lockwright;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Error;
  std::optional<TuSummary> Summary = readSummary(std::string(reinterpret_cast<const char *>(Data), Size), Error);
  if (!Summary) {
    if (Error.empty())
      __builtin_trap(); // refused without saying why
    return 0;
  }
  std::string Written = writeSummary(*Summary);
  std::optional<TuSummary> Again = readSummary(Written, Error);
  if (!Again || writeSummary(*Again) != Written) {
    std::fprintf(stderr, "a summary read back does not write out the same: %s\n", Error.c_str());
    std::abort();
  }
  unsigned Suppressed = 0;
  (void)reduceProgram({&*Summary}, Suppressed);
  return 0;
}
