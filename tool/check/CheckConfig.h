// .lockwright.yaml: the checker's settings per directory, as clang-tidy's .clang-tidy.
// Each source file takes the nearest file walking up from its directory; a file with
// InheritParentConfig: true is applied on top of its parent's. Layers merge in order
// (the defaults, the files outermost first, then --config/--config-file or the command
// line): Checks and WarningsAsErrors lists are appended, every other value is replaced.
// No Clang here: the driver and the unit tests share it.
#ifndef LOCKWRIGHT_TOOL_CHECK_CHECKCONFIG_H
#define LOCKWRIGHT_TOOL_CHECK_CHECKCONFIG_H

#include "spec/Diagnostics.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lockwright {

/// The name of the file looked up in each directory.
extern const char *const ConfigFileName;

/// One source of settings: a file, --config, the command line, or the defaults.
struct ConfigLayer {
  /// Where it came from, as --explain-config prints it: a path, "the command line", ...
  std::string Origin;
  std::optional<std::string> Checks, WarningsAsErrors, HeaderFilterRegex, ExcludeHeaderFilterRegex, Arch, Cpu;
  std::optional<bool> SystemHeaders, InheritParentConfig;
  /// Compiler arguments added after (ExtraArgs) or before (ExtraArgsBefore) each command's own.
  std::vector<std::string> ExtraArgs, ExtraArgsBefore;
  /// "check-name.Option" -> value.
  std::map<std::string, std::string> CheckOptions;
  /// Where each key was written (for --verify-config messages); unset for the command line.
  std::map<std::string, SourceLoc> KeyLocs;
};

/// Parses a config's YAML (a file's text, or --config's). Origin names it in messages and
/// in --explain-config; File is the path messages point at (empty for --config).
std::optional<ConfigLayer> parseConfig(const std::string &Text, const std::string &Origin, const std::string &File,
                                       DiagnosticList &Diags);

/// The settings one source file is checked with, and where each came from.
struct EffectiveConfig {
  std::string Checks, WarningsAsErrors;
  std::optional<std::string> HeaderFilterRegex, ExcludeHeaderFilterRegex;
  std::string Arch, Cpu;
  bool SystemHeaders = false;
  std::vector<std::string> ExtraArgs, ExtraArgsBefore; // every layer's, in order
  std::map<std::string, std::string> CheckOptions;
  /// The layers merged, in order (defaults first): what --explain-config and --verify-config read.
  std::vector<std::shared_ptr<const ConfigLayer>> Layers;
  /// Origin of each scalar key set ("Arch", "HeaderFilterRegex", "check.Option"), and where it
  /// was written (line 0 for the command line).
  std::map<std::string, std::string> OriginOf;
  std::map<std::string, SourceLoc> LocOf;

  /// For each of AllChecks the layers enable, the origin of the last layer that decided it.
  std::vector<std::pair<std::string, std::string>> explainChecks(const std::vector<std::string> &AllChecks) const;
  /// The effective settings as a config file (loadable as .lockwright.yaml).
  std::string toYaml() const;
};

/// Finds and merges the configs of source files, caching what it read per directory.
class ConfigResolver {
public:
  /// Defaults: the built-in layer. CommandLine: what the options set. Replacement: --config or
  /// --config-file, which replace the lookup of files altogether (as in clang-tidy).
  ConfigResolver(ConfigLayer Defaults, ConfigLayer CommandLine, std::optional<ConfigLayer> Replacement);

  /// The config of SourcePath (a file; its directory is walked up). Errors in the config files
  /// go to Diags, with file:line:col; nullopt then.
  std::optional<EffectiveConfig> forFile(const std::string &SourcePath, DiagnosticList &Diags);
  /// The config of a directory (for --dump-config and --list-checks with no source).
  std::optional<EffectiveConfig> forDirectory(const std::string &Dir, DiagnosticList &Diags);

private:
  /// The file layers that apply in Dir, outermost first; nullopt on a broken file.
  std::optional<std::vector<std::shared_ptr<const ConfigLayer>>> fileLayers(const std::string &Dir,
                                                                            DiagnosticList &Diags);
  EffectiveConfig merge(const std::vector<std::shared_ptr<const ConfigLayer>> &Layers) const;

  std::shared_ptr<const ConfigLayer> Defaults, CommandLine, Replacement;
  std::map<std::string, std::optional<std::vector<std::shared_ptr<const ConfigLayer>>>> ByDirectory;
};

/// --verify-config: the check names in each layer's Checks and WarningsAsErrors, and the
/// CheckOptions keys, against the registered checks. Each unknown one is an error located
/// where it was written, with a did-you-mean. Known: every check name; Options: every
/// "check.Option" key.
void verifyConfig(const EffectiveConfig &Config, const std::vector<std::string> &Known,
                  const std::vector<std::string> &Options, DiagnosticList &Diags);

} // namespace lockwright

#endif
