// RUN: %lockwright check --quiet --checks=-*,wait-plain-variable %s -- -std=c++17 | FileCheck %s --implicit-check-not="warning:"
// RUN: cp %s %t.cpp && %lockwright check --quiet --checks=-*,wait-plain-variable --fix %t.cpp -- -std=c++17 > /dev/null
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t.cpp
// RUN: clang++-19 -fsyntax-only -std=c++17 %t.cpp
// RUN: %lockwright check --quiet --checks=-*,wait-plain-variable %t.cpp -- -std=c++17 | FileCheck %s --check-prefix=REFIX --allow-empty --implicit-check-not="warning:"
// REFIX-NOT: warning:

#include <atomic>

/* C++: a worker told to stop through a plain bool member (a classic hoisted-load hang). */
struct Worker {
  bool stop = false;
  std::atomic<bool> stop_atomic{false};
  void wait_for_stop() {
    while (!stop) {
    }
  }
  void wait_for_stop_atomic() {
    while (!stop_atomic.load(std::memory_order_relaxed)) {
    }
  }
};
// CHECK: :[[@LINE-8]]:13: warning: the loop waits on 'Worker.stop', a plain load the compiler may perform once
// CHECK: note: a relaxed atomic load costs what the plain one does
// FIXED: while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {

/* A pointer published by another thread. */
struct Node;
Node *published;
Node *wait_published() {
  Node *n;
  while ((n = published) == nullptr) {
  }
  return n;
}
// CHECK: :[[@LINE-4]]:15: warning: the loop waits on 'published', a plain load
// FIXED: while ((n = __atomic_load_n(&published, __ATOMIC_RELAXED)) == nullptr) {
