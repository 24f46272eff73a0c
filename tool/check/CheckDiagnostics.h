// How `lockwright check` prints: our findings and the compiler's errors, each once per run.
#ifndef LOCKWRIGHT_TOOL_CHECK_CHECKDIAGNOSTICS_H
#define LOCKWRIGHT_TOOL_CHECK_CHECKDIAGNOSTICS_H

#include "summary/Summary.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"

#include <map>
#include <memory>
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

/// Prints findings (from a TU just checked, the cache, or the reduce step) as clang prints
/// diagnostics, source line, caret and fix-its included, through a CheckDiagnostics.
class FindingPrinter {
public:
  /// ShowSources: every note with its spec citation; otherwise each citation once per printer.
  FindingPrinter(clang::DiagnosticOptions *Opts, CheckDiagnostics &Consumer, bool ShowSources = false);
  ~FindingPrinter();
  void print(const Finding &F);

private:
  clang::FileID fileID(const std::string &Path); // created on first use
  clang::SourceLocation at(const SourcePoint &P);
  clang::SourceRange range(const Edit &E);

  CheckDiagnostics &Consumer;
  clang::FileManager Files;
  clang::DiagnosticsEngine Engine;
  clang::SourceManager Sources;
  std::map<std::string, clang::FileID> IDs; // by path; an invalid ID: the file cannot be read
  bool ShowSources;
  std::set<std::string> Cited; // the citations printed so far
};

/// Collects a TU's compiler errors (and their notes) as findings; drops its warnings.
class FindingCollector : public clang::DiagnosticConsumer {
public:
  explicit FindingCollector(TuSummary &Out) : Out(Out) {}
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level, const clang::Diagnostic &Info) override;

private:
  TuSummary &Out;
  bool InError = false; // notes follow the error they explain
};

} // namespace lockwright

#endif
