// `check --fix`: a file's fixes go in all together, or none of them when two conflict, and
// only into the content they were computed on: concurrent fixers (one process per source, as
// CMake's <LANG>_CLANG_TIDY runs us) take the file's directory lock, and a file that changed
// since it was parsed is left alone.
#ifndef LOCKWRIGHT_TOOL_CHECK_FIXAPPLIER_H
#define LOCKWRIGHT_TOOL_CHECK_FIXAPPLIER_H

#include "clang/Tooling/Core/Replacement.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace lockwright {

/// The content hash a file had when the TU that fixes it was parsed (nullopt: unknown).
using ParsedHashFn = std::function<std::optional<std::string>(const std::string &File)>;

/// Applies each file's fixes all together, or none of them when two conflict or the file no
/// longer has the content they were computed on; written atomically under an exclusive lock
/// on the file's directory. Returns how many files could not be fixed.
int applyFixes(const std::vector<clang::tooling::Replacement> &All, const ParsedHashFn &ParsedHash);

} // namespace lockwright

#endif
