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
