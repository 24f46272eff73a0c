#include "emit/Generator.h"

#include "StringList.h"

#include "LockwrightConfig.h"
#include "emit/Backends.h"
#include "emit/TemplateRenderer.h"
#include "spec/LockAlgorithms.h"

#include <algorithm>
#include <cctype>
#include <functional>

namespace lockwright {

namespace {

struct Backend {
  const char *Name;
  const char *Template; // under arch-templates/<arch or common>/
  const char *Suffix;   // output file: <prefix>_<suffix>; "{arch}" is replaced
  std::function<bool(const GenOptions &)> Enabled;
  std::function<void(const ResolvedSpec &, const GenOptions &, TemplateData &, DiagnosticList &)> Fill;
  /// Generated only where the architecture (or an ancestor) has its own
  /// template, like the .S routines; common/ offers no fallback for those.
  const char *NeedsArchTemplate = nullptr;
  /// Per lock algorithm: partials/lock_<name>.<UnitSuffix>.mustache, rendered for each
  /// algorithm --locks selects, in table order, into the list `lock_units` (name, title, code).
  const char *UnitSuffix = nullptr;
};

bool anyAsmLock(const GenOptions &O) {
  for (const LockAlgorithm &A : lockAlgorithms())
    if (A.HasAsmRoutines && O.wantsLock(A.Name))
      return true;
  return false;
}

bool anyLockAlgorithm(const GenOptions &O) {
  for (const LockAlgorithm &A : lockAlgorithms())
    if (O.wantsLock(A.Name))
      return true;
  return false;
}

bool anySpinlock(const GenOptions &O) { return anyLockAlgorithm(O) || O.wantsLock("hash"); }

/// Renders each selected algorithm's partial with the backend's data.
std::optional<TemplateData> renderLockUnits(const ResolvedSpec &Spec, const TemplateSet &Templates,
                                            const GenOptions &Options, const std::string &Suffix,
                                            const TemplateData &Data, DiagnosticList &Diags) {
  TemplateData Units = TemplateData::type::list;
  for (const LockAlgorithm &A : lockAlgorithms()) {
    if (!Options.wantsLock(A.Name))
      continue;
    std::optional<std::string> Code =
        Templates.render(Spec.Chain, "partials/lock_" + std::string(A.Name) + "." + Suffix + ".mustache", Data, Diags);
    if (!Code)
      return std::nullopt;
    if (!Code->empty() && Code->back() == '\n')
      Code->pop_back(); // the including template ends the line
    TemplateData Unit;
    Unit.set("name", std::string(A.Name));
    Unit.set("title", std::string(A.Title));
    Unit.set("cxx_class", std::string(A.CxxClass));
    Unit.set("has_trylock", flag(A.HasTrylock));
    Unit.set("needs_node", flag(A.NeedsQueueNode));
    Unit.set("code", *Code);
    Units.push_back(Unit);
  }
  return Units;
}

const std::vector<Backend> &backends() {
  auto Always = [](const GenOptions &) { return true; };
  static const std::vector<Backend> All = {
      {"cache", "cache.h.mustache", "cache.h", Always,
       [](const ResolvedSpec &S, const GenOptions &, TemplateData &D, DiagnosticList &) { fillCacheData(S, D); }},
      {"barrier", "barrier.h.mustache", "barrier.h", Always,
       [](const ResolvedSpec &S, const GenOptions &, TemplateData &D, DiagnosticList &) { fillBarrierData(S, D); }},
      {"cond_wait", "cond_wait.h.mustache", "cond_wait.h", Always,
       [](const ResolvedSpec &S, const GenOptions &, TemplateData &D, DiagnosticList &) { fillCondWaitData(S, D); }},
      {"spinlock", "spinlock.h.mustache", "spinlock.h", anySpinlock,
       [](const ResolvedSpec &S, const GenOptions &O, TemplateData &D, DiagnosticList &) { fillSpinlockData(S, O, D); },
       nullptr, "h"},
      {"spinlock_hpp", "spinlock.hpp.mustache", "spinlock.hpp", anySpinlock,
       [](const ResolvedSpec &S, const GenOptions &O, TemplateData &D, DiagnosticList &) { fillLockCommon(S, O, D); },
       nullptr, "hpp"},
      {"lockhash", "lockhash.h.mustache", "lockhash.h", [](const GenOptions &O) { return O.wantsLock("hash"); },
       [](const ResolvedSpec &S, const GenOptions &O, TemplateData &D, DiagnosticList &) { fillLockhashData(S, O, D); }},
      {"counter", "counter.h.mustache", "counter.h", [](const GenOptions &O) { return O.wantsLock("counter"); },
       [](const ResolvedSpec &S, const GenOptions &O, TemplateData &D, DiagnosticList &) { fillCounterData(S, O, D); }},
      {"spinlock_asm_h", "spinlock_asm.h.mustache", "spinlock_asm.h", anyAsmLock,
       [](const ResolvedSpec &S, const GenOptions &O, TemplateData &D, DiagnosticList &) { fillLockCommon(S, O, D); },
       "spinlock.S.mustache"},
      {"spinlock_asm", "spinlock.S.mustache", "spinlock_{arch}.S", anyAsmLock,
       [](const ResolvedSpec &S, const GenOptions &O, TemplateData &D, DiagnosticList &Diags) {
         fillSpinlockAsmData(S, O, D, Diags);
       },
       "spinlock.S.mustache"},
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
  std::string Check = Spec.model().Target.Check.value_or("");
  Data.set("has_target_check", flag(!Check.empty()));
  Data.set("target_check", Check);
}

std::optional<std::vector<GeneratedFile>> generate(const ResolvedSpec &Spec, const TemplateSet &Templates,
                                                   const GenOptions &Options, DiagnosticList &Diags) {
  auto CheckNames = [&Diags](const std::vector<std::string> &Given, const std::vector<std::string> &Known,
                             const char *What) {
    for (const std::string &A : Given)
      if (std::find(Known.begin(), Known.end(), A) == Known.end()) {
        std::string Message = std::string("unknown ") + What + " '" + A + "'";
        Message += didYouMean(A, Known, "; expected one of " + joinList(Known));
        Diags.error({"lockwright"}, "", Message);
      }
  };
  CheckNames(Options.Artifacts, backendNames(), "artifact");
  CheckNames(Options.Locks, lockPieces(), "lock");
  if (!Options.DefaultLock.empty())
    CheckNames({Options.DefaultLock}, defaultLockNames(), "default lock");
  if (Options.HashSize == 0 || (Options.HashSize & (Options.HashSize - 1)) != 0)
    Diags.error({"lockwright"}, "", "--hash-size " + std::to_string(Options.HashSize) + " is not a power of two");
  if (Options.HashDivisor != "l1" && Options.HashDivisor != "smp")
    Diags.error({"lockwright"}, "", "--hash-divisor must be l1 or smp, not '" + Options.HashDivisor + "'");
  if (Options.CounterStripes == 0)
    Diags.error({"lockwright"}, "", "--counter-stripes must be at least 1");
  if (Diags.hasErrors())
    return std::nullopt;
  // The default lock (and the hashed table, which uses it) must be generated.
  std::string Default = effectiveDefaultLock(Spec, Options);
  if (anySpinlock(Options) && !Options.wantsLock(Default)) {
    Diags.error({"lockwright"}, "", "--locks leaves out '" + Default + "', the default lock of " + Spec.Arch +
                                        "; add it or choose another with --default-lock");
    return std::nullopt;
  }

  std::vector<GeneratedFile> Files;
  bool NotedNoAsm = false;
  for (const Backend &B : backends()) {
    bool Asked = std::find(Options.Artifacts.begin(), Options.Artifacts.end(), B.Name) != Options.Artifacts.end();
    if (Options.Artifacts.empty() ? !B.Enabled(Options) : !Asked)
      continue;
    if (B.NeedsArchTemplate && !Templates.findOwn(Spec.Chain, B.NeedsArchTemplate)) {
      std::string Missing = std::string("no ") + B.NeedsArchTemplate + " for " + Spec.Arch + " (or its parents) under " +
                            Templates.root();
      if (Asked)
        Diags.error({"lockwright"}, "", Missing);
      else if (!NotedNoAsm) // once for the .S and its header
        Diags.note({"lockwright"}, "", Missing + ": no out-of-line assembly routines (" + Options.Prefix +
                                           "_spinlock_asm.h); the inline locks need none");
      NotedNoAsm = true;
      continue;
    }
    TemplateData Data;
    fillCommon(Spec, Options, B.Name, Data);
    B.Fill(Spec, Options, Data, Diags);
    if (B.UnitSuffix) {
      std::optional<TemplateData> Units = renderLockUnits(Spec, Templates, Options, B.UnitSuffix, Data, Diags);
      if (!Units)
        continue;
      Data.set("lock_units", *Units);
    }
    std::optional<std::string> Text = Templates.render(Spec.Chain, B.Template, Data, Diags);
    if (!Text)
      continue;
    if (Text->empty() || Text->back() != '\n')
      *Text += '\n';
    std::string FileName = Options.Prefix + "_" + B.Suffix;
    if (size_t At = FileName.find("{arch}"); At != std::string::npos)
      FileName.replace(At, 6, Spec.Arch);
    Files.push_back({FileName, std::move(*Text), B.Name});
  }
  if (Diags.hasErrors())
    return std::nullopt;
  return Files;
}

} // namespace lockwright
