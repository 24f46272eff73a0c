// What every subcommand's --help ends with, so `gen`, `spec`, `check` and `layout` say
// the same thing about their exit status.
#ifndef LOCKWRIGHT_SUPPORT_COMMANDHELP_H
#define LOCKWRIGHT_SUPPORT_COMMANDHELP_H

namespace lockwright {

inline constexpr const char ExitStatusHelp[] =
    "\nExit status: 0 ok; 1 failed input (a broken spec, a source that does not compile, findings\n"
    "with --warnings-as-errors); 2 usage (an unknown option, architecture or CPU variant).\n";

} // namespace lockwright

#endif
