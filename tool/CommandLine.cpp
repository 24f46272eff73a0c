#include "CommandLine.h"

#include "spec/Diagnostics.h"

namespace lockwright {

void CommandLine::option(const std::string &Name, std::vector<std::string> Aliases) {
  Canonical["--" + Name] = Name;
  for (const std::string &A : Aliases)
    Canonical[A] = Name;
  TakesValue[Name] = true;
}

void CommandLine::flag(const std::string &Name) {
  Canonical["--" + Name] = Name;
  TakesValue[Name] = false;
}

bool CommandLine::parse(const std::vector<std::string> &Args, std::string &Error) {
  for (size_t I = 0; I < Args.size(); ++I) {
    const std::string &Arg = Args[I];
    if (Arg == "--") {
      Positionals.insert(Positionals.end(), Args.begin() + I + 1, Args.end());
      break;
    }
    if (Arg.size() < 2 || Arg[0] != '-') {
      Positionals.push_back(Arg);
      continue;
    }
    std::string Spelling = Arg, Value;
    bool HasInlineValue = false;
    if (size_t Eq = Arg.find('='); Eq != std::string::npos && Arg.rfind("--", 0) == 0) {
      Spelling = Arg.substr(0, Eq);
      Value = Arg.substr(Eq + 1);
      HasInlineValue = true;
    }
    auto It = Canonical.find(Spelling);
    if (It == Canonical.end()) {
      std::vector<std::string> Known;
      for (const auto &C : Canonical)
        Known.push_back(C.first);
      Error = "unknown option '" + Spelling + "'" + didYouMean(Spelling, Known);
      return false;
    }
    const std::string &Name = It->second;
    if (!TakesValue[Name]) {
      if (HasInlineValue) {
        Error = "option '" + Spelling + "' takes no value";
        return false;
      }
      Values[Name] = "true";
      continue;
    }
    if (!HasInlineValue) {
      if (I + 1 >= Args.size()) {
        Error = "option '" + Spelling + "' needs a value";
        return false;
      }
      Value = Args[++I];
    }
    Values[Name] = Value;
  }
  return true;
}

std::optional<std::string> CommandLine::get(const std::string &Name) const {
  auto It = Values.find(Name);
  if (It == Values.end())
    return std::nullopt;
  return It->second;
}

std::string CommandLine::getOr(const std::string &Name, const std::string &Default) const {
  return get(Name).value_or(Default);
}

bool CommandLine::has(const std::string &Name) const { return Values.count(Name) != 0; }

} // namespace lockwright
