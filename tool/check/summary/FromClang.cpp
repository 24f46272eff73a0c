#include "summary/FromClang.h"

#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace lockwright {

namespace {
std::string &relativeRoot() {
  static std::string Root;
  return Root;
}
} // namespace

void setRelativePathRoot(const std::string &Root) { relativeRoot() = Root; }

std::string summaryPath(const std::string &Path) {
  const std::string &Root = relativeRoot();
  if (Root.empty())
    return Path;
  if (Path == Root)
    return ".";
  if (Path.size() > Root.size() && Path.compare(0, Root.size(), Root) == 0 && Path[Root.size()] == '/')
    return Path.substr(Root.size() + 1);
  return Path;
}

std::string filePath(FileManager &Files, FileEntryRef Entry) {
  if (relativeRoot().empty()) {
    llvm::StringRef Real = Entry.getFileEntry().tryGetRealPathName();
    if (!Real.empty())
      return Real.str();
  }
  // As opened (against the command's directory), without resolving links: a sandbox links its
  // inputs to files elsewhere.
  llvm::SmallString<256> Path(Entry.getName());
  Files.makeAbsolutePath(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return summaryPath(Path.str().str());
}

std::string filePath(const SourceManager &SM, FileID File) {
  OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
  if (!Entry)
    return SM.getBufferName(SM.getLocForStartOfFile(File)).str(); // <built-in>, <command line>
  return filePath(SM.getFileManager(), *Entry);
}

SourcePoint pointOf(const SourceManager &SM, SourceLocation Loc) {
  SourcePoint P;
  if (Loc.isInvalid())
    return P;
  SourceLocation File = SM.getFileLoc(Loc);
  std::pair<FileID, unsigned> Pos = SM.getDecomposedLoc(File);
  P.File = filePath(SM, Pos.first);
  P.Line = SM.getLineNumber(Pos.first, Pos.second);
  P.Column = SM.getColumnNumber(Pos.first, Pos.second);
  return P;
}

Edit editOf(const SourceManager &SM, const FixItHint &Fix, const LangOptions &LO) {
  tooling::Replacement R(SM, Fix.RemoveRange, Fix.CodeToInsert, LO);
  Edit E;
  E.File = filePath(SM, SM.getFileID(SM.getFileLoc(Fix.RemoveRange.getBegin())));
  E.Offset = R.getOffset();
  E.Length = R.getLength();
  E.Text = R.getReplacementText().str();
  return E;
}

} // namespace lockwright
