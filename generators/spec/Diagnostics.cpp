#include "spec/Diagnostics.h"

#include <algorithm>
#include <cstdio>

namespace lockwright {

std::string Diagnostic::format() const {
  std::string Out = Loc.File;
  if (Loc.Line != 0)
    Out += ":" + std::to_string(Loc.Line) + ":" + std::to_string(Loc.Col);
  Out += Severity == Level::Error ? ": error: " : ": note: ";
  if (!KeyPath.empty())
    Out += KeyPath + ": ";
  Out += Message;
  return Out;
}

void DiagnosticList::error(SourceLoc Loc, std::string KeyPath, std::string Message) {
  Diags.push_back({Diagnostic::Level::Error, std::move(Loc), std::move(KeyPath), std::move(Message)});
  ++ErrorCount;
}

void DiagnosticList::note(SourceLoc Loc, std::string KeyPath, std::string Message) {
  Diags.push_back({Diagnostic::Level::Note, std::move(Loc), std::move(KeyPath), std::move(Message)});
}

void DiagnosticList::append(const DiagnosticList &Other) {
  Diags.insert(Diags.end(), Other.Diags.begin(), Other.Diags.end());
  ErrorCount += Other.ErrorCount;
}

void DiagnosticList::print(std::FILE *Stream) const {
  for (const Diagnostic &D : Diags)
    std::fprintf(Stream, "%s\n", D.format().c_str());
}

std::string DiagnosticList::str() const {
  std::string Out;
  for (const Diagnostic &D : Diags)
    Out += D.format() + "\n";
  return Out;
}

unsigned editDistance(const std::string &A, const std::string &B) {
  std::vector<unsigned> Row(B.size() + 1);
  for (unsigned J = 0; J <= B.size(); ++J)
    Row[J] = J;
  for (unsigned I = 1; I <= A.size(); ++I) {
    unsigned Diagonal = Row[0];
    Row[0] = I;
    for (unsigned J = 1; J <= B.size(); ++J) {
      unsigned Above = Row[J];
      unsigned Substitute = Diagonal + (A[I - 1] == B[J - 1] ? 0 : 1);
      Row[J] = std::min({Above + 1, Row[J - 1] + 1, Substitute});
      Diagonal = Above;
    }
  }
  return Row[B.size()];
}

std::string closestMatch(const std::string &Word, const std::vector<std::string> &Candidates) {
  std::string Best;
  unsigned BestDistance = ~0u;
  for (const std::string &C : Candidates) {
    unsigned D = editDistance(Word, C);
    if (D < BestDistance) {
      BestDistance = D;
      Best = C;
    }
  }
  // A third of the word (at least 1, at most 3 edits), like clang-tidy's
  // check-name suggestions: farther than that is a different word.
  unsigned Limit = std::min<unsigned>(3, std::max<unsigned>(1, Word.size() / 3));
  return BestDistance <= Limit ? Best : std::string();
}

} // namespace lockwright
