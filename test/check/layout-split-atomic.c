// RUN: %lockwright check --quiet --checks=-*,layout-split-atomic %s -- -std=gnu11 | FileCheck %s --implicit-check-not="warning:"
// RUN: cp %s %t.c && %lockwright check --quiet --checks=-*,layout-split-atomic --fix %t.c -- -std=gnu11 > /dev/null
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t.c
// RUN: %lockwright check --quiet --checks=-*,layout-split-atomic %t.c -- -std=gnu11 | FileCheck %s --check-prefix=REFIX --implicit-check-not="warning:"

#include <stdatomic.h>
#include <stdint.h>

/* A packed wire header with a counter updated atomically: at offset 3 it can cross a line. */
struct __attribute__((packed)) header {
	uint8_t kind;
	uint16_t len;
	_Atomic uint64_t seq;
};
// CHECK: :[[@LINE-2]]:19: warning: 'seq' (atomic, 8 bytes at offset 3 of struct header) can straddle a 64-byte cache line on x86_64: its offset is not a multiple of its size, so its accesses can span two lines [layout-split-atomic]
// CHECK: note: struct header is packed
// FIXED: _Alignas(8) _Atomic uint64_t seq;

/* A plain word used as a test-and-set lock in a record packed to 2 bytes. */
#pragma pack(push, 2)
struct slot {
	uint16_t id;
	int lock;
	uint16_t flags;
};
#pragma pack(pop)
// CHECK: :[[@LINE-4]]:6: warning: 'lock' (lock, 4 bytes at offset 2 of struct slot) can straddle
// CHECK: note: struct slot is packed by #pragma pack, which caps member alignment; move 'lock' or end the pragma before this record
// REFIX: warning: 'lock' (lock, 4 bytes at offset 2 of struct slot) can straddle
// FIXED: {{^}}	int lock;
int try_take(struct slot *s) { return !__atomic_test_and_set(&s->lock, __ATOMIC_ACQUIRE); }

/* Negative: naturally aligned atomics never straddle; a packed record without atomics is fine. */
struct aligned {
	uint8_t kind;
	_Atomic uint64_t seq;
	_Atomic uint32_t refs;
};
struct __attribute__((packed)) plain_wire {
	uint8_t kind;
	uint64_t value;
};
