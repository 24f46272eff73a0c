// Generated locks against their peers, on the host.
//
//   bench_locks [google benchmark flags]      uncontended ns per lock+unlock, and
//                                             contended throughput at 1..N threads
//   bench_locks --locktest [--threads=1,2,4] [--seconds=S] [--csv=FILE] [--kinds=a,b]
//                                             fixed-time runs: per-thread acquisitions
//                                             (min/mean/max), total rate, fairness,
//                                             and an exact count of the protected counter
//   --quick                                   tiny runs, for the test suite
//   --max-threads=N                           contended runs up to N threads (default
//                                             nproc, at most 64); the locktest adds an
//                                             oversubscribed run with 4 threads per CPU
//                                             (at most 64): fixed time, because a lock that
//                                             convoys there may take minutes per iteration
//   --no-oversubscribe                        leave the oversubscribed run out
//   --repetitions=N                           locktest: N rounds in random order; each row
//                                             is the median round with the rate's CV
#include "lock_kinds.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr unsigned long UncontendedBatch = 256;
constexpr unsigned long ContendedBatch = 16;
constexpr unsigned long LocktestChunk = 16;
constexpr unsigned MaxThreads = 64;

// The lock and the counter it protects, each on its own 128-byte window, so that
// the measurement is the lock's and not a neighbour's.
struct alignas(128) SharedLock {
  alignas(128) unsigned char Lock[BENCH_LOCK_BYTES];
  alignas(128) volatile unsigned long Counter;
};

std::vector<const lock_kind *> allKinds() {
  std::vector<const lock_kind *> Kinds;
  for (size_t I = 0; I < bench_c_kind_count; ++I)
    Kinds.push_back(&bench_c_kinds[I]);
  for (size_t I = 0; I < bench_cxx_kind_count; ++I)
    Kinds.push_back(&bench_cxx_kinds[I]);
  return Kinds;
}

std::vector<std::string> splitList(const std::string &List) {
  std::vector<std::string> Out;
  size_t Start = 0;
  while (Start <= List.size()) {
    size_t Comma = List.find(',', Start);
    if (Comma == std::string::npos)
      Comma = List.size();
    if (Comma > Start)
      Out.push_back(List.substr(Start, Comma - Start));
    Start = Comma + 1;
  }
  return Out;
}

