// Shared by the backends: turning the architecture model into C fragments for templates.
#ifndef LOCKWRIGHT_GENERATORS_EMIT_BACKENDS_H
#define LOCKWRIGHT_GENERATORS_EMIT_BACKENDS_H

#include "emit/Generator.h"
#include "emit/TemplateRenderer.h"
#include "spec/ArchModel.h"

#include <optional>
#include <string>
#include <vector>

namespace lockwright {


/// A C statement (without ';') implementing a fence: inline asm, a compiler barrier or a
/// C11 fence (an alias is resolved in the model already).
std::string fenceStatement(const Fence &F);

/// A mustache boolean.
TemplateData flag(bool B);

/// Fills the data every template shares: prefix, banner, arch, hash.
void fillCommon(const ResolvedSpec &Spec, const GenOptions &Options, const std::string &Artifact,
                TemplateData &Data);

void fillCacheData(const ResolvedSpec &Spec, TemplateData &Data);
void fillBarrierData(const ResolvedSpec &Spec, TemplateData &Data);
void fillCondWaitData(const ResolvedSpec &Spec, TemplateData &Data);
void fillLockCommon(const ResolvedSpec &Spec, const GenOptions &Options, TemplateData &Data);
void fillSpinlockData(const ResolvedSpec &Spec, const GenOptions &Options, TemplateData &Data);
void fillLockhashData(const ResolvedSpec &Spec, const GenOptions &Options, TemplateData &Data);
void fillCounterData(const ResolvedSpec &Spec, const GenOptions &Options, TemplateData &Data);
void fillSpinlockAsmData(const ResolvedSpec &Spec, const GenOptions &Options, TemplateData &Data,
                         DiagnosticList &Diags);

/// A fence's instructions for hand-written assembly: empty for a compiler
/// barrier, nullopt for a C11 fence (it has no instruction to name).
std::optional<std::vector<std::string>> fenceLines(const Fence &F);

/// The spec's default lock algorithm unless --default-lock overrides it.
std::string effectiveDefaultLock(const ResolvedSpec &Spec, const GenOptions &Options);

} // namespace lockwright

#endif
