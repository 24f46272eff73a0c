// The one glob matcher: check names (--checks), API names in specs/api ('*' and the
// {prefix} of lockwright's generated names), type-name options, and spec triples.
#ifndef LOCKWRIGHT_SUPPORT_GLOB_H
#define LOCKWRIGHT_SUPPORT_GLOB_H

#include <string>
#include <string_view>
#include <vector>

namespace lockwright {

/// Whether Text matches Pattern: '*' matches any run of characters (none included), each
/// of IdentifierTokens (say "{prefix}") a non-empty C identifier, any other character itself.
bool globMatches(std::string_view Pattern, std::string_view Text,
                 const std::vector<std::string_view> &IdentifierTokens = {});

/// A pattern matched against many names (every macro a TU defines or expands): its literal
/// text (before the first wildcard, after the last, and the runs between, in order) rejects
/// almost every name with a few comparisons before the backtracking match runs.
class Glob {
public:
  explicit Glob(std::string Pattern, std::vector<std::string_view> IdentifierTokens = {});
  bool matches(std::string_view Text) const;
  const std::string &pattern() const { return Pattern; }
  /// The literal text every match starts and ends with (the whole pattern when it has no wildcard).
  std::string_view head() const { return std::string_view(Pattern).substr(0, HeadSize); }
  std::string_view tail() const { return std::string_view(Pattern).substr(Pattern.size() - TailSize); }

private:
  std::string Pattern;
  std::vector<std::string_view> IdentifierTokens;
  size_t HeadSize = 0, TailSize = 0; // literal characters at each end
  std::vector<std::string> Middles;  // the literal runs between wildcards, in order
  bool Literal = true;               // no wildcard: Text must equal Pattern
  // With one wildcard (most API patterns: ck_pr_load_*, {prefix}_barrier) the text between
  // head and tail is its match, and no backtracking is needed: any text for '*', an
  // identifier for a token.
  unsigned Wildcards = 0;
  bool OnlyWildcardIsToken = false;
};

} // namespace lockwright

#endif
