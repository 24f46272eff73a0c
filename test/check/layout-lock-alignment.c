// RUN: %lockwright check --quiet --checks=-*,layout-lock-alignment %s -- -std=gnu11 | FileCheck %s --implicit-check-not="warning:"
// RUN: %lockwright check --quiet --checks=-*,layout-lock-alignment --arch parisc %s -- -std=gnu11 | FileCheck %s --check-prefix=PARISC --implicit-check-not="warning:"
// RUN: cp %s %t.c && %lockwright check --quiet --checks=-*,layout-lock-alignment --arch parisc --fix %t.c -- -std=gnu11 > /dev/null
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t.c
// RUN: %lockwright check --quiet --checks=-*,layout-lock-alignment --arch parisc %t.c -- -std=gnu11 | count 0

#include <pthread.h>

typedef struct { volatile unsigned int slock; } arch_spinlock_t;

/* On parisc, ldcw needs the lock word 16-byte aligned; a 4-byte aligned spinlock is not (after a
 * 4-byte long: parisc is ILP32, laid out through its layout proxy, not as the host). */
struct inode_lite {
	long size;
	arch_spinlock_t lock;
	long nlink;
};
// PARISC: :[[@LINE-3]]:18: warning: lock word 'lock' is aligned to 4 bytes; parisc needs 16 for its lock instructions [layout-lock-alignment]
// PARISC: note: the spec's lock_word.align for parisc (linux arch/parisc/include/asm/ldcw.h
// FIXED: _Alignas(16) arch_spinlock_t lock;

arch_spinlock_t global_lock;
// PARISC: :[[@LINE-1]]:17: warning: lock word 'global_lock' is aligned to 4 bytes; parisc needs 16
// FIXED: _Alignas(16) arch_spinlock_t global_lock;

/* Below its natural alignment everywhere: a packed record. */
struct __attribute__((packed)) msg {
	char tag;
	pthread_spinlock_t lock;
};
// CHECK: :[[@LINE-2]]:21: warning: lock word 'lock' is aligned to 1 byte; its type needs 4 [layout-lock-alignment]
// CHECK: note: struct msg is packed
// PARISC: :[[@LINE-4]]:21: warning: lock word 'lock' is aligned to 1 byte; parisc needs 16
// FIXED: _Alignas(16) pthread_spinlock_t lock;

/* Negative: aligned as required; a mutex (not a lock word) keeps its natural alignment on parisc. */
struct good {
	_Alignas(16) arch_spinlock_t lock;
	pthread_mutex_t mutex;
};
