// Files in and out, shared by the generator and the checker: reading a whole file, and
// writing one atomically, leaving an unchanged file untouched so build systems see no
// spurious change.
#ifndef LOCKWRIGHT_SUPPORT_FILEIO_H
#define LOCKWRIGHT_SUPPORT_FILEIO_H

#include <optional>
#include <string>

namespace lockwright {

/// The whole file as bytes, or nullopt when it cannot be opened (errno says why).
std::optional<std::string> readFile(const std::string &Path);

enum class WriteOutcome { Unchanged, Written, Failed };

/// Creates parent directories as needed; writes to a temporary file in the
/// same directory and renames it over Path, so readers never see a partial file.
WriteOutcome writeFileIfChanged(const std::string &Path, const std::string &Content, std::string &Error);

} // namespace lockwright

#endif // LOCKWRIGHT_SUPPORT_FILEIO_H
