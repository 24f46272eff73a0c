// What the fuzz targets share: a private scratch directory for inputs that the code under test
// reads from files (specs are found by path, `inherits:` next to them).
#ifndef LOCKWRIGHT_FUZZ_FUZZSUPPORT_H
#define LOCKWRIGHT_FUZZ_FUZZSUPPORT_H

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace lockwright::fuzz {

/// A directory of this process's own, made once (libFuzzer's -fork and -jobs run several).
inline const std::string &scratchDir() {
  static const std::string Dir = [] {
    const char *Tmp = std::getenv("TMPDIR");
    std::string Template = std::string(Tmp && *Tmp ? Tmp : "/tmp") + "/lockwright-fuzz-XXXXXX";
    if (!mkdtemp(Template.data())) {
      std::perror("lockwright fuzz: mkdtemp");
      std::abort();
    }
    return Template;
  }();
  return Dir;
}

/// Writes Bytes to Path, replacing it; aborts when it cannot (the harness, not the input, failed).
inline void writeWhole(const std::string &Path, const uint8_t *Data, size_t Size) {
  FILE *F = std::fopen(Path.c_str(), "wb");
  if (!F || std::fwrite(Data, 1, Size, F) != Size || std::fclose(F) != 0) {
    std::perror(Path.c_str());
    std::abort();
  }
}

} // namespace lockwright::fuzz

#endif
