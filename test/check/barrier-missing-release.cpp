// RUN: %lockwright check --quiet --checks=-*,barrier-missing-release %s -- -std=c++20 | FileCheck %s --implicit-check-not="warning:"
// RUN: cp %s %t.cpp && %lockwright check --quiet --checks=-*,barrier-missing-release --fix %t.cpp -- -std=c++20 > /dev/null
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t.cpp
// RUN: %lockwright check --quiet --checks=-*,barrier-missing-release %t.cpp -- -std=c++20 | count 0

#include <atomic>
#include <mutex>
#include <thread>

// A single-producer ring whose tail is published relaxed.
struct Ring {
  int slots[16];
  std::atomic<unsigned> tail{0};
};
Ring ring;
void push(int v, unsigned t) {
  ring.slots[t % 16] = v;
  ring.tail.store(t + 1, std::memory_order_relaxed);
}
// CHECK: :[[@LINE-2]]:3: warning: 'store' (relaxed) publishes 'Ring.tail' after the stores to 'Ring.slots' with no release ordering: a reader that sees the new 'Ring.tail' may still read the old 'Ring.slots' [barrier-missing-release]
// CHECK: :[[@LINE-4]]:3: note: the store to 'Ring.slots' it publishes
// CHECK: note: paired with this load of 'Ring.tail' in 'pop', which then reads 'Ring.slots'
// FIXED: ring.tail.store(t + 1, std::memory_order_release);
int pop(unsigned t) {
  if (ring.tail.load(std::memory_order_acquire) > t)
    return ring.slots[t % 16];
  return -1;
}

// The C++20 spelling of the order is kept.
struct Flag { int payload; std::atomic<bool> ready; };
Flag f1, f2;
void set1(int v) { f1.payload = v; f1.ready.store(true, std::memory_order::relaxed); }
// CHECK: :[[@LINE-1]]:36: warning: 'store' (relaxed) publishes 'Flag.ready' after the stores to 'Flag.payload'
// FIXED: f1.ready.store(true, std::memory_order::release);
int get1() { return f1.ready.load(std::memory_order::acquire) ? f1.payload : 0; }

// Negative: operator= and the conversion are seq_cst.
void set2(int v) { f2.payload = v; f2.ready = true; }
int get2() { return f2.ready ? f2.payload : 0; }

// Negative: both sides hold the mutex through a guard.
struct Guarded { std::mutex m; int val; std::atomic<int> full; };
Guarded g;
void gput(int v) { std::lock_guard<std::mutex> lk(g.m); g.val = v; g.full.store(1, std::memory_order_relaxed); }
int gget() { std::lock_guard<std::mutex> lk(g.m); return g.full.load(std::memory_order_relaxed) ? g.val : 0; }

// Negative: written before the thread starts.
int input;
std::atomic<int> started;
void run() {
  input = 7;
  std::thread t([] { if (started.load(std::memory_order_relaxed)) (void)input; });
  started.store(1, std::memory_order_relaxed);
  t.join();
}
