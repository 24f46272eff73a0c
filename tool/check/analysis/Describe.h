// Small helpers shared by the checks' messages and fix-its.
#ifndef LOCKWRIGHT_TOOL_CHECK_ANALYSIS_DESCRIBE_H
#define LOCKWRIGHT_TOOL_CHECK_ANALYSIS_DESCRIBE_H

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"

#include <string>

namespace lockwright {

/// "struct stats", "class Foo", or the typedef name of an anonymous record.
inline std::string recordLabel(const clang::RecordDecl *R) {
  std::string Name = R->getNameAsString();
  if (Name.empty())
    if (const clang::TypedefNameDecl *TD = R->getTypedefNameForAnonDecl())
      return TD->getNameAsString();
  return std::string(R->getKindName()) + " " + (Name.empty() ? "(anonymous)" : Name);
}

/// Whether a fix-it may edit the source at Loc: spelled in a file, not inside a macro.
inline bool editable(const clang::SourceManager &SM, clang::SourceLocation Loc) {
  return Loc.isValid() && Loc.isFileID() && !SM.isInSystemHeader(Loc);
}

} // namespace lockwright

#endif
