#include "tune/TuneAnalysis.h"

#include "spec/ArchModel.h"
#include "spec/LockAlgorithms.h"
#include "StringList.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>

namespace lockwright {

namespace {

std::string fixed(double V, int Decimals) {
  char Buffer[64];
  std::snprintf(Buffer, sizeof Buffer, "%.*f", Decimals, V);
  return Buffer;
}

double percentile(const std::vector<double> &Sorted, double Q) {
  double At = Q * (Sorted.size() - 1);
  size_t Below = static_cast<size_t>(std::floor(At));
  size_t Above = std::min(Below + 1, Sorted.size() - 1);
  return Sorted[Below] + (Sorted[Above] - Sorted[Below]) * (At - Below);
}

/// Text padded with blanks to Width (on the left when Right), as a table column; never cut.
std::string padded(const std::string &Text, size_t Width, bool Right = false) {
  std::string Pad(Text.size() < Width ? Width - Text.size() : 0, ' ');
  return Right ? Pad + Text : Text + Pad;
}

std::vector<std::string> splitCsv(const std::string &Line) {
  std::vector<std::string> Fields;
  std::string Field;
  std::istringstream In(Line);
  while (std::getline(In, Field, ','))
    Fields.push_back(Field);
  return Fields;
}

bool toNumber(const std::string &Text, double &Out) {
  if (Text.empty())
    return false;
  char *End = nullptr;
  Out = std::strtod(Text.c_str(), &End);
  // A figure is nanoseconds, Mops/s or a share: anything past 1e9 is not one.
  return *End == '\0' && std::isfinite(Out) && Out >= 0 && Out <= 1e9;
}

bool toCount(const std::string &Text, unsigned &Out) {
  double V = 0;
  if (!toNumber(Text, V) || V != std::floor(V) || V > 1e6)
    return false;
  Out = static_cast<unsigned>(V);
  return true;
}

unsigned nextPowerOfTwo(unsigned V) {
  unsigned P = 1;
  while (P < V)
    P <<= 1;
  return P;
}

/// A YAML double-quoted scalar.
std::string quoted(const std::string &Text) {
  std::string Out = "\"";
  for (char C : Text) {
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C == '\n' ? ' ' : C;
  }
  return Out + "\"";
}

std::string cpusText(unsigned N) { return std::to_string(N) + (N == 1 ? " CPU" : " CPUs"); }

/// "measured by lockwright tune 0.1.0 on CPU (N CPUs, Linux x), DATE: "
std::string measuredPrefix(const MachineFacts &M) {
  return std::string(MeasuredSourcePrefix) + " " + M.Version + (M.Quick ? " --quick" : "") + " on " + M.CpuModel + " (" +
         cpusText(M.OnlineCpus) + ", " + M.Kernel + "), " + M.Date + ": ";
}

/// Every generated lock, in the algorithm table's order (the probe measures them all; those
/// that may be a spec's default_lock are the candidates).
std::vector<std::string> generatedLocks() {
  std::vector<std::string> Names;
  for (const LockAlgorithm &A : lockAlgorithms())
    Names.push_back(A.Name);
  return Names;
}

const std::vector<std::string> &counterVariants() {
  static const std::vector<std::string> Variants = {"atomic", "striped", "per_thread"};
  return Variants;
}

const std::vector<std::pair<std::string, std::string>> &counterMixes() {
  static const std::vector<std::pair<std::string, std::string>> Mixes = {
      {"inc", "increments"}, {"add", "adds"}, {"read", "reads"}, {"mix", "9 increments to 1 read"}};
  return Mixes;
}

std::optional<Spread> spreadAt(const std::map<std::pair<std::string, unsigned>, std::vector<double>> &M,
                               const std::string &Name, unsigned Threads) {
  auto It = M.find({Name, Threads});
  if (It == M.end() || It->second.empty())
    return std::nullopt;
  return spreadOf(It->second);
}

std::optional<Spread> counterAt(const ProbeSamples &S, const std::string &Variant, const std::string &Mix,
                                unsigned Threads) {
  auto It = S.Counter.find({Variant, Mix, Threads});
  if (It == S.Counter.end() || It->second.empty())
    return std::nullopt;
  return spreadOf(It->second);
}

std::string threadsText(unsigned N) { return std::to_string(N) + (N == 1 ? " thread" : " threads"); }


} // namespace

unsigned lineSizeOrNone(unsigned Bytes) {
  return Bytes >= 8 && Bytes <= MaxDistance && (Bytes & (Bytes - 1)) == 0 ? Bytes : 0;
}

std::string machineText(const std::string &Text) {
  std::string Out;
  for (unsigned char C : Text)
    Out += C >= 0x20 && C < 0x7f ? static_cast<char>(C) : '?';
  return withoutCommentEnd(Out);
}

std::string Spread::text(int Decimals) const {
  return fixed(Median, Decimals) + " [" + fixed(Low, Decimals) + ", " + fixed(High, Decimals) + "]";
}

Spread spreadOf(std::vector<double> Samples) {
  Spread S;
  if (Samples.empty())
    return S;
  std::sort(Samples.begin(), Samples.end());
  S.Runs = static_cast<unsigned>(Samples.size());
  S.Median = percentile(Samples, 0.5);
  S.Low = percentile(Samples, 0.25);
  S.High = percentile(Samples, 0.75);
  return S;
}

bool above(const Spread &A, const Spread &B) { return A.Low > B.High; }

bool parseProbeRows(const std::string &Text, ProbeSamples &Into, MachineFacts *Machine, std::string &Error) {
  std::istringstream In(Text);
  unsigned LineNo = 0;
  for (std::string Line; std::getline(In, Line);) {
    ++LineNo;
    if (Line.empty() || Line[0] == '#')
      continue;
    std::vector<std::string> F = splitCsv(Line);
    auto Bad = [&](const std::string &Why) {
      Error = "line " + std::to_string(LineNo) + ": " + Why + ": '" + Line + "'";
      return false;
    };
    if (F[0] == "error")
      return Bad("the probe failed");
    if (F[0] == "end") {
      unsigned Count = 0;
      if (F.size() != 2 || !toCount(F[1], Count) || Count != Into.Rows)
        return Bad("the recording ends short: its end row counts " + (F.size() == 2 ? F[1] : std::string("?")) +
                   " figures, " + std::to_string(Into.Rows) + " came before it");
      Into.Complete = true;
      continue;
    }
    if (F[0] == "machine") {
      size_t Value = Line.find(',', 8);
      if (F.size() < 2 || Value == std::string::npos)
        return Bad("expected machine,KEY,VALUE");
      std::string Key = F[1], Text = machineText(Line.substr(Value + 1));
      unsigned N = 0;
      bool Number = toCount(Text, N);
      if (!Machine)
        continue;
      if (Key == "cpu_model")
        Machine->CpuModel = Text;
      else if (Key == "arch")
        Machine->Arch = Text;
      else if (Key == "cpu_variant")
        Machine->CpuVariant = Text;
      else if (Key == "version")
        Machine->Version = Text;
      else if (Key == "quick")
        Machine->Quick = Text == "yes";
      else if (Key == "kernel")
        Machine->Kernel = Text;
      else if (Key == "date")
        Machine->Date = Text;
      else if (Key == "online_cpus" && Number)
        Machine->OnlineCpus = N;
      else if (Key == "os_l1_line" && Number)
        Machine->OsL1Line = lineSizeOrNone(N);
      else if (Key == "os_coherency_line" && Number)
        Machine->OsCoherencyLine = lineSizeOrNone(N);
      else if (Key == "distance_cpus" && F.size() == 4)
        Machine->DistanceCpus = {std::atoi(F[2].c_str()), std::atoi(F[3].c_str())};
      else if (Key == "distance_siblings")
        Machine->DistanceSiblings = Text == "yes";
      else
        return Bad("unknown machine fact");
      continue;
    }
    double V = 0, W = 0;
    unsigned N = 0;
    if (F[0] == "distance") {
      if (F.size() != 4 || !toCount(F[1], N) || !toNumber(F[3], V))
        return Bad("expected distance,BYTES,REPEAT,NS");
      if (N < 1 || N > MaxDistance)
        return Bad("a distance from 1 to " + std::to_string(MaxDistance) + " bytes");
      Into.Distance[N].push_back(V);
      ++Into.Rows;
    } else if (F[0] == "lock") {
      if (F.size() != 6 || !toCount(F[2], N) || !toNumber(F[4], V) || !toNumber(F[5], W) || W > 1)
        return Bad("expected lock,NAME,THREADS,REPEAT,MOPS,FAIRNESS");
      Into.LockMops[{F[1], N}].push_back(V);
      Into.LockFairness[{F[1], N}].push_back(W);
      ++Into.Rows;
    } else if (F[0] == "counter") {
      if (F.size() != 6 || !toCount(F[3], N) || !toNumber(F[5], V))
        return Bad("expected counter,VARIANT,MIX,THREADS,REPEAT,NS");
      Into.Counter[{F[1], F[2], N}].push_back(V);
      ++Into.Rows;
    } else if (F[0] == "wait") {
      if (F.size() != 4 || !toNumber(F[3], V))
        return Bad("expected wait,WHAT,REPEAT,NS");
      Into.Wait[F[1]].push_back(V);
      ++Into.Rows;
    } else {
      return Bad("not a probe row");
    }
  }
  return true;
}

std::string probeRowsText(const ProbeSamples &S, const MachineFacts &M) {
  std::string Out = "# lockwright tune recording: judge it again with `lockwright tune --probe-results FILE`\n"
                    "machine,version," + M.Version + "\nmachine,arch," + M.Arch + "\nmachine,cpu_variant," +
                    M.CpuVariant + "\nmachine,quick," + (M.Quick ? "yes" : "no") + "\n" +
                    "machine,cpu_model," + M.CpuModel + "\nmachine,kernel," + M.Kernel + "\nmachine,date," + M.Date +
                    "\nmachine,online_cpus," + std::to_string(M.OnlineCpus) + "\nmachine,os_l1_line," +
                    std::to_string(M.OsL1Line) + "\nmachine,os_coherency_line," + std::to_string(M.OsCoherencyLine) +
                    "\nmachine,distance_cpus," + std::to_string(M.DistanceCpus.first) + "," +
                    std::to_string(M.DistanceCpus.second) + "\nmachine,distance_siblings," +
                    (M.DistanceSiblings ? "yes" : "no") + "\n";
  for (const auto &[D, Samples] : S.Distance)
    for (size_t I = 0; I < Samples.size(); ++I)
      Out += "distance," + std::to_string(D) + "," + std::to_string(I) + "," + fixed(Samples[I], 4) + "\n";
  for (const auto &[Key, Samples] : S.LockMops)
    for (size_t I = 0; I < Samples.size(); ++I)
      Out += "lock," + Key.first + "," + std::to_string(Key.second) + "," + std::to_string(I) + "," +
             fixed(Samples[I], 4) + "," + fixed(S.LockFairness.at(Key)[I], 4) + "\n";
  for (const auto &[Key, Samples] : S.Counter)
    for (size_t I = 0; I < Samples.size(); ++I)
      Out += "counter," + std::get<0>(Key) + "," + std::get<1>(Key) + "," + std::to_string(std::get<2>(Key)) + "," +
             std::to_string(I) + "," + fixed(Samples[I], 4) + "\n";
  for (const auto &[What, Samples] : S.Wait)
    for (size_t I = 0; I < Samples.size(); ++I)
      Out += "wait," + What + "," + std::to_string(I) + "," + fixed(Samples[I], 4) + "\n";
  return Out + "end," + std::to_string(S.Rows) + "\n";
}

Decision decideDestructive(const ProbeSamples &S, const CitedFacts &Cited, const MachineFacts &Machine) {
  Decision D{"destructive", false, std::to_string(Cited.Destructive), std::to_string(Cited.Destructive), "", ""};
  if (S.Distance.size() < 2) {
    D.Why = Machine.DistanceCpus.first < 0 && Machine.OnlineCpus == 1
                ? "one CPU to run on: two writers only take turns, and no distance can be told apart"
                : "no distance figures";
    return D;
  }
  unsigned FarDistance = S.Distance.rbegin()->first;
  Spread Far = spreadOf(S.Distance.rbegin()->second);
  unsigned Line = Machine.OsCoherencyLine ? Machine.OsCoherencyLine
                  : Machine.OsL1Line      ? Machine.OsL1Line
                                          : Cited.L1Line;
  // The window is the run of slower distances that starts at the nearest pair: a slower
  // distance after one that is not is noise (a blip at 256 must not make the window 512).
  std::optional<unsigned> LastSlow;
  bool Gap = false;
  std::string Outliers;
  double NearLow = 0, NearHigh = 0, AdjacentRatio = 0;
  bool AdjacentSeparated = false;
  unsigned NearFrom = 0, NearTo = 0;
  std::string Curve;
  for (const auto &[Distance, Samples] : S.Distance) {
    Spread At = spreadOf(Samples);
    double Ratio = Far.Median > 0 ? At.Median / Far.Median : 0;
    bool Slower = Distance < FarDistance && Ratio > Tolerance && above(At, Far);
    if (Slower && !Gap)
      LastSlow = Distance;
    else if (Slower)
      Outliers += (Outliers.empty() ? "" : ", ") + std::to_string(Distance) + " bytes " + fixed(Ratio, 2) + "x";
    else if (Distance < FarDistance)
      Gap = true;
    if (Distance < Line) {
      NearLow = NearFrom ? std::min(NearLow, Ratio) : Ratio;
      NearHigh = std::max(NearHigh, Ratio);
      NearFrom = NearFrom ? NearFrom : Distance;
      NearTo = Distance;
    } else if (Distance < 2 * Line && Ratio > AdjacentRatio) {
      AdjacentRatio = Ratio;
      AdjacentSeparated = Slower;
    }
    Curve += (Curve.empty() ? "" : ", ") + std::to_string(Distance) + ": " + At.text();
  }
  std::string Pinning = Machine.DistanceCpus.first < 0
                            ? "unpinned"
                            : "on CPUs " + std::to_string(Machine.DistanceCpus.first) + " and " +
                                  std::to_string(Machine.DistanceCpus.second) +
                                  (Machine.DistanceSiblings ? " (SMT siblings of one core: they share its L1)"
                                                            : " (distinct cores)");
  if (NearFrom)
    D.Figures = "two writers " + std::to_string(NearFrom) + "-" + std::to_string(NearTo) + " bytes apart cost " +
                (NearLow == NearHigh ? fixed(NearHigh, 2) : fixed(NearLow, 2) + "-" + fixed(NearHigh, 2)) + "x the " +
                std::to_string(FarDistance) + "-byte case";
  if (AdjacentRatio > 0)
    D.Figures += std::string(D.Figures.empty() ? "" : ", ") + "the adjacent line (" + std::to_string(Line) + "-" +
                 std::to_string(2 * Line - 1) + " bytes apart) " + fixed(AdjacentRatio, 2) + "x" +
                 (AdjacentRatio > Tolerance && !AdjacentSeparated ? " (within the far case's spread)" : "");
  D.Figures += "; ns per store, median [p25, p75] of " + std::to_string(Far.Runs) + " runs, " + Pinning + ": " + Curve;
  if (!Outliers.empty())
    D.Figures += "; farther out " + Outliers + " taken for noise (a distance between is not slower)";
  if (!LastSlow) {
    D.Why = "the noise cannot separate near writers from far ones (the nearest pair is not both over " +
            fixed(Tolerance, 2) + "x the far case and outside its spread)";
    return D;
  }
  auto Next = S.Distance.upper_bound(*LastSlow);
  if (Next->first == FarDistance) {
    D.Why = "every distance up to " + std::to_string(*LastSlow) + " bytes is slower than the " +
            std::to_string(FarDistance) + "-byte case: no distance measured is far enough";
    return D;
  }
  unsigned Value = nextPowerOfTwo(Next->first);
  if (Value < Line) {
    D.Figures += "; the window measured (" + std::to_string(Value) + ") is below the " + std::to_string(Line) +
                 "-byte line, which bounds it";
    Value = Line;
  }
  // The OS's line size against the window: one line, or a pair the adjacent-line prefetcher joins.
  if (unsigned OsLine = Machine.OsCoherencyLine ? Machine.OsCoherencyLine : Machine.OsL1Line)
    D.Figures += "; the OS reports a " + std::to_string(OsLine) + "-byte line: the window is " +
                 (Value == OsLine ? std::string("one line")
                                  : std::to_string(Value / OsLine) + " lines" +
                                        (Value == 2 * OsLine ? " (the adjacent-line prefetcher's pair)" : ""));
  D.Measured = true;
  D.Value = std::to_string(Value);
  return D;
}

Decision decideL1Line(const CitedFacts &Cited, const MachineFacts &Machine) {
  Decision D{"l1_line", false, std::to_string(Cited.L1Line), std::to_string(Cited.L1Line), "", ""};
  unsigned Os = Machine.OsCoherencyLine ? Machine.OsCoherencyLine : Machine.OsL1Line;
  if (!Os) {
    D.Why = "the OS does not report a line size";
    return D;
  }
  D.Figures = "the OS reports a " + std::to_string(Os) + "-byte line (" +
              (Machine.OsCoherencyLine ? "sysfs cache/index0/coherency_line_size" : "sysconf _SC_LEVEL1_DCACHE_LINESIZE") +
              ")";
  if (Os == Cited.L1Line) {
    D.Why = "the OS agrees with the spec";
    return D;
  }
  D.Measured = true;
  D.Value = std::to_string(Os);
  return D;
}

/// Whether Faster reliably beats Slower by more than the tolerance (higher is better).
static bool reliablyHigher(const Spread &Faster, const Spread &Slower) {
  return above(Faster, Slower) && Faster.Median > Tolerance * Slower.Median;
}

Decision decideDefaultLock(const ProbeSamples &S, const CitedFacts &Cited, unsigned Threads) {
  Decision D{"default_lock", false, Cited.DefaultLock, Cited.DefaultLock, "", ""};
  struct Row {
    std::string Name;
    Spread Mops, Fairness;
  };
  std::vector<Row> Rows;
  for (const std::string &Name : defaultLockNames()) {
    std::optional<Spread> Mops = spreadAt(S.LockMops, Name, Threads), Fair = spreadAt(S.LockFairness, Name, Threads);
    if (Mops && Fair)
      Rows.push_back({Name, *Mops, *Fair});
  }
  if (Rows.empty()) {
    D.Why = "no lock figures" + (Threads ? " for " + threadsText(Threads) : "");
    return D;
  }
  std::sort(Rows.begin(), Rows.end(), [](const Row &A, const Row &B) { return A.Mops.Median > B.Mops.Median; });
  D.Figures = threadsText(Threads) + " on one lock, Mops/s and fairness (fewest / most acquisitions of a thread), "
              "median [p25, p75] of " + std::to_string(Rows.front().Mops.Runs) + " runs: ";
  for (size_t I = 0; I < Rows.size(); ++I)
    D.Figures += (I ? "; " : "") + Rows[I].Name + " " + Rows[I].Mops.text(1) + " fairness " + Rows[I].Fairness.text(2);
  if (Threads < 2) {
    D.Why = "one thread does not contend";
    return D;
  }
  const Row *Best = nullptr, *CitedRow = nullptr;
  for (const Row &R : Rows) {
    if (!Best && R.Fairness.Low >= FairnessFloor)
      Best = &R;
    if (R.Name == Cited.DefaultLock)
      CitedRow = &R;
  }
  std::string Floor = fixed(FairnessFloor, 2);
  if (!Best) {
    D.Why = "no lock gives every thread " + Floor + " of the busiest one's acquisitions in 3 runs of 4";
    return D;
  }
  // The cited lock goes only for a fair lock reliably more than 10 % faster: never for a slower
  // one because the cited lock's fairness dipped (a queued lock that lets a running thread steal
  // from a preempted one is unfair on purpose).
  if (CitedRow && Best != CitedRow && !reliablyHigher(Best->Mops, CitedRow->Mops)) {
    D.Why = above(Best->Mops, CitedRow->Mops) || CitedRow->Mops.Median >= Best->Mops.Median
                ? Best->Name + ", the fastest lock that is fair in 3 runs of 4, is not more than 10 % faster than " +
                      CitedRow->Name + " beyond the noise"
                : "the noise cannot separate " + Best->Name + " from " + CitedRow->Name;
    return D;
  }
  D.Measured = true;
  D.Value = Best->Name;
  D.Figures += "; the fastest whose fairness is at least " + Floor + " in 3 runs of 4 is " + Best->Name;
  return D;
}

Decision decideCounter(const ProbeSamples &S, const CitedFacts &Cited, unsigned Threads) {
  Decision D{"counter", false, Cited.Counter, Cited.Counter, "", ""};
  std::optional<Spread> Atomic = counterAt(S, "atomic", "inc", Threads),
                        Striped = counterAt(S, "striped", "inc", Threads);
  if (!Atomic || !Striped) {
    D.Why = "no counter figures" + (Threads ? " for " + threadsText(Threads) : "");
    return D;
  }
  D.Figures = threadsText(Threads) + " on one counter, ns per op, median [p25, p75] of " +
              std::to_string(Atomic->Runs) + " runs:";
  for (const auto &[Mix, Words] : counterMixes()) {
    std::string Part;
    for (const std::string &Variant : counterVariants())
      if (std::optional<Spread> At = counterAt(S, Variant, Mix, Threads))
        Part += (Part.empty() ? "" : ", ") + Variant + " " + At->text();
    if (!Part.empty())
      D.Figures += (Mix == "inc" ? " " : "; ") + Words + ": " + Part;
  }
  if (Threads < 2) {
    D.Why = "one thread does not contend";
    return D;
  }
  // The spec's counter is local_t's: written far more often than read, so increments decide.
  const std::string Faster = Striped->Median < Atomic->Median ? "striped" : "atomic";
  const Spread &Fast = Faster == "striped" ? *Striped : *Atomic, &Slow = Faster == "striped" ? *Atomic : *Striped;
  // Lower is better here: the slower one's cost must reliably exceed the faster's by 10 %.
  if (Faster != Cited.Counter && !reliablyHigher(Slow, Fast)) {
    D.Why = "the noise cannot separate atomic from striped increments by more than 10 %";
    return D;
  }
  D.Measured = true;
  D.Value = Faster;
  D.Figures += "; increments decide (a local_t-style counter is written far more than read): " + Faster;
  return D;
}

void decideAll(TuneReport &R) {
  // The contended case: the most threads the locks ran with (0: no lock figures).
  unsigned Contended = 0;
  for (const auto &[Key, Samples] : R.Samples.LockMops)
    Contended = std::max(Contended, Key.second);
  Decision L1 = decideL1Line(R.Cited, R.Machine);
  Decision Destructive = decideDestructive(R.Samples, R.Cited, R.Machine);
  // The spec requires destructive >= l1_line: a kept destructive below a measured line moves up.
  unsigned L1Value = static_cast<unsigned>(std::stoul(L1.Value));
  if (std::stoul(Destructive.Value) < L1Value) {
    Destructive.Measured = true;
    Destructive.Value = L1.Value;
    Destructive.Figures += "; raised to the " + L1.Value + "-byte line the OS reports";
  }
  R.Decisions = {Destructive, L1, decideDefaultLock(R.Samples, R.Cited, Contended),
                 decideCounter(R.Samples, R.Cited, Contended)};
}

namespace {

const std::string &citedSourceOf(const CitedFacts &C, const std::string &Fact) {
  if (Fact == "destructive")
    return C.DestructiveSource;
  if (Fact == "l1_line")
    return C.L1LineSource;
  if (Fact == "default_lock")
    return C.DefaultLockSource;
  return C.CounterSource;
}

/// The tables behind the decisions, each line prefixed with Lead.
std::string tables(const TuneReport &R, const std::string &Lead) {
  std::string Out;
  auto Line = [&](const std::string &Text) { Out += Lead + Text + "\n"; };
  if (!R.Samples.Distance.empty()) {
    Spread Far = spreadOf(R.Samples.Distance.rbegin()->second);
    Line("destructive distance: ns per store of two writers d bytes apart, median [p25, p75]");
    Line("      d  ns                       x far");
    for (const auto &[Distance, Samples] : R.Samples.Distance) {
      Spread At = spreadOf(Samples);
      Line("  " + padded(std::to_string(Distance), 5, true) + "  " + padded(At.text(), 23) + "  " +
           fixed(Far.Median > 0 ? At.Median / Far.Median : 0.0, 2));
    }
  }
  std::set<unsigned> LockThreads;
  for (const auto &[Key, Samples] : R.Samples.LockMops)
    LockThreads.insert(Key.second);
  if (!LockThreads.empty()) {
    Line("locks: Mops/s (all threads) and fairness (fewest / most acquisitions of a thread)");
    Line("  threads  lock    Mops/s                   fairness");
    for (unsigned T : LockThreads)
      for (const std::string &Name : generatedLocks())
        if (std::optional<Spread> Mops = spreadAt(R.Samples.LockMops, Name, T)) {
          Line("  " + padded(std::to_string(T), 7, true) + "  " + padded(Name, 6) + "  " + padded(Mops->text(1), 23) +
               "  " + spreadAt(R.Samples.LockFairness, Name, T)->text(2));
        }
  }
  std::set<unsigned> CounterThreads;
  for (const auto &[Key, Samples] : R.Samples.Counter)
    CounterThreads.insert(std::get<2>(Key));
  if (!CounterThreads.empty()) {
    Line("counters: ns per op of each thread on one counter");
    Line("  threads  mix   atomic                 striped                per_thread");
    for (unsigned T : CounterThreads)
      for (const auto &[Mix, Words] : counterMixes()) {
        std::string Text = "  " + padded(std::to_string(T), 7, true) + "  " + padded(Mix, 4);
        for (const std::string &Variant : counterVariants()) {
          std::optional<Spread> S = counterAt(R.Samples, Variant, Mix, T);
          Text += "  " + padded(S ? S->text() : "-", 21);
        }
        Text.erase(Text.find_last_not_of(' ') + 1);
        Line(Text);
      }
  }
  if (!R.Samples.Wait.empty()) {
    Line("wait: ns, median [p25, p75]");
    for (auto [What, Words] : {std::pair{"relax", "cpu_relax"}, std::pair{"poll", "one poll (acquire load, relax)"},
                               std::pair{"acquire_load", "acquire load"}})
      if (auto It = R.Samples.Wait.find(What); It != R.Samples.Wait.end())
        Line(std::string("  ") + Words + ": " + spreadOf(It->second).text());
  }
  return Out;
}

} // namespace

std::string renderOverlay(const TuneReport &R, const std::string &Name) {
  const MachineFacts &M = R.Machine;
  std::string Label = R.Cited.Arch + (R.Cited.Cpu.empty() ? "" : " (cpu " + R.Cited.Cpu + ")");
  std::string Out;
  Out += "# A spec overlay for " + Label + " written by lockwright tune " + M.Version + " on " + M.CpuModel + " (" +
         cpusText(M.OnlineCpus) + ", " + M.Kernel + "), " + M.Date + ".\n";
  if (M.Quick)
    Out += "# --quick: short runs, rough figures (a smoke test); measure without it before committing this.\n";
  Out += "# It is a measurement of one machine: rerun `lockwright tune` rather than edit the figures. Use it\n"
         "# with `lockwright gen --spec FILE` and `lockwright check --spec FILE` (docs/tune.md).\n#\n";
  Out += tables(R, "# ");
  Out += "#\n";
  for (const Decision &D : R.Decisions)
    if (!D.Measured)
      Out += "# " + D.Fact + ": kept the cited " + D.Cited + ": " + D.Why + (D.Figures.empty() ? "" : " (" + D.Figures + ")") + "\n";
  Out += "name: " + quoted(Name) + "\n"; // quoted: `null` is a name here, not YAML's null
  Out += "inherits: " + R.Cited.Arch + "\n";
  if (!R.Cited.Cpu.empty())
    Out += "inherits_cpu: " + R.Cited.Cpu + "\n";
  Out += "description: " + quoted(Label + " as lockwright tune measured it on " + M.CpuModel) + "\n";
  auto Fact = [&](const Decision &D, const std::string &Indent) {
    std::string Source = measuredPrefix(M) + D.Figures + "; cited: " + D.Cited + " (" + citedSourceOf(R.Cited, D.Fact) + ")";
    return Indent + D.Fact + ":\n" + Indent + "  value: " + D.Value + "\n" + Indent + "  source: " + quoted(Source) + "\n";
  };
  std::string Cache;
  for (const Decision &D : R.Decisions)
    if (D.Measured && (D.Fact == "destructive" || D.Fact == "l1_line"))
      Cache += Fact(D, "  ");
  if (!Cache.empty())
    Out += "cache:\n" + Cache;
  for (const Decision &D : R.Decisions)
    if (D.Measured && D.Fact != "destructive" && D.Fact != "l1_line")
      Out += Fact(D, "");
  return Out;
}

std::string renderComparison(const TuneReport &R) {
  const MachineFacts &M = R.Machine;
  std::string Out = "lockwright tune " + M.Version + ": " + M.CpuModel + " (" + cpusText(M.OnlineCpus) +
                    ", " + M.Kernel + "), " + M.Date + ", against the spec of " + R.Cited.Arch +
                    (R.Cited.Cpu.empty() ? "" : " (cpu " + R.Cited.Cpu + ")") +
                    (M.Quick ? "\n--quick: short runs, rough figures (a smoke test)" : "") + "\n\n";
  Out += padded("fact", 13) + " " + padded("cited", 8) + " " + padded("measured", 10) + " verdict\n";
  for (const Decision &D : R.Decisions) {
    std::string Verdict = !D.Measured ? "kept: " + D.Why
                          : D.Value == D.Cited ? "confirmed"
                                               : "differs: the overlay says " + D.Value;
    Out += padded(D.Fact, 13) + " " + padded(D.Cited, 8) + " " + padded(D.Measured ? D.Value : "-", 10) + " " +
           Verdict + "\n";
  }
  Out += "\n" + tables(R, "");
  return Out;
}

} // namespace lockwright
