// `lockwright tune`'s judgement, apart from the running: the probe's CSV rows in, the decisions
// (destructive distance, default lock, counter) and the spec overlay out. Pure, so that tests
// can feed recorded or invented figures and get the same overlay every time.
#ifndef LOCKWRIGHT_TOOL_TUNE_TUNEANALYSIS_H
#define LOCKWRIGHT_TOOL_TUNE_TUNEANALYSIS_H

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace lockwright {

/// The median of repeated runs with its spread: the 25th and 75th percentiles (interpolated).
struct Spread {
  double Median = 0, Low = 0, High = 0;
  unsigned Runs = 0;
  /// "1.38 [1.31, 1.40]"
  std::string text(int Decimals = 2) const;
};
Spread spreadOf(std::vector<double> Samples);
/// Whether A is reliably above B: their interquartile ranges do not overlap.
bool above(const Spread &A, const Spread &B);

/// Every row the probe printed, grouped by what was measured.
struct ProbeSamples {
  std::map<unsigned, std::vector<double>> Distance; // bytes apart -> ns per store
  std::map<std::pair<std::string, unsigned>, std::vector<double>> LockMops, LockFairness; // (lock, threads)
  std::map<std::tuple<std::string, std::string, unsigned>, std::vector<double>> Counter; // (variant, mix, threads) -> ns per op
  std::map<std::string, std::vector<double>> Wait; // relax | poll | acquire_load -> ns
  /// Figure rows read; whether a recording's closing "end,N" row came and counted them.
  unsigned Rows = 0;
  bool Complete = false;
};

/// What the spec says before tuning: each fact with its citation.
struct CitedFacts {
  std::string Arch, Cpu;
  unsigned L1Line = 64, Destructive = 64;
  std::string DestructiveSource, L1LineSource;
  std::string DefaultLock, DefaultLockSource;
  std::string Counter, CounterSource;
};

/// Where and when the figures were taken.
struct MachineFacts {
  std::string CpuModel, Kernel, Date, Version;
  /// The spec the figures were taken against (its arch and CPU variant), and whether --quick.
  std::string Arch, CpuVariant;
  bool Quick = false;
  /// The CPUs tune could run on.
  unsigned OnlineCpus = 0;
  /// The line sizes the OS reports (sysconf, sysfs); 0 when it does not say.
  unsigned OsL1Line = 0, OsCoherencyLine = 0;
  /// The CPUs the two distance writers ran on, and whether they are SMT siblings of one core.
  std::pair<int, int> DistanceCpus{-1, -1};
  bool DistanceSiblings = false;
};

/// The largest distance a recording may hold, and the largest line size a spec takes.
constexpr unsigned MaxDistance = 4096;
/// Bytes when they are a line size a spec can carry (a power of two from 8 to 4096), else 0:
/// what the OS reports is checked, not trusted.
unsigned lineSizeOrNone(unsigned Bytes);

/// A machine fact (CPU model, kernel) as the overlay can carry it: printable ASCII, and no "*/"
/// (sources are repeated in the generated headers' comments).
std::string machineText(const std::string &Text);

/// Adds the rows of Text (one probe run's stdout, or a file --raw wrote); false with Error naming
/// the line for a row that is not one (or an "error," row: a lock lost updates). Machine, when
/// given, takes the "machine,KEY,VALUE" rows a recording carries.
bool parseProbeRows(const std::string &Text, ProbeSamples &Into, MachineFacts *Machine, std::string &Error);
/// The machine and the samples as CSV again, in the probe's format (what --raw writes and
/// --probe-results reads: a recording gives the same overlay again).
std::string probeRowsText(const ProbeSamples &S, const MachineFacts &Machine);

/// One tuned fact: measured (Value goes into the overlay) or kept (the cited value stands).
struct Decision {
  std::string Fact;  // "destructive", "default_lock", "counter", "l1_line"
  bool Measured = false;
  std::string Value; // the measured value, or the cited one when kept
  std::string Cited;
  std::string Figures; // the figures behind it, one sentence
  std::string Why;     // why kept, when kept
};

struct TuneReport {
  CitedFacts Cited;
  MachineFacts Machine;
  ProbeSamples Samples;
  std::vector<Decision> Decisions;
};

/// How much a figure must differ to count: a distance slower than the far case, a lock or
/// counter faster than the cited one (10 %), besides quartiles that do not overlap.
constexpr double Tolerance = 1.10;
/// A default lock must give each thread at least this share of the busiest thread's acquisitions,
/// reliably: its fairness's 25th percentile (a lock that starves a thread now and then is out).
constexpr double FairnessFloor = 0.5;

Decision decideDestructive(const ProbeSamples &S, const CitedFacts &Cited, const MachineFacts &Machine);
Decision decideL1Line(const CitedFacts &Cited, const MachineFacts &Machine);
Decision decideDefaultLock(const ProbeSamples &S, const CitedFacts &Cited, unsigned Threads);
Decision decideCounter(const ProbeSamples &S, const CitedFacts &Cited, unsigned Threads);
/// All four, in the order the overlay lists them; the lock and the counter at the most threads
/// the locks ran with.
void decideAll(TuneReport &R);

/// The overlay: `inherits:` the arch (and `inherits_cpu:` the variant), each measured fact with
/// its `source:` (MeasuredSourcePrefix, the machine, the date and the figures), the kept ones and
/// every table as comments.
std::string renderOverlay(const TuneReport &R, const std::string &Name);
/// `tune --compare`: measured against cited, one line per fact, then the tables.
std::string renderComparison(const TuneReport &R);

} // namespace lockwright

#endif
