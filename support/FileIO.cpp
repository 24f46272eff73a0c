#include "FileIO.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <pthread.h>
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

/// "a directory", "a FIFO", ...: what a path that is not a regular file is.
static std::string fileKind(mode_t Mode) {
  return S_ISREG(Mode)    ? "a regular file"
         : S_ISDIR(Mode)  ? "a directory"
         : S_ISFIFO(Mode) ? "a FIFO"
         : S_ISCHR(Mode)  ? "a character device"
         : S_ISBLK(Mode)  ? "a block device"
                          : "a socket";
}

std::optional<std::string> regularOutputPath(const std::string &Path, std::string &Error) {
  struct stat Link;
  if (::lstat(Path.c_str(), &Link) != 0)
    return Path; // a new file (a missing directory is the writer's to report)
  std::string Target = Path;
  if (S_ISLNK(Link.st_mode)) {
    // Written through: the link stays a link, its target gets the content.
    std::error_code EC;
    fs::path Resolved = fs::canonical(Path, EC);
    if (EC) {
      Error = Path + " is a symbolic link to nothing (" + EC.message() + "); not written";
      return std::nullopt;
    }
    Target = Resolved.string();
  }
  struct stat Status;
  if (::stat(Target.c_str(), &Status) == 0 && !S_ISREG(Status.st_mode)) {
    Error = Path + " is not a regular file (" + fileKind(Status.st_mode) + "); outputs are written to regular files only";
    return std::nullopt;
  }
  return Target;
}

bool writeStdout(const std::string &Text, std::string &Error) {
  std::clearerr(stdout);
  if (std::fwrite(Text.data(), 1, Text.size(), stdout) != Text.size() || std::fflush(stdout) != 0 ||
      std::ferror(stdout)) {
    Error = std::string("cannot write to stdout: ") + std::strerror(errno);
    return false;
  }
  return true;
}

namespace {

/// Writes Content to a new temporary beside Path (created 0600, given Path's mode or 0644).
std::optional<std::string> writeTemporary(const std::string &Path, const std::string &Content, std::string &Error) {
  fs::path Target(Path);
  std::error_code EC;
  // An output directory named where a file or a device is (-o FILE): said as such, not as
  // "cannot create directory: Not a directory".
  for (fs::path Dir = Target.parent_path(); !Dir.empty() && Dir != Dir.root_path(); Dir = Dir.parent_path()) {
    struct stat Status;
    if (::stat(Dir.c_str(), &Status) != 0)
      continue;
    if (!S_ISDIR(Status.st_mode)) {
      Error = Dir.string() + " is not a directory (" + fileKind(Status.st_mode) + "); name a directory for the output";
      return std::nullopt;
    }
    break;
  }
  if (Target.has_parent_path())
    fs::create_directories(Target.parent_path(), EC);
  if (EC) {
    Error = "cannot create directory " + Target.parent_path().string() + ": " + EC.message();
    return std::nullopt;
  }
  std::string Temp = (Target.has_parent_path() ? Target.parent_path() / "" : fs::path()).string() + "." +
                     Target.filename().string() + ".tmpXXXXXX";
  int FD = mkstemp(Temp.data());
  if (FD < 0) {
    Error = "cannot create temporary file for " + Path + ": " + std::strerror(errno);
    return std::nullopt;
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
      return std::nullopt;
    }
    Data += N;
    Left -= static_cast<size_t>(N);
  }
  struct stat Old;
  ::fchmod(FD, ::stat(Path.c_str(), &Old) == 0 ? (Old.st_mode & 07777) : 0644);
  if (::close(FD) != 0) {
    Error = "cannot write " + Temp + ": " + std::strerror(errno);
    ::unlink(Temp.c_str());
    return std::nullopt;
  }
  return Temp;
}

} // namespace

