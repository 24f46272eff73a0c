// Files in and out, shared by the generator and the checker: reading a whole file, and
// writing one atomically, leaving an unchanged file untouched so build systems see no
// spurious change.
#ifndef LOCKWRIGHT_SUPPORT_FILEIO_H
#define LOCKWRIGHT_SUPPORT_FILEIO_H

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lockwright {

/// The whole file as bytes, or nullopt when it cannot be opened (errno says why).
std::optional<std::string> readFile(const std::string &Path);

enum class WriteOutcome { Unchanged, Written, Failed };

/// Creates parent directories as needed; writes to a temporary file in the
/// same directory and renames it over Path, so readers never see a partial file. Path must be
/// (or become) a regular file: a device, FIFO or directory is refused unread; a symbolic link is
/// written through (the link stays). A replaced file keeps its permissions.
WriteOutcome writeFileIfChanged(const std::string &Path, const std::string &Content, std::string &Error);

/// Where writing Path lands: Path itself, or a symbolic link's target; nullopt (Error set) when
/// that is not a regular file or the link leads nowhere.
std::optional<std::string> regularOutputPath(const std::string &Path, std::string &Error);

/// While one lives, SIGINT, SIGTERM, SIGHUP and SIGQUIT wait (in the calling thread): a write
/// of several files, or of a temporary and its rename, finishes before the signal ends the
/// process, so outputs are old or new and no temporary is left. Writes are milliseconds;
/// nested guards restore the mask each found.
class SignalsDeferred {
public:
  SignalsDeferred();
  ~SignalsDeferred();
  SignalsDeferred(const SignalsDeferred &) = delete;
  SignalsDeferred &operator=(const SignalsDeferred &) = delete;

private:
  alignas(8) unsigned char Saved[128]; // the sigset_t to restore (kept out of this header)
};

/// A set of files written all or nothing (gen's headers for one architecture): every changed
/// file goes to a temporary beside it first; only when all are written are they renamed into
/// place. A failure leaves every target as it was and no temporary behind; a signal waits until
/// the set is complete (SignalsDeferred). Files whose content is unchanged are not touched.
struct FileSetOutcome {
  bool Ok = false;
  unsigned Written = 0, Unchanged = 0;
  std::string Error;
};
FileSetOutcome writeFileSet(const std::vector<std::pair<std::string, std::string>> &Files);

/// Text to stdout, flushed; false (Error set) when it could not all be written (a full disk, a
/// closed pipe), which a command must not report as success.
bool writeStdout(const std::string &Text, std::string &Error);

} // namespace lockwright

#endif // LOCKWRIGHT_SUPPORT_FILEIO_H
