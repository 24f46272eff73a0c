// Entry point of `lockwright check`, kept out of the tool's other sources so
// only this library includes Clang.
#ifndef LOCKWRIGHT_TOOL_CHECK_CHECKTOOL_H
#define LOCKWRIGHT_TOOL_CHECK_CHECKTOOL_H

#include <string>
#include <vector>

namespace lockwright {

int runCheckTool(const char *Argv0, const std::vector<std::string> &Args);
/// `lockwright report DIR...` (ProgramRun.h).
int runReportTool(const char *Argv0, const std::vector<std::string> &Args);

} // namespace lockwright

#endif
