// RUN: %lockwright check --quiet --checks=-*,barrier-redundant %s -- -std=c++20 | FileCheck %s --check-prefixes=CHECK,X86 --implicit-check-not="warning:"
// RUN: %lockwright check --quiet --arch aarch64 --checks=-*,barrier-redundant %s -- -std=c++20 | FileCheck %s --check-prefixes=CHECK,ARM64 --implicit-check-not="warning:"

#include <atomic>

std::atomic<int> refs{0};
std::atomic<int> flag{0};

// A seq_cst fence right after a seq_cst RMW: redundant where RMWs are fully ordered (x86_64).
int bump() {
  int r = refs.fetch_add(1);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  return r;
}
// X86: :[[@LINE-3]]:3: warning: 'atomic_thread_fence' (seq_cst) is redundant on x86_64
// ARM64-NOT: :[[@LINE-4]]:3: warning:

// Two fences back to back: the second already orders everything the first does.
void twice() {
  flag.store(1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  flag.store(2, std::memory_order_relaxed);
}
// CHECK: :[[@LINE-4]]:3: warning: 'atomic_thread_fence' (release) is redundant{{.*}}[barrier-redundant]

// Negative: a fence between two relaxed accesses with nothing else ordering them.
int once() {
  flag.store(1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  return refs.load(std::memory_order_relaxed);
}
