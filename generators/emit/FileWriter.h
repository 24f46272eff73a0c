// Writes generated files atomically, leaving unchanged files untouched so
// build systems see no spurious change.
#ifndef LOCKWRIGHT_GENERATORS_EMIT_FILEWRITER_H
#define LOCKWRIGHT_GENERATORS_EMIT_FILEWRITER_H

#include <string>

namespace lockwright {

enum class WriteOutcome { Unchanged, Written, Failed };

/// Creates parent directories as needed; writes to a temporary file in the
/// same directory and renames it over Path, so readers never see a partial file.
WriteOutcome writeFileIfChanged(const std::string &Path, const std::string &Content, std::string &Error);

} // namespace lockwright

#endif
