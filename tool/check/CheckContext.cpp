#include "CheckContext.h"

#include "Glob.h"
#include "analysis/Describe.h"
#include "summary/FromClang.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>

using namespace clang;

namespace lockwright {

const char *const NolintCheckName = "lockwright-nolint";
const char *const TimeoutCheckName = "lockwright-timeout";

std::string TargetFacts::label() const { return Cpu.empty() ? Arch : Arch + " (cpu " + Cpu + ")"; }

std::string CheckOptions::get(const std::string &Check, const std::string &Option, const std::string &Default) const {
  auto It = PerCheck.find(Check + "." + Option);
  return It == PerCheck.end() ? Default : It->second;
}

bool CheckOptions::getBool(const std::string &Check, const std::string &Option, bool Default) const {
  auto It = PerCheck.find(Check + "." + Option);
  return It == PerCheck.end() ? Default : It->second == "true" || It->second == "1";
}

CheckContext::CheckContext(ASTContext &AST, const SyncModel &Model, const TargetFacts &Target,
                           const CheckOptions &Options, TuSummary &Out, OrderingModel *Ordering)
    : AST(AST), Model(Model), Target(Target), Options(Options), ErrorFilter(Options.WarningsAsErrors), Out(Out),
      Ordering(Ordering) {
  // The driver validated both expressions before any TU ran.
  // Empty, as in clang-tidy: no header (for the filter), none excluded (for the exclusion).
  if (Options.HeaderFilter)
    HeaderFilter.emplace(Options.HeaderFilter->empty() ? "^$" : *Options.HeaderFilter);
  if (Options.ExcludeHeaderFilter && !Options.ExcludeHeaderFilter->empty())
    ExcludeHeaderFilter.emplace(*Options.ExcludeHeaderFilter);
}

std::string formatMessage(llvm::StringRef Format, llvm::ArrayRef<std::string> Args) {
  std::string Out;
  for (size_t I = 0; I < Format.size(); ++I) {
    char C = Format[I];
    if (C == '%' && I + 1 < Format.size()) {
      char Next = Format[I + 1];
      if (Next == '%') {
        Out += '%';
        ++I;
        continue;
      }
      if (Next >= '0' && Next <= '9' && static_cast<size_t>(Next - '0') < Args.size()) {
        Out += Args[Next - '0'];
        ++I;
        continue;
      }
    }
    Out += C;
  }
  return Out;
}

const LangOptions &CheckContext::langOpts() const { return AST.getLangOpts(); }

bool CheckContext::inUserCode(SourceLocation Loc) const {
  const SourceManager &SM = AST.getSourceManager();
  if (Loc.isInvalid())
    return false;
  SourceLocation File = SM.getFileLoc(Loc);
  return (Options.SystemHeaders || !SM.isInSystemHeader(File)) && !SM.isWrittenInBuiltinFile(File) &&
         !SM.isWrittenInCommandLineFile(File);
}

bool CheckContext::inReportedFile(SourceLocation Loc) const {
  const SourceManager &SM = AST.getSourceManager();
  SourceLocation File = SM.getFileLoc(Loc);
  if (SM.isInMainFile(File))
    return true;
  OptionalFileEntryRef Entry = SM.getFileEntryRefForID(SM.getFileID(File));
  StringRef Path = Entry ? Entry->getName() : StringRef();
  if (HeaderFilter && !HeaderFilter->match(Path))
    return false;
  return !(ExcludeHeaderFilter && ExcludeHeaderFilter->match(Path));
}

/// The text of the line holding Loc, and of the line before it.
static std::pair<StringRef, StringRef> lineAndPrevious(const SourceManager &SM, SourceLocation Loc) {
  std::pair<FileID, unsigned> Pos = SM.getDecomposedLoc(SM.getFileLoc(Loc));
  bool Invalid = false;
  StringRef Buffer = SM.getBufferData(Pos.first, &Invalid);
  if (Invalid)
    return {};
  size_t Start = Pos.second;
  while (Start > 0 && Buffer[Start - 1] != '\n')
    --Start;
  size_t End = Buffer.find('\n', Pos.second);
  StringRef Line = Buffer.slice(Start, End == StringRef::npos ? Buffer.size() : End);
  StringRef Previous;
  if (Start > 0) {
    size_t PrevEnd = Start - 1, PrevStart = PrevEnd;
    while (PrevStart > 0 && Buffer[PrevStart - 1] != '\n')
      --PrevStart;
    Previous = Buffer.slice(PrevStart, PrevEnd);
  }
  return {Line, Previous};
}

/// NOLINT / NOLINTNEXTLINE, optionally with a list of check globs: NOLINT(layout-*).
static bool markerCovers(StringRef Line, StringRef Marker, const std::string &Check) {
  size_t At = Line.find(Marker);
  while (At != StringRef::npos) {
    StringRef Rest = Line.substr(At + Marker.size());
    // NOLINT must not be the start of NOLINTNEXTLINE / NOLINTBEGIN.
    if (Marker == "NOLINT" && (Rest.starts_with("NEXTLINE") || Rest.starts_with("BEGIN") || Rest.starts_with("END"))) {
      At = Line.find(Marker, At + 1);
      continue;
    }
    if (!Rest.starts_with("("))
      return true;
    StringRef List = Rest.drop_front().take_until([](char C) { return C == ')'; });
    SmallVector<StringRef, 4> Globs;
    List.split(Globs, ',');
    for (StringRef G : Globs)
      if (globMatches(G.trim().str(), Check))
        return true;
    At = Line.find(Marker, At + 1);
  }
  return false;
}

/// The check list of a NOLINTBEGIN/NOLINTEND marker starting at From: "(a, b*)" or "" for all.
static StringRef markerChecks(StringRef From, StringRef Marker) {
  StringRef Rest = From.substr(Marker.size());
  if (!Rest.starts_with("("))
    return "";
  size_t Close = Rest.find(')');
  return Close == StringRef::npos ? Rest : Rest.take_front(Close + 1);
}

NolintBlocks scanNolintBlocks(StringRef Buffer) {
  NolintBlocks Out;
  struct OpenBlock {
    size_t Begin;
    StringRef Marker, Checks;
  };
  std::vector<OpenBlock> Open;
  for (size_t At = Buffer.find("NOLINT"); At != StringRef::npos; At = Buffer.find("NOLINT", At + 1)) {
    StringRef From = Buffer.substr(At);
    if (From.starts_with("NOLINTBEGIN")) {
      Open.push_back({At, From.take_until([](char C) { return C == '\n'; }), markerChecks(From, "NOLINTBEGIN")});
    } else if (From.starts_with("NOLINTEND")) {
      // As clang-tidy: an END closes the latest open BEGIN with the same check list.
      StringRef Checks = markerChecks(From, "NOLINTEND");
      auto Match = std::find_if(Open.rbegin(), Open.rend(), [&](const OpenBlock &B) { return B.Checks == Checks; });
      if (Match == Open.rend()) {
        Out.Errors.push_back({At, "unmatched 'NOLINTEND" + Checks.str() + "' comment without a previous 'NOLINTBEGIN" +
                                      Checks.str() + "' comment"});
        continue;
      }
      Out.Blocks.push_back({Match->Begin, At, Match->Marker});
      Open.erase(std::next(Match).base());
    }
  }
  for (const OpenBlock &B : Open)
    Out.Errors.push_back({B.Begin, "unmatched 'NOLINTBEGIN" + B.Checks.str() +
                                       "' comment without a subsequent 'NOLINTEND" + B.Checks.str() + "' comment"});
  std::sort(Out.Errors.begin(), Out.Errors.end());
  return Out;
}

const NolintBlocks *CheckContext::nolintBlocks(FileID Id) const {
  auto [It, New] = NolintBlocksByFile.try_emplace(Id.getHashValue());
  if (New) {
    bool Invalid = false;
    StringRef Buffer = AST.getSourceManager().getBufferData(Id, &Invalid);
    // Most files have no block: scan only those that name one.
    if (!Invalid && (Buffer.contains("NOLINTBEGIN") || Buffer.contains("NOLINTEND")))
      It->second = scanNolintBlocks(Buffer);
  }
  return It->second ? &*It->second : nullptr;
}

bool CheckContext::nolintSuppresses(const std::string &Check, SourceLocation Loc) const {
  const SourceManager &SM = AST.getSourceManager();
  auto [Line, Previous] = lineAndPrevious(SM, Loc);
  if (markerCovers(Line, "NOLINT", Check) || markerCovers(Previous, "NOLINTNEXTLINE", Check))
    return true;
  SourceLocation File = SM.getFileLoc(Loc);
  const NolintBlocks *Blocks = nolintBlocks(SM.getFileID(File));
  if (!Blocks)
    return false;
  unsigned Offset = SM.getFileOffset(File);
  return std::any_of(Blocks->Blocks.begin(), Blocks->Blocks.end(), [&](const NolintBlocks::Block &B) {
    return B.Begin <= Offset && Offset <= B.End && markerCovers(B.Marker, "NOLINTBEGIN", Check);
  });
}

void CheckContext::reportNolintErrors() {
  const SourceManager &SM = AST.getSourceManager();
  for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
    if (!It->second->getBufferIfLoaded())
      continue;
    FileID Id = SM.translateFile(It->first);
    if (Id.isInvalid())
      continue;
    SourceLocation Start = SM.getLocForStartOfFile(Id);
    if (!inUserCode(Start) || !inReportedFile(Start))
      continue;
    if (const NolintBlocks *Blocks = nolintBlocks(Id))
      for (const auto &[Offset, Message] : Blocks->Errors) {
        Finding F;
        F.Check = NolintCheckName;
        F.Severity = Finding::Level::Error;
        F.Message = Message;
        F.At = pointOf(SM, Start.getLocWithOffset(Offset));
        Out.Findings.push_back(std::move(F));
      }
  }
}

