// Located errors for specs: every message names file:line:col and the key path
// of the offending node, in the shape compilers use so editors can jump to it.
#ifndef LOCKWRIGHT_MODEL_SPEC_DIAGNOSTICS_H
#define LOCKWRIGHT_MODEL_SPEC_DIAGNOSTICS_H

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace lockwright {

struct SourceLoc {
  std::string File;
  unsigned Line = 0; // 1-based; 0 means "whole file"
  unsigned Col = 0;  // 1-based
};

struct Diagnostic {
  enum class Level { Error, Note };
  Level Severity = Level::Error;
  SourceLoc Loc;
  std::string KeyPath; // e.g. "barriers.full.asm[0]"; empty for file-level errors
  std::string Message;

  /// "file:line:col: error: key.path: message"
  std::string format() const;
};

/// Text safe to print on a terminal: control characters and bytes that are not UTF-8 as \xHH.
std::string printable(const std::string &Text);

/// The offset of Text's first byte that is not text (not UTF-8, or a control character other
/// than tab, line feed and carriage return), or nullopt.
std::optional<size_t> firstNonTextByte(const std::string &Text);

/// Collects diagnostics so one run reports every problem in a spec, not just the first.
class DiagnosticList {
public:
  void error(SourceLoc Loc, std::string KeyPath, std::string Message);
  void note(SourceLoc Loc, std::string KeyPath, std::string Message);

  bool hasErrors() const { return ErrorCount != 0; }
  unsigned errorCount() const { return ErrorCount; }
  const std::vector<Diagnostic> &all() const { return Diags; }
  void append(const DiagnosticList &Other);
  /// Prints every diagnostic, one per line, in the order it was reported.
  void print(std::FILE *Stream) const;
  std::string str() const;

private:
  std::vector<Diagnostic> Diags;
  unsigned ErrorCount = 0;
};

/// Levenshtein distance; used for did-you-mean suggestions.
unsigned editDistance(const std::string &A, const std::string &B);

/// The candidate closest to Word, or "" when none is close enough to be a plausible typo.
std::string closestMatch(const std::string &Word, const std::vector<std::string> &Candidates);

/// The tail of an unknown-name message: "; did you mean 'Guess'?" (the guess between Open and
/// Close: "'{" and "}'" for a placeholder), or Otherwise when no candidate is close.
std::string didYouMean(const std::string &Word, const std::vector<std::string> &Candidates,
                       const std::string &Otherwise = "", const std::string &Open = "'",
                       const std::string &Close = "'");

} // namespace lockwright

#endif
