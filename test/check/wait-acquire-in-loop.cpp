// RUN: %lockwright check --quiet --checks=-*,wait-acquire-in-loop %s -- -std=c++17 | FileCheck %s --implicit-check-not="warning:"
// RUN: %lockwright check --quiet --checks=-*,wait-missing-relax %s -- -std=c++17 | FileCheck %s --check-prefix=RELAX --implicit-check-not="warning:"
// RUN: cp %s %t.cpp && %lockwright check --quiet --checks=-*,wait-acquire-in-loop --fix %t.cpp -- -std=c++17 > /dev/null
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t.cpp
// RUN: clang++-19 -fsyntax-only -std=c++17 %t.cpp

#include <atomic>

/* C++: the member load's order argument, and one std::atomic_thread_fence after the loop. */
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
// RELAX: :[[@LINE-5]]:3: warning: busy-wait on 'Gate.open' with no relax hint
// FIXED: while (g->open.load(std::memory_order_relaxed) == 0) {
// FIXED-NEXT: {{^  }}}{{$}}
// FIXED-NEXT: {{^  }}std::atomic_thread_fence(std::memory_order_acquire);{{$}}

/* Through references: a member of a reference parameter, and a reference to the atomic. */
void wait_open_ref(Gate &g) {
  while (g.open.load(std::memory_order_acquire) == 0) {
  }
}
// CHECK: :[[@LINE-3]]:10: warning: 'load' (acquire) of 'Gate.open' orders every pass
// RELAX: :[[@LINE-4]]:3: warning: busy-wait on 'Gate.open' with no relax hint
// FIXED: while (g.open.load(std::memory_order_relaxed) == 0) {
// FIXED-NEXT: {{^  }}}{{$}}
// FIXED-NEXT: {{^  }}std::atomic_thread_fence(std::memory_order_acquire);{{$}}
void wait_flag_ref(std::atomic<bool> &ready) {
  while (!ready.load(std::memory_order_acquire)) {
  }
}
// CHECK: :[[@LINE-3]]:11: warning: 'load' (acquire) of 'ready' orders every pass
// RELAX: :[[@LINE-4]]:3: warning: busy-wait on 'ready' with no relax hint
// FIXED: while (!ready.load(std::memory_order_relaxed)) {
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
// RELAX: :[[@LINE-4]]:3: warning: busy-wait on 'Gate.open' with no relax hint
