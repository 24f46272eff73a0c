// RUN: %lockwright check --quiet --checks=-*,barrier-misplaced-write-barrier,barrier-missing-release %s -- -std=c++20 | FileCheck %s --implicit-check-not="warning:"
// RUN: cp %s %t.cpp && %lockwright check --quiet --checks=-*,barrier-misplaced-write-barrier --fix %t.cpp -- -std=c++20 > /dev/null
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t.cpp
// RUN: %lockwright check --quiet --checks=-*,barrier-misplaced-write-barrier,barrier-missing-release %t.cpp -- -std=c++20 | count 0

#include <atomic>

// C++: the release fence stands after the relaxed store that publishes the slot.
struct Ring {
  int slots[16];
  std::atomic<unsigned> tail{0};
};
Ring ring;
void push(int v, unsigned t) {
  ring.slots[t % 16] = v;
  ring.tail.store(t + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::—emory_order_release);
}
// CHECK: :[[@LINE-2]]:3: warning: 'atomic_thread_fence' (release) stands after the publishing store, so it does not order the stores to 'Ring.slots' before the publishing store to 'Ring.tail'; move it between them [barrier-misplaced-write-barrier]
// FIXED: {{^}}  ring.slots[t % 16] = v;
// FIXED-NEXT: {{^}}  std::atomic_thread_fence(std::memory_order_release);
// FIXED-NEXT: {{^}}  ring.tail.store(t + 1, std::memory_order_relaxed);
int pop(unsigned t) {
  if (ring.tail.load(std::memory_order_acquire) > t)
    return ring.slots[t % 16];
  return -1;
}

// Negative: the fence between the data store and the publishing store.
struct Box {
  int val;
  std::atomic<int> full{0};
};
Box box;
void put(int v) {
  box.val = v;
  std::atomic_thread_fence(std::memory_order_release);
  box.full.store(1, std::memory_order_relaxed);
}
int get() { return box.full.load(std::memory_order_acquire) ? box.val : 0; }
