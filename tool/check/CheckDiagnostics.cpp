#include "CheckDiagnostics.h"

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

} // namespace lockwright