void uncontended(benchmark::State &State, const lock_kind *Kind) {
  auto Shared = std::make_unique<SharedLock>();
  Kind->init(Shared->Lock);
  Shared->Counter = 0;
  for (auto _ : State)
    Kind->run(Shared->Lock, &Shared->Counter, UncontendedBatch);
  uint64_t Ops = State.iterations() * UncontendedBatch;
  if (Shared->Counter != Ops)
    State.SkipWithError("the protected counter lost updates");
  State.SetItemsProcessed(Ops);
  State.counters["ns_per_op"] = benchmark::Counter(static_cast<double>(Ops) / 1e9,
                                                   benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  if (Kind->destroy)
    Kind->destroy(Shared->Lock);
}

// Google Benchmark starts and stops all threads of a run at one barrier, so
// thread 0 can set the lock up before the loop and tear it down after it.
void contended(benchmark::State &State, const lock_kind *Kind, SharedLock *Shared) {
  if (State.thread_index() == 0) {
    Kind->init(Shared->Lock);
    Shared->Counter = 0;
  }
  for (auto _ : State)
    Kind->run(Shared->Lock, &Shared->Counter, ContendedBatch);
  State.SetItemsProcessed(State.iterations() * ContendedBatch);
  if (State.thread_index() == 0 && Kind->destroy)
    Kind->destroy(Shared->Lock);
}

struct LocktestResult {
  unsigned long Min = 0, Max = 0, Total = 0;
  double Mean = 0, Seconds = 0;
  bool Exact = false;
};

// The locktest protocol: N threads start together, take the lock in chunks
// until told to stop, and count their own acquisitions.
LocktestResult locktest(const lock_kind *Kind, unsigned Threads, double Seconds) {
  auto Shared = std::make_unique<SharedLock>();
  Kind->init(Shared->Lock);
  Shared->Counter = 0;
  struct alignas(128) PerThread {
    unsigned long Count = 0;
  };
  std::vector<PerThread> Counts(Threads);
  std::atomic<unsigned> Ready{0};
  std::atomic<bool> Go{false}, Stop{false};
  std::vector<std::thread> Workers;
  for (unsigned T = 0; T < Threads; ++T)
    Workers.emplace_back([&, T] {
      Ready.fetch_add(1);
      while (!Go.load(std::memory_order_acquire))
        std::this_thread::yield();
      unsigned long Mine = 0;
      while (!Stop.load(std::memory_order_relaxed)) {
        Kind->run(Shared->Lock, &Shared->Counter, LocktestChunk);
        Mine += LocktestChunk;
      }
      Counts[T].Count = Mine;
    });
  while (Ready.load() != Threads)
    std::this_thread::yield();
  auto Start = std::chrono::steady_clock::now();
  Go.store(true, std::memory_order_release);
  std::this_thread::sleep_for(std::chrono::duration<double>(Seconds));
  Stop.store(true);
  for (std::thread &W : Workers)
    W.join();
  LocktestResult R;
  R.Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  R.Min = ~0UL;
  for (const PerThread &C : Counts) {
    R.Min = std::min(R.Min, C.Count);
    R.Max = std::max(R.Max, C.Count);
    R.Total += C.Count;
  }
  R.Mean = static_cast<double>(R.Total) / Threads;
  R.Exact = Shared->Counter == R.Total;
  if (Kind->destroy)
    Kind->destroy(Shared->Lock);
  return R;
}

int runLocktest(const std::vector<const lock_kind *> &Kinds, const std::vector<unsigned> &ThreadCounts,
                double Seconds, unsigned Repetitions, const std::string &CsvPath) {
  FILE *Csv = nullptr;
  if (!CsvPath.empty()) {
    Csv = std::fopen(CsvPath.c_str(), "w");
    if (!Csv) {
      std::fprintf(stderr, "bench_locks: cannot write %s\n", CsvPath.c_str());
      return 2;
    }
    std::fprintf(Csv, "kind,family,threads,seconds,min,mean,max,total,rate_ops_per_s,fairness_min_over_max,exact,"
                      "repetitions,rate_cv\n");
  }
  // Every (kind, threads) cell runs once per round; the rounds visit the cells in a new random
  // order each time, so a slow phase of the machine is spread over all of them.
  struct Cell {
    const lock_kind *Kind;
    unsigned Threads;
    std::vector<LocktestResult> Runs;
  };
  std::vector<Cell> Cells;
  for (const lock_kind *Kind : Kinds)
    for (unsigned Threads : ThreadCounts)
      // The floor is no lock: several threads on it race, by design.
      if (std::strcmp(Kind->family, "floor") != 0 || Threads == 1)
        Cells.push_back({Kind, Threads, {}});
  std::vector<size_t> Order(Cells.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::minstd_rand Random(20261202);
  for (unsigned Round = 0; Round < Repetitions; ++Round) {
    std::shuffle(Order.begin(), Order.end(), Random);
    for (size_t I : Order)
      Cells[I].Runs.push_back(locktest(Cells[I].Kind, Cells[I].Threads, Seconds));
  }
  int Failures = 0;
  for (Cell &C : Cells) {
    auto Rate = [](const LocktestResult &R) { return R.Total / R.Seconds; };
    std::vector<LocktestResult> Sorted = C.Runs;
    std::sort(Sorted.begin(), Sorted.end(),
              [&](const LocktestResult &A, const LocktestResult &B) { return Rate(A) < Rate(B); });
    const LocktestResult &R = Sorted[Sorted.size() / 2];
    double Mean = 0, Var = 0;
    for (const LocktestResult &X : C.Runs)
      Mean += Rate(X) / C.Runs.size();
    for (const LocktestResult &X : C.Runs)
      Var += (Rate(X) - Mean) * (Rate(X) - Mean) / (C.Runs.size() > 1 ? C.Runs.size() - 1 : 1);
    double Cv = Mean > 0 ? std::sqrt(Var) / Mean : 0;
    bool Exact = std::all_of(C.Runs.begin(), C.Runs.end(), [](const LocktestResult &X) { return X.Exact; });
    double Fairness = R.Max ? static_cast<double>(R.Min) / R.Max : 0;
    std::printf("%-14s Threads = %2u, Min/Mean/Max = %lu/%.0f/%lu, Total Rate = %.0f op/s (CV %.0f%% of %u), "
                "Fairness = %.3f%s\n",
                C.Kind->name, C.Threads, R.Min, R.Mean, R.Max, Rate(R), 100 * Cv, Repetitions, Fairness,
                Exact ? "" : "  LOST UPDATES: the counter disagrees with the acquisitions");
    if (Csv)
      std::fprintf(Csv, "%s,%s,%u,%.4f,%lu,%.1f,%lu,%lu,%.0f,%.4f,%d,%u,%.4f\n", C.Kind->name, C.Kind->family,
                   C.Threads, R.Seconds, R.Min, R.Mean, R.Max, R.Total, Rate(R), Fairness, Exact ? 1 : 0, Repetitions,
                   Cv);
    Failures += !Exact;
  }
  if (Csv)
    std::fclose(Csv);
  return Failures ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  // A second thread for the whole run: libcs and runtimes take shortcuts while a
  // process is single-threaded (glibc's __libc_single_threaded), and a lock is
  // only ever used in a process that has threads.
  std::atomic<bool> Exiting{false};
  std::thread Parked([&] {
    while (!Exiting.load())
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
  });
  struct JoinAtExit {
    std::atomic<bool> &Flag;
    std::thread &T;
    ~JoinAtExit() {
      Flag.store(true);
      T.join();
    }
  } Joiner{Exiting, Parked};
  bool Locktest = false, Quick = false, Oversubscribe = true;
  std::string Csv, KindList, ThreadList;
  double Seconds = 1.0;
  unsigned Repetitions = 1;
  unsigned Max = std::min<unsigned>(std::max(1u, std::thread::hardware_concurrency()), MaxThreads);
  std::vector<char *> Rest = {argv[0]};
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    auto Value = [&](const char *Flag) { return A.substr(std::strlen(Flag)); };
    if (A == "--locktest")
      Locktest = true;
    else if (A == "--quick")
      Quick = true;
    else if (A == "--no-oversubscribe")
      Oversubscribe = false;
    else if (A.rfind("--csv=", 0) == 0)
      Csv = Value("--csv=");
    else if (A.rfind("--kinds=", 0) == 0)
      KindList = Value("--kinds=");
    else if (A.rfind("--threads=", 0) == 0)
      ThreadList = Value("--threads=");
    else if (A.rfind("--repetitions=", 0) == 0)
      Repetitions = std::max(1, std::atoi(Value("--repetitions=").c_str()));
    else if (A.rfind("--seconds=", 0) == 0)
      Seconds = std::atof(Value("--seconds=").c_str());
    else if (A.rfind("--max-threads=", 0) == 0)
      Max = std::min<unsigned>(std::max(1, std::atoi(Value("--max-threads=").c_str())), MaxThreads);
    else
      Rest.push_back(argv[I]);
  }
  if (Quick) {
    Seconds = 0.05;
    Max = std::min(Max, 2u);
  }

  std::vector<const lock_kind *> Kinds;
  std::vector<std::string> Wanted = splitList(KindList);
  for (const lock_kind *K : allKinds())
    if (Wanted.empty() || std::find(Wanted.begin(), Wanted.end(), K->name) != Wanted.end())
      Kinds.push_back(K);
  if (Kinds.empty()) {
    std::fprintf(stderr, "bench_locks: no lock kind matches --kinds=%s\n", KindList.c_str());
    return 2;
  }

  std::vector<unsigned> ThreadCounts;
  for (const std::string &T : splitList(ThreadList))
    ThreadCounts.push_back(std::min<unsigned>(std::max(1, std::atoi(T.c_str())), MaxThreads));
  if (ThreadCounts.empty())
    for (unsigned T = 1; T <= Max; T *= 2)
      ThreadCounts.push_back(T);
  if (ThreadCounts.back() != Max && ThreadList.empty())
    ThreadCounts.push_back(Max);
  // Threads outnumbering CPUs, as user space often has them: where a lock that spins on
  // a preempted holder or successor shows (std::mutex and pthread_mutex sleep instead).
  unsigned Cpus = std::max(1u, std::thread::hardware_concurrency());
  unsigned Over = std::min(4 * Cpus, MaxThreads);
  std::vector<unsigned> LocktestCounts = ThreadCounts;
  if (Oversubscribe && ThreadList.empty() && Over > ThreadCounts.back())
    LocktestCounts.push_back(Over);

  if (Locktest)
    return runLocktest(Kinds, LocktestCounts, Seconds, Repetitions, Csv);

  static std::vector<std::unique_ptr<SharedLock>> Shared;
  for (const lock_kind *K : Kinds)
    benchmark::RegisterBenchmark((std::string("uncontended/") + K->name).c_str(), uncontended, K);
  for (const lock_kind *K : Kinds) {
    if (std::strcmp(K->family, "floor") == 0)
      continue;
    Shared.push_back(std::make_unique<SharedLock>());
    auto *B = benchmark::RegisterBenchmark((std::string("contended/") + K->name).c_str(), contended, K,
                                           Shared.back().get());
    for (unsigned T : ThreadCounts)
      B->Threads(static_cast<int>(T));
    B->UseRealTime();
  }
  static std::string MinTime = "--benchmark_min_time=0.01";
  if (Quick)
    Rest.push_back(MinTime.data());
  int RestCount = static_cast<int>(Rest.size());
  benchmark::Initialize(&RestCount, Rest.data());
  if (benchmark::ReportUnrecognizedArguments(RestCount, Rest.data()))
    return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
