#include "spec/AsmSyntax.h"

namespace lockwright {

std::optional<std::vector<AsmPiece>> splitAsmTemplate(const std::string &Insn, std::string &Error) {
  std::vector<AsmPiece> Pieces;
  auto Literal = [&](char C) {
    if (Pieces.empty() || Pieces.back().Placeholder)
      Pieces.push_back({});
    Pieces.back().Text += C;
  };
  for (size_t I = 0; I < Insn.size(); ++I) {
    char C = Insn[I];
    if ((C == '{' || C == '}') && I + 1 < Insn.size() && Insn[I + 1] == C) {
      Literal(C);
      ++I;
    } else if (C == '}') {
      Error = "unmatched '}' in instruction template; write '}}' for a literal brace";
      return std::nullopt;
    } else if (C == '{') {
      size_t Close = Insn.find('}', I);
      if (Close == std::string::npos) {
        Error = "unterminated placeholder in instruction template '" + Insn + "'";
        return std::nullopt;
      }
      AsmPiece P;
      P.Placeholder = true;
      P.Text = Insn.substr(I + 1, Close - I - 1);
      if (size_t Colon = P.Text.find(':'); Colon != std::string::npos) {
        P.Modifier = P.Text.substr(Colon + 1);
        P.Text.resize(Colon);
      }
      Pieces.push_back(std::move(P));
      I = Close;
    } else {
      Literal(C);
    }
  }
  return Pieces;
}

} // namespace lockwright
