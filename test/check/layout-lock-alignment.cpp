// RUN: %lockwright check --quiet --checks=-*,layout-lock-alignment %s -- -std=c++17 | FileCheck %s --implicit-check-not="warning:"
// RUN: %lockwright check --quiet --checks=-*,layout-lock-alignment --arch parisc %s -- -std=c++17 | FileCheck %s --check-prefix=PARISC --implicit-check-not="warning:"
// RUN: cp %s %t.cpp && %lockwright check --quiet --checks=-*,layout-lock-alignment --arch parisc --fix %t.cpp -- -std=c++17 > /dev/null
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t.cpp

// lockwright's generated lock types are recognised by their pattern ({prefix}_tas_lock_t).
typedef struct { volatile unsigned word; } app_tas_lock_t;

struct Device {
  short Id;
  app_tas_lock_t Lock;
};
// PARISC: :[[@LINE-2]]:18: warning: lock word 'Lock' is aligned to 4 bytes; parisc needs 16 for its lock instructions [layout-lock-alignment]
// FIXED: alignas(16) app_tas_lock_t Lock;

struct __attribute__((packed)) Wire {
  char Tag;
  app_tas_lock_t Lock;
};
// CHECK: :[[@LINE-2]]:18: warning: lock word 'Lock' is aligned to 1 byte; its type needs 4 [layout-lock-alignment]
// PARISC: :[[@LINE-3]]:18: warning: lock word 'Lock' is aligned to 1 byte; parisc needs 16

// Fine on x86_64, where 4 is enough; on parisc only a 16-byte aligned word is.
struct Fine {
  app_tas_lock_t Lock;
  int Data;
};
// PARISC: :[[@LINE-3]]:18: warning: lock word 'Lock' is aligned to 4 bytes; parisc needs 16
struct FineEverywhere {
  alignas(16) app_tas_lock_t Lock;
  int Data;
};