SignalsDeferred::SignalsDeferred() {
  sigset_t Deferred;
  sigemptyset(&Deferred);
  for (int Signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT})
    sigaddset(&Deferred, Signal);
  static_assert(sizeof(Saved) >= sizeof(sigset_t), "SignalsDeferred::Saved holds a sigset_t");
  pthread_sigmask(SIG_BLOCK, &Deferred, reinterpret_cast<sigset_t *>(Saved));
}

SignalsDeferred::~SignalsDeferred() { pthread_sigmask(SIG_SETMASK, reinterpret_cast<sigset_t *>(Saved), nullptr); }

FileSetOutcome writeFileSet(const std::vector<std::pair<std::string, std::string>> &Files) {
  FileSetOutcome Out;
  SignalsDeferred Deferred;
  std::vector<std::pair<std::string, std::string>> Staged; // (temporary, target)
  size_t Renamed = 0;
  // The directories this call creates (parents first), removed again on failure when empty.
  std::vector<fs::path> Created;
  for (const auto &File : Files) {
    std::error_code EC;
    for (fs::path Dir = fs::path(File.first).parent_path(); !Dir.empty() && !fs::exists(Dir, EC);
         Dir = Dir.parent_path())
      if (std::find(Created.begin(), Created.end(), Dir) == Created.end())
        Created.push_back(Dir);
  }
  std::sort(Created.begin(), Created.end(),
            [](const fs::path &A, const fs::path &B) { return A.native().size() < B.native().size(); });
  auto Fail = [&] {
    for (size_t I = Renamed; I < Staged.size(); ++I)
      ::unlink(Staged[I].first.c_str());
    for (auto It = Created.rbegin(); It != Created.rend(); ++It) {
      std::error_code EC;
      fs::remove(*It, EC); // only removes an empty directory
    }
    return Out;
  };
  for (const auto &[Requested, Content] : Files) {
    std::optional<std::string> Target = regularOutputPath(Requested, Out.Error);
    if (!Target)
      return Fail();
    if (sameContent(*Target, Content)) {
      ++Out.Unchanged;
      continue;
    }
    std::optional<std::string> Temp = writeTemporary(*Target, Content, Out.Error);
    if (!Temp)
      return Fail();
    Staged.emplace_back(*Temp, *Target);
  }
  // Tests interrupt here, with every temporary written and no target replaced yet: the signal
  // waits until the set is complete.
  if (const char *Signal = std::getenv("LOCKWRIGHT_TEST_SIGNAL_AFTER_STAGING"))
    std::raise(std::atoi(Signal));
  // Every new file is on disk: now the renames, which do not fail for want of space.
  for (; Renamed < Staged.size(); ++Renamed)
    if (std::rename(Staged[Renamed].first.c_str(), Staged[Renamed].second.c_str()) != 0) {
      Out.Error = "cannot replace " + Staged[Renamed].second + ": " + std::strerror(errno);
      return Fail();
    }
  Out.Written = static_cast<unsigned>(Staged.size());
  Out.Ok = true;
  return Out;
}

WriteOutcome writeFileIfChanged(const std::string &Requested, const std::string &Content, std::string &Error) {
  SignalsDeferred Deferred; // no temporary left behind by Ctrl-C
  // Devices, FIFOs and directories are refused before anything reads them (/dev/zero would be
  // read to exhaustion, a FIFO would block); a symbolic link is written through.
  std::optional<std::string> Regular = regularOutputPath(Requested, Error);
  if (!Regular)
    return WriteOutcome::Failed;
  const std::string &Path = *Regular;
  if (sameContent(Path, Content))
    return WriteOutcome::Unchanged;
  std::optional<std::string> Temp = writeTemporary(Path, Content, Error);
  if (!Temp)
    return WriteOutcome::Failed;
  if (std::rename(Temp->c_str(), Path.c_str()) != 0) {
    Error = "cannot replace " + Path + ": " + std::strerror(errno);
    ::unlink(Temp->c_str());
    return WriteOutcome::Failed;
  }
  return WriteOutcome::Written;
}

} // namespace lockwright
