// The one glob matcher: check names (--checks), API names in specs/api ('*' and the
// {prefix} of lockwright's generated names), type-name options, and spec triples.
#ifndef LOCKWRIGHT_SUPPORT_GLOB_H
#define LOCKWRIGHT_SUPPORT_GLOB_H

#include <string_view>
#include <vector>

namespace lockwright {

/// Whether Text matches Pattern: '*' matches any run of characters (none included), each
/// of IdentifierTokens (say "{prefix}") a non-empty C identifier, any other character itself.
bool globMatches(std::string_view Pattern, std::string_view Text,
                 const std::vector<std::string_view> &IdentifierTokens = {});

} // namespace lockwright

#endif
