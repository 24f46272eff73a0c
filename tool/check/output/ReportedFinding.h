// The findings a run printed, for the machine-readable outputs beside the text (exported fixes,
// SARIF, baselines). No Clang here: they are written from the summaries' plain data.
#ifndef LOCKWRIGHT_TOOL_CHECK_OUTPUT_REPORTEDFINDING_H
#define LOCKWRIGHT_TOOL_CHECK_OUTPUT_REPORTEDFINDING_H

#include "summary/Summary.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lockwright {

struct ReportedFinding {
  const Finding *F;
  std::string BuildDirectory; // the compile command's directory
  std::string Fingerprint;    // Fingerprinter's (output/Sarif.h)
};

/// Byte offsets of source points (clang-apply-replacements and SARIF count bytes), with each
/// file's line starts read once.
class SourceOffsets {
public:
  /// The byte offset of P (1-based line and byte column), or nullopt when the file cannot be
  /// read or has no such line.
  std::optional<unsigned> offsetOf(const SourcePoint &P);
  /// The 1-based line and column of Offset in File (for a fix's end).
  std::optional<std::pair<unsigned, unsigned>> pointAt(const std::string &File, unsigned Offset);
  /// The text of line Line of File, or "" (for fingerprints).
  std::string lineText(const std::string &File, unsigned Line);

private:
  struct FileLines {
    std::string Text;
    std::vector<unsigned> Starts; // offset of each line's first byte
  };
  const FileLines *lines(const std::string &File);
  std::map<std::string, std::optional<FileLines>> Files;
};

/// --export-fixes: clang-apply-replacements' YAML (clang's Tooling/DiagnosticsYaml.h), every
/// finding included, with or without a fix. A finding's fix is its own replacements and its
/// notes' (as --fix applies them), so that applying the file gives --fix's result.
std::string exportFixesYaml(const std::string &MainSourceFile, const std::vector<ReportedFinding> &Findings,
                            SourceOffsets &Offsets);

} // namespace lockwright

#endif
