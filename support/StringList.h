// Comma lists in and out: command-line values (--locks a,b; --checks=-*,x) and the lists
// messages and help texts print.
#ifndef LOCKWRIGHT_SUPPORT_STRINGLIST_H
#define LOCKWRIGHT_SUPPORT_STRINGLIST_H

#include <string>
#include <vector>

namespace lockwright {

/// The items of a Separator-separated list, each trimmed of blanks and line ends; empty items dropped.
std::vector<std::string> splitList(const std::string &Text, char Separator = ',');

/// Items joined by Separator.
std::string joinList(const std::vector<std::string> &Items, const std::string &Separator = ", ");

} // namespace lockwright

#endif
