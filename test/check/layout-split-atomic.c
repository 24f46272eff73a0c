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

/* An array of atomics packed one byte in: each 4-byte element is one access, and some cross a line. */
struct __attribute__((packed)) ring {
	uint8_t head;
	_Atomic uint32_t slots[32];
};
// CHECK: :[[@LINE-2]]:19: warning: 'slots' (atomic, 4-byte accesses at offset 1 of struct ring) can straddle a 64-byte cache line on x86_64: its offset is not a multiple of the size of one access, so its accesses can span two lines [layout-split-atomic]
// CHECK: note: struct ring is packed
// FIXED: _Alignas(4) _Atomic uint32_t slots[32];

/* Negative: an array of pointers used atomically is judged per element, not as one 16-byte object. */
struct tree_node {
	unsigned int tid;
	unsigned int *children[2];
	unsigned int childnotready[4];
};
void wake_child(struct tree_node *n, int i) { __atomic_store_n(&n->children[i], 0, __ATOMIC_RELEASE); }
void ready_child(struct tree_node *n, int i) { __atomic_store_n(&n->childnotready[i], 0, __ATOMIC_RELEASE); }

/* Negative: a lock type that is a record of two 4-byte words (ck's rwlock) is accessed a
   word at a time; its 8 bytes in a 4-byte-aligned record never make one access cross a line. */
typedef struct ck_rwlock { unsigned int writer; unsigned int n_readers; } ck_rwlock_t;
struct ck_rwlock_recursive {
	ck_rwlock_t rw;
	unsigned int wc;
};
