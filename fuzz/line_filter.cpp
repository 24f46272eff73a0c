// Bytes as --line-filter's JSON ([{"name": "file.c", "lines": [[1, 3]]}], clang-tidy's format).
#include "output/LineFilter.h"

#include <cstdint>

using namespace lockwright;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Error;
  std::optional<LineFilter> Filter = parseLineFilter(std::string(reinterpret_cast<const char *>(Data), Size), Error);
  if (!Filter && Error.empty())
    __builtin_trap(); // refused without saying why
  return 0;
}
