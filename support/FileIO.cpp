#include "FileIO.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace lockwright {

std::optional<std::string> readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return std::nullopt;
  std::ostringstream Buffer;
  Buffer << In.rdbuf();
  return Buffer.str();
}

static bool sameContent(const std::string &Path, const std::string &Content) {
  std::optional<std::string> Old = readFile(Path);
  return Old && *Old == Content;
}

WriteOutcome writeFileIfChanged(const std::string &Path, const std::string &Content, std::string &Error) {
  if (sameContent(Path, Content))
    return WriteOutcome::Unchanged;
  fs::path Target(Path);
  std::error_code EC;
  if (Target.has_parent_path())
    fs::create_directories(Target.parent_path(), EC);
  if (EC) {
    Error = "cannot create directory " + Target.parent_path().string() + ": " + EC.message();
    return WriteOutcome::Failed;
  }
  std::string Temp = (Target.has_parent_path() ? Target.parent_path() / "" : fs::path()).string() + "." +
                     Target.filename().string() + ".tmpXXXXXX";
  int FD = mkstemp(Temp.data());
  if (FD < 0) {
    Error = "cannot create temporary file for " + Path + ": " + std::strerror(errno);
    return WriteOutcome::Failed;
  }
  const char *Data = Content.data();
  size_t Left = Content.size();
  while (Left > 0) {
    ssize_t N = ::write(FD, Data, Left);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      Error = "cannot write " + Temp + ": " + std::strerror(errno);
      ::close(FD);
      ::unlink(Temp.c_str());
      return WriteOutcome::Failed;
    }
    Data += N;
    Left -= static_cast<size_t>(N);
  }
  // mkstemp creates 0600; generated headers should be readable like any source file.
  ::fchmod(FD, 0644);
  if (::close(FD) != 0 || std::rename(Temp.c_str(), Path.c_str()) != 0) {
    Error = "cannot replace " + Path + ": " + std::strerror(errno);
    ::unlink(Temp.c_str());
    return WriteOutcome::Failed;
  }
  return WriteOutcome::Written;
}

} // namespace lockwright
