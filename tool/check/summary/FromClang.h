// Clang locations and fix-its as summary data (absolute paths, lines, columns, byte offsets),
// and back: what lets a finding outlive its TU's AST (the cache, the reduce step).
#ifndef LOCKWRIGHT_TOOL_CHECK_SUMMARY_FROMCLANG_H
#define LOCKWRIGHT_TOOL_CHECK_SUMMARY_FROMCLANG_H

#include "summary/Summary.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"

namespace clang {
class LangOptions;
class SourceManager;
} // namespace clang

namespace lockwright {

/// The absolute, real path of a file of the TU ("./x.h" in a database names different files in
/// different directories).
std::string filePath(const clang::SourceManager &SM, clang::FileID File);
/// Where Loc is written in a file (a macro's expansion site, as clang prints it).
SourcePoint pointOf(const clang::SourceManager &SM, clang::SourceLocation Loc);
/// The replacement a fix-it makes, in file bytes.
Edit editOf(const clang::SourceManager &SM, const clang::FixItHint &Fix, const clang::LangOptions &LO);

} // namespace lockwright

#endif
