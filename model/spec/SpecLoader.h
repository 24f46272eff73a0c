// Finds, validates and resolves specs: `inherits:` chains merged parent-first
// (asm-generic's generic base plus overrides), then a CPU variant's overrides.
#ifndef LOCKWRIGHT_MODEL_SPEC_SPECLOADER_H
#define LOCKWRIGHT_MODEL_SPEC_SPECLOADER_H

#include "api/ApiNameEntry.h"
#include "spec/ArchModel.h"
#include "spec/Diagnostics.h"
#include "spec/SpecTree.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lockwright {

/// A fully resolved architecture spec: every fact present, aliases checked, and the typed
/// model built from it, which is what the backends and the checker read.
struct ResolvedSpec {
  std::string Arch;
  std::string Cpu; // empty for the base architecture
  SpecNode Tree;   // the merged document, as `spec show` prints it (and hash() covers)
  /// The spec and its ancestors, child first (ppc64, ppc64le, generic).
  std::vector<std::string> Chain;
  std::shared_ptr<const ArchModel> Model;

  const ArchModel &model() const { return *Model; }

  /// A stable 64-bit FNV-1a hash of the resolved document, as 16 hex digits.
  std::string hash() const;
};

/// One API dialect (specs/api/*.yaml), validated.
struct ApiSpec {
  std::string Dialect;
  std::string Path;
  /// Its `names:`, in spec order: views into Tree, or into the prebuilt tables (Tree null)
  /// when the file is a shipped spec unchanged.
  std::vector<ApiNameEntry> Names;
  std::shared_ptr<const SpecNode> Tree;
};

/// The `names:` entries of a validated API spec's tree, in spec order (views into Root).
std::vector<ApiNameEntry> apiNameEntries(const SpecNode &Root);

class SpecRepository {
public:
  /// SpecDirs are searched in order; each holds arch/*.yaml and api/*.yaml.
  explicit SpecRepository(std::vector<std::string> SpecDirs);

  /// Names of every architecture spec found, sorted.
  std::vector<std::string> archNames() const;
  /// CPU variant names of an architecture (after inheritance), sorted.
  std::vector<std::string> cpuNames(const std::string &Arch, DiagnosticList &Diags);
  /// Whether Arch names a spec here and Cpu (when non-empty) one of its variants. After a failed
  /// resolve it tells a name the user got wrong (a usage error, exit 2) from a broken spec (1).
  bool names(const std::string &Arch, const std::string &Cpu);

  /// Resolves ARCH (and CPU when non-empty).
  std::optional<ResolvedSpec> resolve(const std::string &Arch, const std::string &Cpu,
                                      DiagnosticList &Diags);
  /// Resolves the spec in File; its parents are looked up next to it, then in the spec dirs.
  std::optional<ResolvedSpec> resolveFile(const std::string &File, const std::string &Cpu,
                                          DiagnosticList &Diags);

  /// The architecture whose `target.triples` patterns match Triple.
  /// A spec file that does not load is an error (it might have matched); SpecsBroken, when
  /// given, tells that failure from no spec matching.
  std::optional<std::string> archForTriple(const std::string &Triple, DiagnosticList &Diags,
                                           bool *SpecsBroken = nullptr);

  /// Checks one file of either kind (arch specs are resolved with every CPU variant).
  bool validateFile(const std::string &File, DiagnosticList &Diags);

  /// Loads and validates every API dialect under the spec dirs.
  std::vector<ApiSpec> loadApis(DiagnosticList &Diags);

private:
  struct LoadedFile {
    std::string Path;
    std::optional<SpecNode> Root; // nullopt when the file failed to parse or validate
  };

  const LoadedFile &loadArchFile(const std::string &Path, DiagnosticList &Diags);
  std::optional<std::string> findArchFile(const std::string &Name, const std::string &PreferDir) const;
  std::optional<SpecNode> mergeChain(const std::string &StartFile, DiagnosticList &Diags,
                                     std::vector<std::string> *ChainNames = nullptr);
  std::optional<ResolvedSpec> finish(SpecNode Merged, const std::string &Cpu, const SourceLoc &Origin,
                                     std::vector<std::string> Chain, DiagnosticList &Diags);

  std::vector<std::string> Dirs;
  std::map<std::string, LoadedFile> FileCache; // by path
  /// The `target.triples` patterns a file writes itself, read from its top-level `target:`
  /// block alone where the file is in block style (the check of every TU needs them from every
  /// arch spec; parsing and validating whole files cost more than the rest of start-up).
  std::vector<std::string> ownTriples(const std::string &Path, DiagnosticList &Broken);
};

/// Why Dir cannot be a spec directory (none, or not a directory, or without arch/), or nullopt.
std::optional<std::string> specDirProblem(const std::string &Dir);

/// Runs the checks that need the whole resolved spec (aliases, cross-field rules).
void checkResolvedArch(const SpecNode &Tree, DiagnosticList &Diags);

/// The default spec directory: $LOCKWRIGHT_SPEC_DIR, then <exe>/../share/lockwright/specs,
/// then the source tree the tool was built from.
std::string defaultSpecDir(const char *Argv0);
/// The documentation (docs/, with a page per check under checks/), found as the specs are.
std::string defaultDocsDir(const char *Argv0);
std::string defaultTemplateDir(const char *Argv0);
/// The directory with `lockwright tune`'s probe source: $LOCKWRIGHT_TUNE_DIR, the installed
/// share/lockwright/tune beside the binary, or the source tree's tune/.
std::string defaultTuneDir(const char *Argv0);

} // namespace lockwright

#endif
