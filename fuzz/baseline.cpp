// Bytes as a --baseline file (a SARIF log lockwright or another tool wrote): the fingerprints it
// holds are read, or the file is refused with a reason.
#include "output/Sarif.h"

#include <cstdint>

using namespace lockwright;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Error;
  std::optional<std::set<std::string>> Fingerprints =
      readBaseline(std::string(reinterpret_cast<const char *>(Data), Size), Error);
  if (!Fingerprints && Error.empty())
    __builtin_trap(); // refused without saying why
  return 0;
}
