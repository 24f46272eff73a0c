// Bytes as --sample-profile's file (perf script output or folded stacks). An accepted profile
// has samples, and no function is on more samples' stacks than there are samples.
#include "summary/SampleProfile.h"

#include <cstdint>

using namespace lockwright;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Error;
  std::optional<SampleProfile> Profile =
      readSampleProfile(std::string_view(reinterpret_cast<const char *>(Data), Size), Error);
  if (!Profile) {
    if (Error.empty())
      __builtin_trap(); // refused without saying why
    return 0;
  }
  if (Profile->Samples == 0)
    __builtin_trap();
  for (const auto &[Function, Samples] : Profile->Inclusive)
    if (Function.empty() || Samples == 0 || Samples > Profile->Samples)
      __builtin_trap();
  return 0;
}
