// RUN: %lockwright check --quiet --checks=-*,barrier-misplaced-read-barrier,barrier-missing-acquire %s -- -std=c++20 | FileCheck %s --implicit-check-not="warning:"
// RUN: cp %s %t.cpp && %lockwright check --quiet --checks=-*,barrier-misplaced-read-barrier --fix %t.cpp -- -std=c++20 > /dev/null
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t.cpp
// RUN: %lockwright check --quiet --checks=-*,barrier-misplaced-read-barrier,barrier-missing-acquire %t.cpp -- -std=c++20 | count 0

#include <atomic>

// C++: the acquire fence stands after the data load it should order.
struct Ring {
  int slots[16];
  std::atomic<unsigned> tail{0};
};
Ring ring;
void push(int v, unsigned t) {
  ring.slots[t % 16] = v;
  ring.tail.store(t + 1, std::memory_order_release);
}
int pop(unsigned t) {
  int v;
  if (ring.tail.load(std::memory_order_relaxed) <= t)
    return -1;
  v = ring.slots[t % 16];
  std::atomic_thread_fence(std::memory_order_acquire);
  return v;
}
// CHECK: :[[@LINE-3]]:3: warning: 'atomic_thread_fence' (acquire) stands after the loads it should order, so it does not order the load of 'Ring.tail' before the loads of 'Ring.slots'; move it between them [barrier-misplaced-read-barrier]
// FIXED: {{^}}    return -1;
// FIXED-NEXT: {{^}}  std::atomic_thread_fence(std::memory_order_acquire);
// FIXED-NEXT: {{^}}  v = ring.slots[t % 16];
// FIXED-NEXT: {{^}}  return v;

// Negative: the fence between the guard and the data load.
struct Box {
  int val;
  std::atomic<int> full{0};
};
Box box;
void put(int v) { box.val = v; box.full.store(1, std::memory_order_release); }
int get() {
  if (!box.full.load(std::memory_order_relaxed))
    return 0;
  std::atomic_thread_fence(std::memory_order_acquire);
  return box.val;
}
