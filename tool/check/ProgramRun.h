// The whole-program side of `lockwright check`: the summary cache (a TU whose command and
// inputs are unchanged is not parsed again), the reduce step over every TU's summary, and
// printing findings in a stable order. `lockwright report DIR` is the reduce step alone, over
// summaries written by `check --summaries DIR` (one map action per TU in any build system).
#ifndef LOCKWRIGHT_TOOL_CHECK_PROGRAMRUN_H
#define LOCKWRIGHT_TOOL_CHECK_PROGRAMRUN_H

#include "summary/SampleProfile.h"
#include "summary/Summary.h"

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace lockwright {

struct SarifRule;

class CheckDiagnostics;

/// Summaries by a key of the TU's command and the tool's configuration, each valid while the
/// content of every file the TU read is unchanged.
class SummaryCache {
public:
  /// Dir empty: no cache. Salt: what else decides a summary (the tool, the specs, options).
  SummaryCache(std::string Dir, std::string Salt) : Dir(std::move(Dir)), Salt(std::move(Salt)) {}
  bool enabled() const { return !Dir.empty(); }
  /// The key of a TU: its compile commands, each as directory, file and arguments.
  std::string keyFor(const std::vector<std::vector<std::string>> &Commands, const std::string &Arch) const;
  /// The summary stored under Key whose inputs all still hash as recorded.
  std::optional<TuSummary> lookup(const std::string &Key) const;
  /// Stores S under Key (atomically); a failure is only a missed cache entry, said once.
  void store(const std::string &Key, const TuSummary &S);

private:
  std::string pathFor(const std::string &Key) const;
  /// The content hash of an input file, read once per run: the TUs of a project share most
  /// of their headers. None when it cannot be read.
  std::optional<std::string> inputHash(const std::string &Path) const;
  std::string Dir, Salt;
  bool WarnedStore = false;
  mutable std::mutex HashesLock; // lookups run on the -j workers
  mutable std::map<std::string, std::optional<std::string>> InputHashes;
};

/// The default cache directory: $XDG_CACHE_HOME/lockwright, or ~/.cache/lockwright.
std::string defaultCacheDir();

/// A hash of every file under Dir (paths and contents), for the cache's salt.
std::string treeHash(const std::string &Dir);

/// The file --summaries DIR writes for a TU (stable, so build systems can name it).
std::string summaryFileName(const std::string &Source, const std::string &Arch);

/// The findings of the checks judged on the whole program (the reduce step); with a sample
/// profile, writers it never saw run are cold (ProgramSummary::coolWritersOffProfile); unless
/// Quiet, a line says how many of the writers it saw.
std::vector<Finding> reduceProgram(const std::vector<const TuSummary *> &Summaries, unsigned &Suppressed,
                                   const SampleProfile *Profile = nullptr, bool Quiet = true);

/// --sample-profile (Given, naming Path) and --hot-share (ShareGiven, Share) as
/// check and report take them: 0 with the profile in Profile (none without --sample-profile), or
/// the exit status after saying what is wrong under Command ("report: "): 2 for a usage error,
/// 1 for a profile that cannot be read ("PATH:LINE:COL: error:" where it cannot be parsed).
int profileFromOptions(bool Given, const std::string &Path, bool ShareGiven, double Share, const char *Command,
                       std::optional<SampleProfile> &Profile);

/// Prints Findings through Consumer, clang's way.
void printFindings(CheckDiagnostics &Consumer, const std::vector<const std::vector<Finding> *> &Findings);

/// The SARIF rules of every check and of the driver's own errors, with their pages' text.
std::vector<SarifRule> sarifRules(const char *Argv0);

/// Writes a report the user named (--sarif, --export-fixes, --baseline): into an existing
/// directory only, never to stdout; says what went wrong under Option's name.
bool writeReport(const std::string &Path, const std::string &Content, const char *Option);

/// `lockwright report DIR...`: prints the findings of the summaries in DIR and the whole-program
/// checks' findings on them; exit 1 on an error (a compiler error, --warnings-as-errors).
int runReportTool(const char *Argv0, const std::vector<std::string> &Args);

} // namespace lockwright

#endif
