#include "Glob.h"

namespace lockwright {

namespace {

bool isIdentifierChar(char C, bool First) {
  return C == '_' || (C >= 'A' && C <= 'Z') || (C >= 'a' && C <= 'z') || (!First && C >= '0' && C <= '9');
}

} // namespace

bool globMatches(std::string_view Pattern, std::string_view Text, const std::vector<std::string_view> &IdentifierTokens) {
  if (Pattern.empty())
    return Text.empty();
  if (Pattern[0] == '*') {
    for (size_t Skip = 0; Skip <= Text.size(); ++Skip)
      if (globMatches(Pattern.substr(1), Text.substr(Skip), IdentifierTokens))
        return true;
    return false;
  }
  for (std::string_view Token : IdentifierTokens) {
    if (Pattern.substr(0, Token.size()) != Token)
      continue;
    if (Text.empty() || !isIdentifierChar(Text[0], true))
      return false;
    for (size_t End = 1; End <= Text.size(); ++End) {
      if (globMatches(Pattern.substr(Token.size()), Text.substr(End), IdentifierTokens))
        return true;
      if (End == Text.size() || !isIdentifierChar(Text[End], false))
        return false;
    }
    return false;
  }
  return !Text.empty() && Pattern[0] == Text[0] && globMatches(Pattern.substr(1), Text.substr(1), IdentifierTokens);
}

} // namespace lockwright

namespace lockwright {

Glob::Glob(std::string PatternText, std::vector<std::string_view> Tokens)
    : Pattern(std::move(PatternText)), IdentifierTokens(std::move(Tokens)) {
  // Wildcards as [begin, end) spans of the pattern.
  size_t FirstBegin = std::string::npos, LastEnd = 0;
  for (size_t I = 0; I < Pattern.size();) {
    size_t Width = Pattern[I] == '*' ? 1 : 0;
    for (std::string_view Token : IdentifierTokens)
      if (!Width && std::string_view(Pattern).substr(I, Token.size()) == Token)
        Width = Token.size();
    if (!Width) {
      ++I;
      continue;
    }
    if (FirstBegin == std::string::npos)
      FirstBegin = I;
    I += Width;
    LastEnd = I;
  }
  Literal = FirstBegin == std::string::npos;
  HeadSize = Literal ? Pattern.size() : FirstBegin;
  TailSize = Literal ? 0 : Pattern.size() - LastEnd;
}

bool Glob::matches(std::string_view Text) const {
  std::string_view P = Pattern;
  if (Literal)
    return Text == P;
  // Every wildcard matches at least nothing, so Text holds the head and the tail apart.
  if (Text.size() < HeadSize + TailSize || Text.substr(0, HeadSize) != P.substr(0, HeadSize) ||
      Text.substr(Text.size() - TailSize) != P.substr(P.size() - TailSize))
    return false;
  return globMatches(P, Text, IdentifierTokens);
}

} // namespace lockwright
