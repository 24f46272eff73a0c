// Oversubscription through the C++ classes, the shape that once stalled past 10 s: 4 threads per
// CPU each doing std::scoped_lock over two lw::spinlock (the spec's default algorithm) and a
// std::shared_lock on an lw::rw_lock, with a writer's std::unique_lock now and then. Exact counts,
// and a bound that a convoy does not meet.
//
//   oversub_stress_cxx ITERS BOUND_SECONDS
#include "lw_spinlock.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <vector>

#include <csignal>
#include <unistd.h>

namespace {

lw::spinlock first, second;
lw::rw_lock table;
unsigned long pairs, writes, bad_reads;
unsigned long table_value[2];

extern "C" void convoy(int) {
  static const char Msg[] = "scoped-shared: did not finish within the bound (a convoy)\n";
  (void)!write(1, Msg, sizeof Msg - 1);
  _exit(1);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: oversub_stress_cxx ITERS BOUND_SECONDS\n");
    return 2;
  }
  unsigned long iterations = std::strtoul(argv[1], nullptr, 10);
  unsigned bound = static_cast<unsigned>(std::strtoul(argv[2], nullptr, 10));
  unsigned threads = 4 * std::max(1u, std::thread::hardware_concurrency());
  std::signal(SIGALRM, convoy);
  alarm(bound);
  std::vector<std::thread> workers;
  for (unsigned t = 0; t < threads; ++t)
    workers.emplace_back([t, iterations] {
      for (unsigned long i = 0; i < iterations; ++i) {
        {
          std::scoped_lock both(first, second);
          ++pairs;
        }
        if (i % 8 == 0 && t % 4 == 0) {
          std::unique_lock<lw::rw_lock> writer(table);
          ++table_value[0];
          ++table_value[1];
          ++writes;
        } else {
          std::shared_lock<lw::rw_lock> reader(table);
          if (table_value[0] != table_value[1])
            __atomic_fetch_add(&bad_reads, 1, __ATOMIC_RELAXED);
        }
      }
    });
  for (std::thread &W : workers)
    W.join();
  alarm(0);
  unsigned long writers = (threads + 3) / 4, want_writes = writers * ((iterations + 7) / 8);
  std::printf("scoped-shared: %u threads\n", threads);
  std::printf("scoped-shared: pairs %lu (expected %lu)\n", pairs, threads * iterations);
  std::printf("scoped-shared: writes %lu (expected %lu)\n", writes, want_writes);
  std::printf("scoped-shared: torn reads %lu (expected 0)\n", bad_reads);
  bool ok = pairs == threads * iterations && writes == want_writes && bad_reads == 0;
  std::printf(ok ? "scoped-shared: within bound\n" : "scoped-shared: FAILED\n");
  return ok ? 0 : 1;
}
