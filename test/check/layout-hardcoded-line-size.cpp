// RUN: %lockwright check --quiet --checks=-*,layout-hardcoded-line-size --arch x86_64 %s -- -std=c++17 | count 0
// RUN: %lockwright check --quiet --checks=-*,layout-hardcoded-line-size --arch ppc64le %s -- -std=c++17 | FileCheck %s --implicit-check-not="warning:"
// RUN: %lockwright check --quiet --checks=-*,layout-hardcoded-line-size --arch riscv64 %s -- -std=c++17 | FileCheck %s --check-prefix=RISCV --implicit-check-not="warning:"

#include <atomic>
#include <new>

// The compiler's value for the target: clang 19 says 64 on x86_64, 128 on ppc64le (both as the
// spec), 32 on riscv64, where the spec says 64.
struct alignas(std::hardware_destructive_interference_size) Slot {
  std::atomic<long> Value;
};
// RISCV: :[[@LINE-3]]:16: warning: 'std::hardware_destructive_interference_size' is 32 here, below the destructive interference size of riscv64 (64 bytes) [layout-hardcoded-line-size]
// RISCV: note: the value is the compiler's choice for this target and is not ABI-stable
constexpr unsigned long PadTo = std::hardware_destructive_interference_size;
// RISCV: :[[@LINE-1]]:33: warning: 'std::hardware_destructive_interference_size' is 32 here

struct Counters {
  alignas(64) std::atomic<long> Hits;
  alignas(64) std::atomic<long> Misses;
};
// CHECK: :[[@LINE-3]]:3: warning: alignment of 64 bytes is below the destructive interference size of ppc64le (128 bytes)
// CHECK: :[[@LINE-3]]:3: warning: alignment of 64 bytes is below
