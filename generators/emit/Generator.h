// `lockwright gen`: resolved spec -> backends -> files.
//
// As in TableGen, a backend is a small function from the model to template
// data; the template holds the code shape. Adding an artifact is adding a
// backend and a template, never a special case for one architecture.
#ifndef LOCKWRIGHT_GENERATORS_EMIT_GENERATOR_H
#define LOCKWRIGHT_GENERATORS_EMIT_GENERATOR_H

#include "spec/Diagnostics.h"
#include "spec/SpecLoader.h"

#include <optional>
#include <string>
#include <vector>

namespace lockwright {

class TemplateSet;

struct GenOptions {
  std::string Prefix = "lw";
  /// The command that regenerates the output, quoted in each file's banner.
  std::string Invocation;
  /// Backend names to run; empty means all that the lock selection enables.
  std::vector<std::string> Artifacts;
  /// Lock pieces to generate: tas, ticket, mcs, rwlock, hash, counter (empty: all).
  std::vector<std::string> Locks;
  /// Overrides the spec's default_lock for <prefix>_spinlock_t.
  std::string DefaultLock;
  /// Hashed lock table: slots (a power of two), address divisor ("l1" or "smp"), padding.
  unsigned HashSize = 64;
  std::string HashDivisor = "smp";
  bool HashPadded = true;
  /// Striped counters: stripes per counter.
  unsigned CounterStripes = 64;

  bool wantsLock(const std::string &Piece) const;
};

/// The lock pieces --locks accepts, in order.
const std::vector<std::string> &lockPieces();

struct GeneratedFile {
  std::string Name; // file name relative to the output directory
  std::string Text;
  std::string Artifact; // the backend that wrote it ("spinlock_asm")
};

/// Names of the backends in output order ("cache", "barrier", ...).
std::vector<std::string> backendNames();

/// Renders every selected artifact in memory; nothing is returned unless all succeed,
/// so a failure never leaves a half-written output directory.
std::optional<std::vector<GeneratedFile>> generate(const ResolvedSpec &Spec, const TemplateSet &Templates,
                                                   const GenOptions &Options, DiagnosticList &Diags);

/// True when Prefix can start C identifiers and macro names.
bool isValidPrefix(const std::string &Prefix);

} // namespace lockwright

#endif
