// RUN: %lockwright check --quiet --checks=-*,barrier-missing-acquire %s -- -std=c++20 | FileCheck %s --implicit-check-not="warning:"
// RUN: cp %s %t.cpp && %lockwright check --quiet --checks=-*,barrier-missing-acquire --fix %t.cpp -- -std=c++20 > /dev/null
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t.cpp
// RUN: %lockwright check --quiet --checks=-*,barrier-missing-acquire %t.cpp -- -std=c++20 | count 0

#include <atomic>
#include <mutex>

// The consumer polls the tail relaxed, then reads the slot.
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
  if (ring.tail.load(std::memory_order_relaxed) > t)
    return ring.slots[t % 16];
  return -1;
}
// CHECK: :[[@LINE-4]]:7: warning: 'load' (relaxed) of 'Ring.tail' guards the loads of 'Ring.slots' with no acquire ordering: they may read values older than the 'Ring.tail' it saw [barrier-missing-acquire]
// CHECK: note: the load of 'Ring.slots' it guards
// CHECK: note: paired with this store to 'Ring.tail' in 'push', after it writes 'Ring.slots'
// FIXED: if (ring.tail.load(std::memory_order_acquire) > t)

// Negative: an acquire fence after the relaxed poll.
struct Flag { int payload; std::atomic<bool> ready; };
Flag f1, f2;
void set1(int v) { f1.payload = v; f1.ready.store(true, std::memory_order_release); }
int get1() {
  if (!f1.ready.load(std::memory_order_relaxed))
    return 0;
  std::atomic_thread_fence(std::memory_order_acquire);
  return f1.payload;
}

// Negative: seq_cst by default, and a pointer published with release and read through.
struct Node { int key; };
std::atomic<Node *> top;
void publish(Node *n) { n->key = 1; top.store(n, std::memory_order_release); }
int peek() { Node *n = top.load(std::memory_order_consume); return n ? n->key : 0; }
void set2(int v) { f2.payload = v; f2.ready = true; }
int get2() { return f2.ready.load() ? f2.payload : 0; }

// Negative: under one mutex.
struct Guarded { std::mutex m; int val; std::atomic<int> full; };
Guarded g;
void gput(int v) { std::lock_guard<std::mutex> lk(g.m); g.val = v; g.full.store(1, std::memory_order_relaxed); }
int gget() { std::lock_guard<std::mutex> lk(g.m); return g.full.load(std::memory_order_relaxed) ? g.val : 0; }
