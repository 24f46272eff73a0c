// Bytes as a .lockwright.yaml (or --config's text): parsed into a layer, merged over the
// defaults, verified against the registered checks, and printed as --dump-config prints it.
// What --dump-config prints must load again to the same settings.
#include "CheckConfig.h"
#include "CheckRegistry.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace lockwright;

namespace {

std::optional<EffectiveConfig> effective(ConfigLayer Layer) {
  ConfigLayer Defaults;
  Defaults.Origin = "the default";
  Defaults.Checks = DefaultChecks;
  ConfigLayer CommandLine;
  CommandLine.Origin = "the command line";
  ConfigResolver Resolver(Defaults, CommandLine, std::move(Layer));
  DiagnosticList Diags;
  return Resolver.forDirectory("/", Diags);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  DiagnosticList Diags;
  std::optional<ConfigLayer> Layer =
      parseConfig(std::string(reinterpret_cast<const char *>(Data), Size), "--config", "", Diags);
  if (!Layer)
    return 0;
  std::optional<EffectiveConfig> Config = effective(*Layer);
  if (!Config)
    return 0;
  std::vector<std::string> Known, Options;
  for (const CheckInfo &C : allChecks()) {
    Known.push_back(C.Name);
    for (const std::string &O : C.Options)
      Options.push_back(C.Name + "." + O);
  }
  verifyConfig(*Config, Known, Options, Diags);
  std::string Dumped = Config->toYaml();
  DiagnosticList Reload;
  std::optional<ConfigLayer> Again = parseConfig(Dumped, "--config", "", Reload);
  std::optional<EffectiveConfig> Reloaded = Again ? effective(*Again) : std::nullopt;
  if (!Reloaded || Reloaded->toYaml() != Dumped) {
    std::fprintf(stderr, "--dump-config does not load back:\n%s\n", Dumped.c_str());
    Reload.print(stderr);
    std::abort();
  }
  return 0;
}
