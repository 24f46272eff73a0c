// Bytes as an architecture spec file: parsed, validated, merged with the shipped specs it
// inherits, resolved with each CPU variant it declares, and its typed model built. Any input
// must end in a resolved spec or located diagnostics, never a crash, hang or runaway memory.
#include "FuzzSupport.h"
#include "spec/SpecLoader.h"

#include <cstdint>

using namespace lockwright;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  fuzz::FreshFile Input(Data, Size);
  SpecRepository &Repo = fuzz::sharedRepository();
  const std::string &File = Input.path();
  DiagnosticList Diags;
  std::optional<ResolvedSpec> Spec = Repo.resolveFile(File, "", Diags);
  if (!Spec)
    return 0;
  (void)Spec->hash();
  (void)Spec->Tree.toYaml();
  // Each CPU variant the fuzzed spec declares is resolved as well.
  if (const SpecNode *Cpus = Spec->Tree.get("cpus"))
    for (const SpecNode &Cpu : Cpus->items())
      (void)Repo.resolveFile(File, Cpu.value(), Diags);
  return 0;
}
