#include "emit/Generator.h"

#include "LockwrightConfig.h"
#include "emit/Backends.h"
#include "emit/TemplateRenderer.h"

#include <algorithm>
#include <cctype>
#include <functional>

namespace lockwright {

namespace {

struct Backend {
  const char *Name;
  const char *Template; // under arch-templates/<arch or common>/
  const char *Suffix;   // output file: <prefix>_<suffix>
  std::function<void(const ResolvedSpec &, TemplateData &, DiagnosticList &)> Fill;
};

const std::vector<Backend> &backends() {
  static const std::vector<Backend> All = {
      {"cache", "cache.h.mustache", "cache.h",
       [](const ResolvedSpec &S, TemplateData &D, DiagnosticList &) { fillCacheData(S, D); }},
      {"barrier", "barrier.h.mustache", "barrier.h",
       [](const ResolvedSpec &S, TemplateData &D, DiagnosticList &Diags) { fillBarrierData(S, D, Diags); }},
  };
  return All;
}

std::string upper(std::string S) {
  std::transform(S.begin(), S.end(), S.begin(), [](unsigned char C) { return std::toupper(C); });
  return S;
}

} // namespace

std::vector<std::string> backendNames() {
  std::vector<std::string> Names;
  for (const Backend &B : backends())
    Names.push_back(B.Name);
  return Names;
}

bool isValidPrefix(const std::string &Prefix) {
  if (Prefix.empty() || std::isdigit(static_cast<unsigned char>(Prefix[0])))
    return false;
  return std::all_of(Prefix.begin(), Prefix.end(),
                     [](unsigned char C) { return std::isalnum(C) || C == '_'; });
}

void fillCommon(const ResolvedSpec &Spec, const GenOptions &Options, const std::string &Artifact,
                TemplateData &Data) {
  Data.set("prefix", Options.Prefix);
  Data.set("PREFIX", upper(Options.Prefix));
  Data.set("guard", upper(Options.Prefix + "_" + Artifact) + "_H");
  Data.set("arch", Spec.Arch);
  Data.set("cpu", Spec.Cpu.empty() ? std::string("base") : Spec.Cpu);
  Data.set("spec_hash", Spec.hash());
  Data.set("version", std::string(LOCKWRIGHT_VERSION));
  Data.set("invocation", Options.Invocation);
  std::string Check = Spec.stringFact("target.check");
  Data.set("has_target_check", Check.empty() ? TemplateData::type::bool_false : TemplateData::type::bool_true);
  Data.set("target_check", Check);
}

std::optional<std::vector<GeneratedFile>> generate(const ResolvedSpec &Spec, const TemplateSet &Templates,
                                                   const GenOptions &Options, DiagnosticList &Diags) {
  std::vector<std::string> Known = backendNames();
  for (const std::string &A : Options.Artifacts)
    if (std::find(Known.begin(), Known.end(), A) == Known.end()) {
      std::string Message = "unknown artifact '" + A + "'";
      std::string Guess = closestMatch(A, Known);
      if (!Guess.empty())
        Message += "; did you mean '" + Guess + "'?";
      Diags.error({"lockwright"}, "", Message);
    }
  if (Diags.hasErrors())
    return std::nullopt;

  std::vector<GeneratedFile> Files;
  for (const Backend &B : backends()) {
    if (!Options.Artifacts.empty() &&
        std::find(Options.Artifacts.begin(), Options.Artifacts.end(), B.Name) == Options.Artifacts.end())
      continue;
    TemplateData Data;
    fillCommon(Spec, Options, B.Name, Data);
    B.Fill(Spec, Data, Diags);
    std::optional<std::string> Text = Templates.render(Spec.Arch, B.Template, Data, Diags);
    if (!Text)
      continue;
    if (Text->empty() || Text->back() != '\n')
      *Text += '\n';
    Files.push_back({Options.Prefix + "_" + B.Suffix, std::move(*Text)});
  }
  if (Diags.hasErrors())
    return std::nullopt;
  return Files;
}

} // namespace lockwright
