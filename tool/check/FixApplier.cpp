#include "FixApplier.h"

#include "FileIO.h"
#include "summary/Summary.h"

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <map>
#include <set>
#include <tuple>

using namespace clang;

namespace lockwright {

namespace {

/// An exclusive flock on a file's directory, held for one read-fix-rename: the rename
/// replaces the file's inode, so the file itself cannot carry the lock.
class DirectoryLock {
public:
  explicit DirectoryLock(const std::string &File) {
    llvm::SmallString<256> Dir(File);
    llvm::sys::path::remove_filename(Dir);
    if (Dir.empty())
      Dir = ".";
    Fd = ::open(Dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (Fd >= 0)
      while (::flock(Fd, LOCK_EX) != 0 && errno == EINTR) {
      }
  }
  ~DirectoryLock() {
    if (Fd >= 0)
      ::close(Fd); // releases the lock
  }
  DirectoryLock(const DirectoryLock &) = delete;
  DirectoryLock &operator=(const DirectoryLock &) = delete;

private:
  int Fd = -1;
};

} // namespace

int applyFixes(const std::vector<tooling::Replacement> &All, const ParsedHashFn &ParsedHash) {
  std::map<std::string, std::vector<tooling::Replacement>> ByFile;
  for (const tooling::Replacement &R : All)
    ByFile[R.getFilePath().str()].push_back(R);
  int Failures = 0;
  for (auto &[File, List] : ByFile) {
    tooling::Replacements Merged;
    bool Conflict = false;
    std::set<std::tuple<unsigned, unsigned, std::string>> Unique;
    std::map<unsigned, std::string> Insertions;
    for (const tooling::Replacement &R : List) {
      if (!Unique.insert({R.getOffset(), R.getLength(), R.getReplacementText().str()}).second)
        continue;
      // Two different insertions at one point (alignas(64) and alignas(128) from two
      // architectures) would both land: for us that is a conflict, not a merge.
      if (R.getLength() == 0) {
        auto [It, New] = Insertions.emplace(R.getOffset(), R.getReplacementText().str());
        if (!New && It->second != R.getReplacementText()) {
          Conflict = true;
          break;
        }
      }
      if (llvm::Error E = Merged.add(R)) {
        llvm::consumeError(std::move(E));
        Conflict = true;
        break;
      }
    }
    if (Conflict) {
      llvm::errs() << "lockwright: fixes for " << File << " conflict; none applied\n";
      ++Failures;
      continue;
    }
    // The fix replaces the file through a rename, which the directory allows even where the file
    // itself is read-only (or another user's, which would then become ours): ask the file.
    if (::access(File.c_str(), W_OK) != 0) {
      llvm::errs() << "lockwright: cannot fix " << File << ": " << std::strerror(errno) << "; its fixes were not applied\n";
      ++Failures;
      continue;
    }
    DirectoryLock Lock(File);
    std::optional<std::string> Content = readFile(File);
    if (!Content) {
      llvm::errs() << "lockwright: cannot read " << File << "\n";
      ++Failures;
      continue;
    }
    // Another fixer (or an editor) got there first: offsets computed on the old text would
    // land in the wrong place, or add the same fix twice.
    if (std::optional<std::string> Parsed = ParsedHash(File); Parsed && *Parsed != contentHash(*Content)) {
      llvm::errs() << "lockwright: " << File << " changed since it was checked; its fixes were not applied\n";
      ++Failures;
      continue;
    }
    llvm::Expected<std::string> Fixed = tooling::applyAllReplacements(*Content, Merged);
    if (!Fixed) {
      llvm::errs() << "lockwright: cannot apply fixes to " << File << ": " << llvm::toString(Fixed.takeError())
                   << "\n";
      ++Failures;
      continue;
    }
    std::string Error;
    if (writeFileIfChanged(File, *Fixed, Error) == WriteOutcome::Failed) {
      llvm::errs() << "lockwright: " << Error << "\n";
      ++Failures;
      continue;
    }
    llvm::errs() << "lockwright: applied " << Merged.size() << " fix" << (Merged.size() == 1 ? "" : "es") << " to "
                 << File << "\n";
  }
  return Failures;
}

} // namespace lockwright
