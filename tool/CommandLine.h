// A small argument parser for the subcommands: `--name value`, `--name=value`,
// `-o value`, boolean flags and positionals. Each subcommand declares what it
// takes, so an unknown option is an error with a did-you-mean.
#ifndef LOCKWRIGHT_TOOL_COMMANDLINE_H
#define LOCKWRIGHT_TOOL_COMMANDLINE_H

#include "StringList.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lockwright {

class CommandLine {
public:
  /// Declares an option taking a value; Aliases are other spellings ("-o").
  void option(const std::string &Name, std::vector<std::string> Aliases = {});
  void flag(const std::string &Name);

  /// Parses Args (without the program and subcommand names). On error, fills Error.
  bool parse(const std::vector<std::string> &Args, std::string &Error);

  std::optional<std::string> get(const std::string &Name) const;
  std::string getOr(const std::string &Name, const std::string &Default) const;
  bool has(const std::string &Name) const;
  const std::vector<std::string> &positionals() const { return Positionals; }

private:
  std::map<std::string, std::string> Canonical; // spelling -> option name
  std::map<std::string, bool> TakesValue;
  std::map<std::string, std::string> Values;
  std::vector<std::string> Positionals;
};

} // namespace lockwright

#endif
