// Shared by the backends: turning spec nodes into C fragments for templates.
#ifndef LOCKWRIGHT_GENERATORS_EMIT_BACKENDS_H
#define LOCKWRIGHT_GENERATORS_EMIT_BACKENDS_H

#include "emit/Generator.h"
#include "emit/TemplateRenderer.h"

#include <string>

namespace lockwright {

class SpecNode;

/// A C statement (without ';') implementing a fence node: inline asm, a
/// compiler barrier, a C11 fence, or (via `same_as`) another barrier kind.
std::string fenceStatement(const SpecNode &Fence, const SpecNode &Barriers);

/// Quotes instructions as the string of a GNU extended asm statement: one
/// instruction per line, '%' doubled, placeholders mapped to named operands.
std::string asmString(const SpecNode &Instructions, const SpecNode *Modifiers, int Size);

/// "load-load, load-store" from an `orders:` list.
std::string ordersText(const SpecNode *Orders);

/// Fills the data every template shares: prefix, banner, arch, hash.
void fillCommon(const ResolvedSpec &Spec, const GenOptions &Options, const std::string &Artifact,
                TemplateData &Data);

void fillCacheData(const ResolvedSpec &Spec, TemplateData &Data);
void fillBarrierData(const ResolvedSpec &Spec, TemplateData &Data, DiagnosticList &Diags);

} // namespace lockwright

#endif
