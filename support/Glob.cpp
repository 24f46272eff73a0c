#include "Glob.h"

namespace lockwright {

namespace {

bool isIdentifierChar(char C, bool First) {
  return C == '_' || (C >= 'A' && C <= 'Z') || (C >= 'a' && C <= 'z') || (!First && C >= '0' && C <= '9');
}

} // namespace

namespace {

/// The matcher over (pattern offset, text offset), each pair judged once: plain backtracking
/// took exponential time on patterns with many '*' (fuzz/config found a 30-byte --checks
/// glob that ran for minutes).
class GlobMatcher {
public:
  GlobMatcher(std::string_view Pattern, std::string_view Text, const std::vector<std::string_view> &Tokens)
      : Pattern(Pattern), Text(Text), Tokens(Tokens), Memo((Pattern.size() + 1) * (Text.size() + 1), Unknown) {}

  bool matches(size_t P, size_t T) {
    char &Known = Memo[P * (Text.size() + 1) + T];
    if (Known == Unknown)
      Known = compute(P, T) ? Yes : No;
    return Known == Yes;
  }

private:
  enum : char { Unknown, Yes, No };

  bool compute(size_t P, size_t T) {
    if (P == Pattern.size())
      return T == Text.size();
    if (Pattern[P] == '*') {
      for (size_t Skip = T; Skip <= Text.size(); ++Skip)
        if (matches(P + 1, Skip))
          return true;
      return false;
    }
    for (std::string_view Token : Tokens) {
      if (Pattern.substr(P, Token.size()) != Token)
        continue;
      // A placeholder stands for one identifier.
      if (T == Text.size() || !isIdentifierChar(Text[T], true))
        return false;
      for (size_t End = T + 1; End <= Text.size(); ++End) {
        if (matches(P + Token.size(), End))
          return true;
        if (End == Text.size() || !isIdentifierChar(Text[End], false))
          return false;
      }
      return false;
    }
    return T < Text.size() && Pattern[P] == Text[T] && matches(P + 1, T + 1);
  }

  std::string_view Pattern, Text;
  const std::vector<std::string_view> &Tokens;
  std::vector<char> Memo;
};

} // namespace

bool globMatches(std::string_view Pattern, std::string_view Text, const std::vector<std::string_view> &IdentifierTokens) {
  if (IdentifierTokens.empty() && Pattern.find('*') == std::string_view::npos)
    return Pattern == Text; // most names in the API tables are plain
  return GlobMatcher(Pattern, Text, IdentifierTokens).matches(0, 0);
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
