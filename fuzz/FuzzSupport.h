// What the fuzz targets share: a private scratch directory for inputs that the code under test
// reads from files (specs are found by path, `inherits:` next to them).
#ifndef LOCKWRIGHT_FUZZ_FUZZSUPPORT_H
#define LOCKWRIGHT_FUZZ_FUZZSUPPORT_H

#include "spec/SpecLoader.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
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

/// The input in a file of its own name: a spec repository caches what it read by path, so the
/// shipped specs an input inherits are parsed once, and each input is read fresh. Removed after.
class FreshFile {
public:
  FreshFile(const uint8_t *Data, size_t Size) {
    static unsigned long Count = 0;
    Path = scratchDir() + "/input-" + std::to_string(++Count) + ".yaml";
    writeWhole(Path, Data, Size);
  }
  ~FreshFile() { ::unlink(Path.c_str()); }
  const std::string &path() const { return Path; }

private:
  std::string Path;
};

/// A repository of the shipped specs, renewed now and then so the inputs it cached do not pile up.
inline SpecRepository &sharedRepository() {
  static std::unique_ptr<SpecRepository> Repo;
  static unsigned Uses = 0;
  if (!Repo || ++Uses % 256 == 0)
    Repo = std::make_unique<SpecRepository>(std::vector<std::string>{LOCKWRIGHT_FUZZ_SPEC_DIR});
  return *Repo;
}

} // namespace lockwright::fuzz

#endif
