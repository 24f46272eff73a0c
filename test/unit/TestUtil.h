// Helpers shared by the unit tests: scratch directories and spec text.
#ifndef LOCKWRIGHT_TEST_UNIT_TESTUTIL_H
#define LOCKWRIGHT_TEST_UNIT_TESTUTIL_H

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace lockwright::test {

/// A directory removed when the test ends.
class ScratchDir {
public:
  ScratchDir() {
    std::string Model = (std::filesystem::temp_directory_path() / "lockwright-unit-XXXXXX").string();
    Path = ::mkdtemp(Model.data());
  }
  ~ScratchDir() {
    std::error_code EC;
    std::filesystem::remove_all(Path, EC);
  }
  const std::string &path() const { return Path; }
  std::string write(const std::string &Relative, const std::string &Text) const {
    std::filesystem::path P = std::filesystem::path(Path) / Relative;
    std::filesystem::create_directories(P.parent_path());
    std::ofstream(P, std::ios::binary) << Text;
    return P.string();
  }

private:
  std::string Path;
};

} // namespace lockwright::test

#endif
