// RUN: %lockwright check --quiet --checks=-*,wait-* %s -- -std=c++17 | FileCheck %s --implicit-check-not="warning:"
// RUN: cp %s %t.cpp && %lockwright check --quiet --checks=-*,wait-acquire-in-loop --fix %t.cpp -- -std=c++17 > /dev/null
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t.cpp
// RUN: clang++-19 -fsyntax-only -std=c++17 %t.cpp

#include <atomic>

/* C++: the member load's order argument, and one std::atomic_thread_fence after the loop. (Through
 * a pointer: the ordering model names no location for a member of a reference parameter yet.) */
struct Gate {
  std::atomic<int> open{0};
  int payload = 0;
};

void wait_open(Gate *g) {
  while (g->open.load(std::memory_order_acquire) == 0) {
  }
}
// CHECK: :[[@LINE-3]]:10: warning: 'load' (acquire) of 'Gate.open' orders every pass of this polling loop; only the load that ends the wait needs acquire [wait-acquire-in-loop]
// CHECK: note: a relaxed poll and one 'std::atomic_thread_fence' after the loop order the same
// CHECK: :[[@LINE-5]]:3: warning: busy-wait on 'Gate.open' with no relax hint
// FIXED: while (g->open.load(std::memory_order_relaxed) == 0) {
// FIXED-NEXT: {{^  }}}{{$}}
// FIXED-NEXT: {{^  }}std::atomic_thread_fence(std::memory_order_acquire);{{$}}

/* Negatives: the body reads the payload the acquire orders; a relaxed poll with the fence after. */
int drain(Gate *g) {
  int sum = 0;
  while (g->open.load(std::memory_order_acquire) != 0)
    sum += g->payload;
  return sum;
}
void fixed(Gate *g) {
  while (g->open.load(std::memory_order_relaxed) == 0) {
  }
  std::atomic_thread_fence(std::memory_order_acquire);
}
// CHECK: :[[@LINE-4]]:3: warning: busy-wait on 'Gate.open' with no relax hint
