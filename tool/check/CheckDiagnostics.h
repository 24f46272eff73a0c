// How `lockwright check` prints: our findings and the compiler's errors, each once per run.
#ifndef LOCKWRIGHT_TOOL_CHECK_CHECKDIAGNOSTICS_H
#define LOCKWRIGHT_TOOL_CHECK_CHECKDIAGNOSTICS_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"

#include <set>
#include <string>

namespace lockwright {

/// Prints our warnings and the compiler's errors; drops compiler warnings (as
/// clang-tidy does without clang-diagnostic-*) and repeats of a diagnostic
/// already printed for another TU (headers are parsed once per TU).
class CheckDiagnostics : public clang::DiagnosticConsumer {
public:
  explicit CheckDiagnostics(clang::DiagnosticOptions *Opts);

  void BeginSourceFile(const clang::LangOptions &LO, const clang::Preprocessor *PP) override;
  void EndSourceFile() override;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level, const clang::Diagnostic &Info) override;

  unsigned Warnings = 0, Errors = 0;

private:
  clang::TextDiagnosticPrinter Printer;
  std::set<std::string> Seen;
  bool PrintingCurrent = false;
};

} // namespace lockwright

#endif
