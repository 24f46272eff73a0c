// One entry point per subcommand; main.cpp only dispatches.
#ifndef LOCKWRIGHT_TOOL_COMMANDS_H
#define LOCKWRIGHT_TOOL_COMMANDS_H

#include <optional>
#include <string>
#include <vector>

namespace lockwright {

class CommandLine;

struct ToolContext {
  const char *Argv0;
};

int runGen(const ToolContext &Tool, const std::vector<std::string> &Args);
int runSpec(const ToolContext &Tool, const std::vector<std::string> &Args);
int runLayout(const ToolContext &Tool, const std::vector<std::string> &Args);
int runTune(const ToolContext &Tool, const std::vector<std::string> &Args);

/// Exit codes shared by the subcommands.
enum ExitCode { ExitOk = 0, ExitError = 1, ExitUsage = 2 };

/// Prints "lockwright: error: Message" to stderr.
void reportError(const std::string &Message);

/// Adds --help to CL and parses Args. --help prints Usage (ExitOk); a bad argument
/// is reported (ExitUsage); std::nullopt means the command goes on.
std::optional<int> parseArguments(CommandLine &CL, const std::vector<std::string> &Args, const char *Usage);

} // namespace lockwright

#endif
