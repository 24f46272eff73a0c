// RUN: %lockwright check --quiet --checks=-*,layout-unpadded-array %s -- -std=c++17 | FileCheck %s --implicit-check-not="warning:"
// RUN: cp %s %t.cpp && %lockwright check --quiet --checks=-*,layout-unpadded-array --fix %t.cpp -- -std=c++17 > /dev/null
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t.cpp

#include <array>
#include <atomic>
#include <mutex>
#include <vector>

struct Shard {
  std::mutex Lock;
  long Value = 0;
};
// FIXED: struct alignas(64) Shard {

std::array<std::atomic<long>, 16> Hits;
// CHECK: :[[@LINE-1]]:35: warning: 'Hits' is an array of atomics with a 8-byte stride: each 64-byte destructive-interference window on x86_64 holds 8 elements [layout-unpadded-array]
std::vector<Shard> Shards(8);
// CHECK: :[[@LINE-1]]:20: warning: 'Shards' is an array of records holding locks with a 48-byte stride: each 64-byte destructive-interference window on x86_64 holds parts of up to 3 elements

// Negative: each element owns a window.
struct alignas(64) PaddedCounter {
  std::atomic<long> Value{0};
};
std::array<PaddedCounter, 16> Counters;
