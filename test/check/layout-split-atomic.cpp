// RUN: %lockwright check --quiet --checks=-*,layout-split-atomic %s -- -std=c++17 | FileCheck %s --implicit-check-not="warning:"
// RUN: cp %s %t.cpp && %lockwright check --quiet --checks=-*,layout-split-atomic --fix %t.cpp -- -std=c++17 > /dev/null
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t.cpp

#include <atomic>
#include <cstdint>

// (The packed attribute does not apply to a non-POD std::atomic member; #pragma pack does.)
#pragma pack(push, 1)
struct Packet {
  std::uint8_t Type;
  std::atomic<std::uint32_t> Refs;
};
#pragma pack(pop)
// CHECK: :[[@LINE-3]]:30: warning: 'Refs' (atomic, 4 bytes at offset 1 of Packet) can straddle a 64-byte cache line on x86_64
// FIXED: alignas(4) std::atomic<std::uint32_t> Refs;

struct Normal {
  std::uint8_t Type;
  std::atomic<std::uint32_t> Refs;
};
