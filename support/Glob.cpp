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
  // Split into literal runs at the wildcards.
  std::vector<std::string> Runs(1);
  for (size_t I = 0; I < Pattern.size();) {
    size_t Width = Pattern[I] == '*' ? 1 : 0;
    for (std::string_view Token : IdentifierTokens)
      if (!Width && std::string_view(Pattern).substr(I, Token.size()) == Token)
        Width = Token.size();
    if (Width) {
      Runs.emplace_back();
      ++Wildcards;
      OnlyWildcardIsToken = Width > 1 || Pattern[I] != '*';
      I += Width;
    } else {
      Runs.back() += Pattern[I++];
    }
  }
  Literal = Runs.size() == 1;
  HeadSize = Runs.front().size();
  TailSize = Literal ? 0 : Runs.back().size();
  for (size_t I = 1; I + 1 < Runs.size(); ++I)
    if (!Runs[I].empty())
      Middles.push_back(Runs[I]);
}

bool Glob::matches(std::string_view Text) const {
  std::string_view P = Pattern;
  if (Literal)
    return Text == P;
  // Every wildcard matches at least nothing, so Text holds the head, the middle runs in
  // order and the tail, none overlapping.
  if (Text.size() < HeadSize + TailSize || Text.substr(0, HeadSize) != P.substr(0, HeadSize) ||
      Text.substr(Text.size() - TailSize) != P.substr(P.size() - TailSize))
    return false;
  std::string_view Between = Text.substr(HeadSize, Text.size() - HeadSize - TailSize);
  if (Wildcards == 1) {
    if (!OnlyWildcardIsToken)
      return true;
    if (Between.empty() || !isIdentifierChar(Between[0], true))
      return false;
    for (char C : Between)
      if (!isIdentifierChar(C, false))
        return false;
    return true;
  }
  for (const std::string &Run : Middles) {
    size_t At = Between.find(Run);
    if (At == std::string_view::npos)
      return false;
    Between.remove_prefix(At + Run.size());
  }
  return globMatches(P, Text, IdentifierTokens);
}

} // namespace lockwright
