#include "CheckDiagnostics.h"

#include "CheckContext.h"

#include "summary/FromClang.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace lockwright {

namespace {

/// Our reports use custom IDs (DiagnosticIDs::isBuiltinDiag is false for them).
bool isOurs(const clang::Diagnostic &Info) { return Info.getID() >= diag::DIAG_UPPER_LIMIT; }

} // namespace

CheckDiagnostics::CheckDiagnostics(DiagnosticOptions *Opts) : Printer(llvm::outs(), Opts) {}

void CheckDiagnostics::BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) {
  // The "N warnings generated." line after each TU counts that TU only.
  NumWarnings = NumErrors = 0;
  Printer.BeginSourceFile(LO, PP);
}

void CheckDiagnostics::EndSourceFile() { Printer.EndSourceFile(); }

void CheckDiagnostics::HandleDiagnostic(DiagnosticsEngine::Level Level, const clang::Diagnostic &Info) {
  DiagnosticConsumer::HandleDiagnostic(Level, Info);
  bool Ours = isOurs(Info);
  if (Level == DiagnosticsEngine::Note) {
    if (PrintingCurrent)
      Printer.HandleDiagnostic(Level, Info);
    return;
  }
  PrintingCurrent = Ours || Level >= DiagnosticsEngine::Error;
  if (!PrintingCurrent)
    return;
  SmallString<128> Text;
  Info.FormatDiagnostic(Text);
  std::string Key;
  if (Info.getLocation().isValid() && Info.hasSourceManager()) {
    // A header's finding is reported once per run, however each TU spells its path.
    const SourceManager &SM = Info.getSourceManager();
    PresumedLoc P = SM.getPresumedLoc(Info.getLocation());
    if (P.isValid()) {
      std::string File = P.getFilename();
      if (OptionalFileEntryRef Entry = SM.getFileEntryRefForID(SM.getFileID(SM.getFileLoc(Info.getLocation()))))
        if (!Entry->getFileEntry().tryGetRealPathName().empty())
          File = Entry->getFileEntry().tryGetRealPathName().str();
      Key = File + ":" + std::to_string(P.getLine()) + ":" + std::to_string(P.getColumn());
    }
  }
  Key += " " + Text.str().str();
  if (Ours && !Seen.insert(Key).second) {
    PrintingCurrent = false;
    return;
  }
  if (Ours && Level == DiagnosticsEngine::Warning)
    ++Warnings;
  else
    ++Errors; // compiler errors and warnings-as-errors
  Printer.HandleDiagnostic(Level, Info);
}

FindingPrinter::FindingPrinter(DiagnosticOptions *Opts, CheckDiagnostics &Consumer, bool ShowSources)
    : Consumer(Consumer), Files(FileSystemOptions()),
      Engine(new DiagnosticIDs(), Opts, &Consumer, /*ShouldOwnClient=*/false), Sources(Engine, Files),
      ShowSources(ShowSources) {
  Engine.setSourceManager(&Sources);
  Consumer.BeginSourceFile(LangOptions(), nullptr);
}

FindingPrinter::~FindingPrinter() { Consumer.EndSourceFile(); }

FileID FindingPrinter::fileID(const std::string &Path) {
  auto [It, New] = IDs.emplace(Path, FileID());
  if (!New)
    return It->second;
  if (llvm::Expected<FileEntryRef> Entry = Files.getFileRef(Path))
    It->second = Sources.createFileID(*Entry, SourceLocation(), SrcMgr::C_User);
  else
    llvm::consumeError(Entry.takeError());
  return It->second;
}

SourceLocation FindingPrinter::at(const SourcePoint &P) {
  if (!P.valid())
    return {};
  FileID ID = fileID(P.File);
  if (ID.isInvalid())
    return {};
  return Sources.translateLineCol(ID, P.Line, P.Column);
}

SourceRange FindingPrinter::range(const Edit &E) {
  FileID ID = fileID(E.File);
  if (ID.isInvalid())
    return {};
  SourceLocation Begin = Sources.getLocForStartOfFile(ID).getLocWithOffset(E.Offset);
  return {Begin, Begin.getLocWithOffset(E.Length)};
}

void FindingPrinter::print(const Finding &F) {
  bool Error = F.Severity == Finding::Level::Error;
  std::string Text = F.Message;
  if (!F.Check.empty())
    // The driver's own errors (lockwright-nolint, lockwright-timeout) are errors, not upgraded warnings.
    Text += Error && F.Check != NolintCheckName && F.Check != TimeoutCheckName
                ? " [" + F.Check + ",-warnings-as-errors]"
                : " [" + F.Check + "]";
  else if (Error)
    Text += " [clang-diagnostic-error]"; // the compiler's, named as clang-tidy names it (and SARIF's rule)
  SourceLocation Loc = at(F.At);
  if (Loc.isInvalid() && F.At.valid()) // the file is gone: say where it was
    Text = F.At.File + ":" + std::to_string(F.At.Line) + ":" + std::to_string(F.At.Column) + ": " + Text;
  auto Fix = [&](DiagnosticBuilder &B, const std::vector<Edit> &Edits) {
    for (const Edit &E : Edits)
      if (SourceRange R = range(E); R.isValid())
        B << FixItHint::CreateReplacement(CharSourceRange::getCharRange(R), E.Text);
  };
  {
    unsigned ID = Engine.getCustomDiagID(Error ? DiagnosticsEngine::Error : DiagnosticsEngine::Warning, "%0");
    DiagnosticBuilder B = Engine.Report(Loc, ID);
    B << Text;
    Fix(B, F.Fixes);
  }
  unsigned NoteID = Engine.getCustomDiagID(DiagnosticsEngine::Note, "%0");
  for (const FindingNote &N : F.Notes) {
    DiagnosticBuilder B = Engine.Report(at(N.At), NoteID);
    // A citation once per run: on a CI log the same source under every warning is noise.
    B << (!N.Source.empty() && (ShowSources || Cited.insert(N.Source).second) ? N.fullText() : N.Message);
    Fix(B, N.Fixes);
  }
}

void FindingCollector::HandleDiagnostic(DiagnosticsEngine::Level Level, const clang::Diagnostic &Info) {
  if (Level == DiagnosticsEngine::Note) {
    if (!InError || Out.Findings.empty())
      return;
  } else {
    InError = Level >= DiagnosticsEngine::Error;
    if (!InError)
      return; // as clang-tidy without clang-diagnostic-*: the compiler's warnings are not ours
    Out.CompileErrors = true;
  }
  SmallString<128> Text;
  Info.FormatDiagnostic(Text);
  SourcePoint At = Info.hasSourceManager() ? pointOf(Info.getSourceManager(), Info.getLocation()) : SourcePoint();
  if (Level == DiagnosticsEngine::Note) {
    Out.Findings.back().Notes.push_back({At, Text.str().str(), {}});
    return;
  }
  Finding F;
  F.Severity = Finding::Level::Error;
  F.Message = Text.str().str();
  F.At = At;
  Out.Findings.push_back(std::move(F));
}

} // namespace lockwright
