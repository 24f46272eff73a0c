// Small helpers shared by the checks' messages and fix-its.
#ifndef LOCKWRIGHT_TOOL_CHECK_ANALYSIS_DESCRIBE_H
#define LOCKWRIGHT_TOOL_CHECK_ANALYSIS_DESCRIBE_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/PrettyPrinter.h"
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

/// A record as clang names it in diagnostics, for messages: "struct stats", "Ring<char, 3>",
/// "struct (anonymous struct at q.c:3:5)", a typedef's name for an anonymous record it names.
/// (recordLabel stays the key: it does not depend on how a file's path was spelled.)
inline std::string recordDisplayName(const clang::RecordDecl *R) {
  if (R->getName().empty())
    if (const clang::TypedefNameDecl *TD = R->getTypedefNameForAnonDecl())
      return TD->getNameAsString();
  const clang::ASTContext &AST = R->getASTContext();
  clang::PrintingPolicy Policy(AST.getLangOpts());
  Policy.AnonymousTagLocations = true;
  Policy.SuppressScope = false;
  return AST.getRecordType(R).getAsString(Policy);
}

/// Whether a fix-it may edit the source at Loc: spelled in a file, not inside a macro.
inline bool editable(const clang::SourceManager &SM, clang::SourceLocation Loc) {
  return Loc.isValid() && Loc.isFileID() && !SM.isInSystemHeader(Loc);
}

} // namespace lockwright

#endif
