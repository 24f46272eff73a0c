#include "spec/Diagnostics.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace lockwright {

/// The length of the valid UTF-8 sequence at Text[I] (not a C1 control), or 0.
static size_t utf8Length(const std::string &Text, size_t I) {
  unsigned char C = Text[I];
  if (C < 0x80)
    return 1;
  size_t Length = C >= 0xf0 && C < 0xf5 ? 4 : C >= 0xe0 && C < 0xf0 ? 3 : C >= 0xc2 && C < 0xe0 ? 2 : 0;
  if (!Length || I + Length > Text.size())
    return 0;
  for (size_t K = 1; K < Length; ++K)
    if ((static_cast<unsigned char>(Text[I + K]) & 0xc0) != 0x80)
      return 0;
  // C1 controls (U+0080..U+009F, encoded C2 80..C2 9F) act as escapes in some terminals.
  if (C == 0xc2 && static_cast<unsigned char>(Text[I + 1]) < 0xa0)
    return 0;
  return Length;
}

std::optional<size_t> firstNonTextByte(const std::string &Text) {
  for (size_t I = 0; I < Text.size();) {
    unsigned char C = Text[I];
    size_t Length = utf8Length(Text, I);
    if (!Length || (C < 0x20 && C != '\t' && C != '\n' && C != '\r') || C == 0x7f)
      return I;
    I += Length;
  }
  return std::nullopt;
}

/// Text as a terminal may show it: bytes of valid UTF-8 kept, control characters (an escape
/// sequence in a binary spec would retitle or clear the terminal) and invalid bytes as \xHH.
std::string printable(const std::string &Text) {
  std::string Out;
  auto Hex = [&](unsigned char C) {
    static const char Digits[] = "0123456789abcdef";
    Out += "\\x";
    Out += Digits[C >> 4];
    Out += Digits[C & 15];
  };
  for (size_t I = 0; I < Text.size();) {
    unsigned char C = Text[I];
    if (C < 0x80) {
      if ((C < 0x20 && C != '\n' && C != '\t') || C == 0x7f)
        Hex(C);
      else
        Out += static_cast<char>(C);
      ++I;
      continue;
    }
    size_t Length = utf8Length(Text, I);
    if (!Length) {
      Hex(C);
      ++I;
      continue;
    }
    Out.append(Text, I, Length);
    I += Length;
  }
  return Out;
}

std::string Diagnostic::format() const {
  std::string Out = Loc.File;
  if (Loc.Line != 0)
    Out += ":" + std::to_string(Loc.Line) + ":" + std::to_string(Loc.Col);
  Out += Severity == Level::Error ? ": error: " : ": note: ";
  if (!KeyPath.empty())
    Out += KeyPath + ": ";
  Out += Message;
  return printable(Out);
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
  // Optimal string alignment: insertions, deletions, substitutions and
  // transpositions of neighbours ("mdoe" -> "mode") each cost one.
  std::vector<std::vector<unsigned>> D(A.size() + 1, std::vector<unsigned>(B.size() + 1));
  for (size_t I = 0; I <= A.size(); ++I)
    D[I][0] = static_cast<unsigned>(I);
  for (size_t J = 0; J <= B.size(); ++J)
    D[0][J] = static_cast<unsigned>(J);
  for (size_t I = 1; I <= A.size(); ++I)
    for (size_t J = 1; J <= B.size(); ++J) {
      unsigned Cost = A[I - 1] == B[J - 1] ? 0 : 1;
      D[I][J] = std::min({D[I - 1][J] + 1, D[I][J - 1] + 1, D[I - 1][J - 1] + Cost});
      if (I > 1 && J > 1 && A[I - 1] == B[J - 2] && A[I - 2] == B[J - 1])
        D[I][J] = std::min(D[I][J], D[I - 2][J - 2] + 1);
    }
  return D[A.size()][B.size()];
}

std::string closestMatch(const std::string &Word, const std::vector<std::string> &Candidates) {
  // A single character or a number ("2" for "4") is a different value, not a typo.
  bool Numeric = !Word.empty() && std::all_of(Word.begin(), Word.end(), ::isdigit);
  if (Word.size() < 2 || Numeric)
    return std::string();
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

std::string didYouMean(const std::string &Word, const std::vector<std::string> &Candidates,
                       const std::string &Otherwise, const std::string &Open, const std::string &Close) {
  std::string Guess = closestMatch(Word, Candidates);
  return Guess.empty() ? Otherwise : "; did you mean " + Open + Guess + Close + "?";
}

} // namespace lockwright
