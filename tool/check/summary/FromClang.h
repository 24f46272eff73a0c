// Clang locations and fix-its as summary data (absolute paths, lines, columns, byte offsets),
// and back: what lets a finding outlive its TU's AST (the cache, the reduce step).
#ifndef LOCKWRIGHT_TOOL_CHECK_SUMMARY_FROMCLANG_H
#define LOCKWRIGHT_TOOL_CHECK_SUMMARY_FROMCLANG_H

#include "summary/Summary.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"

namespace clang {
class FileEntryRef;
class FileManager;
class LangOptions;
class SourceManager;
} // namespace clang

namespace lockwright {

/// Writes paths under Root (an absolute, normalised directory) relative to it, and files as
/// the compiler opened them, symbolic links not resolved (--relative-paths): summaries that do
/// not depend on where the tree lies (Bazel's sandboxes, remote executors, a second clone).
/// Empty (the default): absolute real paths. Set before any TU is parsed.
void setRelativePathRoot(const std::string &Root);
/// Path (absolute and normalised) as summaries write it: relative to the root where one is set
/// and Path lies under it ("." for the root itself), else unchanged.
std::string summaryPath(const std::string &Path);
/// The absolute, real path of a file of the TU ("./x.h" in a database names different files in
/// different directories), or its path under the root set by setRelativePathRoot.
std::string filePath(const clang::SourceManager &SM, clang::FileID File);
/// The same for a file entry of the TU's file manager.
std::string filePath(clang::FileManager &Files, clang::FileEntryRef Entry);
/// Where Loc is written in a file (a macro's expansion site, as clang prints it).
SourcePoint pointOf(const clang::SourceManager &SM, clang::SourceLocation Loc);
/// The replacement a fix-it makes, in file bytes.
Edit editOf(const clang::SourceManager &SM, const clang::FixItHint &Fix, const clang::LangOptions &LO);

} // namespace lockwright

#endif