CheckContext::Disposition CheckContext::dispositionAt(const std::string &Check, SourceLocation Loc) const {
  if (!inUserCode(Loc) || !inReportedFile(Loc))
    return Disposition::Dropped;
  return nolintSuppresses(Check, Loc) ? Disposition::Suppressed : Disposition::Reported;
}

void CheckContext::report(const std::string &Check, SourceLocation Loc, const std::string &Message,
                          const std::vector<Note> &Notes, const std::vector<FixItHint> &Fixes,
                          SourceLocation LayoutAt) {
  switch (dispositionAt(Check, Loc)) {
  case Disposition::Dropped:
    return;
  case Disposition::Suppressed:
    ++Suppressed;
    ++Out.Suppressed;
    return;
  case Disposition::Reported:
    break;
  }
  ++Reported;
  const SourceManager &SM = AST.getSourceManager();
  Finding F;
  F.Check = Check;
  F.Severity = !Options.WarningsAsErrors.empty() && ErrorFilter.enabled(Check) ? Finding::Level::Error
                                                                                : Finding::Level::Warning;
  F.Message = Message;
  F.At = pointOf(SM, Loc);
  for (const FixItHint &Fix : Fixes)
    F.Fixes.push_back(editOf(SM, Fix, AST.getLangOpts()));
  for (const Note &N : Notes) {
    FindingNote Converted{pointOf(SM, N.Loc), N.Message, {}, N.Source};
    for (const FixItHint &Fix : N.Fixes)
      Converted.Fixes.push_back(editOf(SM, Fix, AST.getLangOpts()));
    F.Notes.push_back(std::move(Converted));
  }
  if (!Target.LayoutNote.empty())
    F.Notes.push_back({pointOf(SM, LayoutAt.isValid() ? LayoutAt : Loc), Target.LayoutNote, {}});
  Out.Findings.push_back(std::move(F));
}

std::string CheckContext::alignmentSpelling(uint64_t N) const {
  const LangOptions &LO = langOpts();
  if (LO.CPlusPlus11)
    return "alignas(" + std::to_string(N) + ")";
  if (LO.C11)
    return "_Alignas(" + std::to_string(N) + ")";
  return "__attribute__((aligned(" + std::to_string(N) + ")))";
}

std::optional<FixItHint> CheckContext::alignmentFix(const Decl *D, uint64_t N, FixItHint Insert) const {
  const AlignedAttr *Written = D->getAttr<AlignedAttr>();
  if (!Written)
    return Insert;
  const Expr *E = Written->isAlignmentExpr() ? Written->getAlignmentExpr() : nullptr;
  const auto *Number = E ? dyn_cast<IntegerLiteral>(E->IgnoreParenImpCasts()) : nullptr;
  if (!Number || !editable(AST.getSourceManager(), Number->getBeginLoc()))
    return std::nullopt;
  std::string Named = options().get("layout-hardcoded-line-size", "PaddingConstant");
  return FixItHint::CreateReplacement(Number->getSourceRange(), Named.empty() ? std::to_string(N) : Named);
}

} // namespace lockwright
