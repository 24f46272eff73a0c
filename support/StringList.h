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

/// Word as a POSIX shell reads it back: unchanged when it is plain, else in single quotes
/// (a path with a space in a command a generated file tells the reader to run).
std::string shellQuoted(const std::string &Word);

/// Text that cannot end a C comment it is copied into: each "*/" becomes "* /".
std::string withoutCommentEnd(std::string Text);

} // namespace lockwright

#endif
