// RUN: %lockwright check --quiet --checks=-*,layout-hardcoded-line-size %s -- -std=gnu11 | count 0
// RUN: %lockwright check --quiet --checks=-*,layout-hardcoded-line-size --arch ppc64 %s -- -std=gnu11 | FileCheck %s --check-prefix=PPC64 --implicit-check-not="warning:"
// RUN: %lockwright check --quiet --checks=-*,layout-hardcoded-line-size --arch x86_64 --report-over-padding %s -- -std=gnu11 | FileCheck %s --check-prefix=OVER --implicit-check-not="warning:"
// RUN: %lockwright check --quiet --checks=-*,layout-hardcoded-line-size --arch s390x %s -- -std=gnu11 | FileCheck %s --check-prefix=WIDE -DARCH=s390x --implicit-check-not="warning:"
// RUN: %lockwright check --quiet --checks=-*,layout-hardcoded-line-size --arch aarch64 --cpu a64fx %s -- -std=gnu11 | FileCheck %s --check-prefix=WIDE -DARCH="aarch64 (cpu a64fx)" --implicit-check-not="warning:"
// RUN: cp %s %t.c && %lockwright check --quiet --checks=-*,layout-hardcoded-line-size --arch ppc64 --fix %t.c -- -std=gnu11 > /dev/null
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t.c
// RUN: cp %s %t2.c && %lockwright check --quiet --checks=-*,layout-hardcoded-line-size --arch ppc64 --padding-constant LW_DESTRUCTIVE_SIZE --fix %t2.c -- -std=gnu11 > /dev/null
// RUN: FileCheck %s --check-prefix=NAMED --input-file=%t2.c
// The same options set per check, as clang-tidy's CheckOptions.
// RUN: %lockwright check --quiet --checks=-*,layout-hardcoded-line-size --arch x86_64 --check-option=layout-hardcoded-line-size.ReportOverPadding=true %s -- -std=gnu11 | FileCheck %s --check-prefix=OVER --implicit-check-not="warning:"
// RUN: cp %s %t3.c && %lockwright check --quiet --checks=-*,layout-hardcoded-line-size --arch ppc64 --check-option=layout-hardcoded-line-size.PaddingConstant=LW_DESTRUCTIVE_SIZE --fix %t3.c -- -std=gnu11 > /dev/null
// RUN: FileCheck %s --check-prefix=NAMED --input-file=%t3.c
// RUN: not %lockwright check --check-option=layout-hardcoded-line-size.ReportOverPaddng=true %s -- -std=gnu11 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: lockwright: error: --check-option=layout-hardcoded-line-size.ReportOverPaddng=true: unknown check option 'layout-hardcoded-line-size.ReportOverPaddng'; did you mean 'layout-hardcoded-line-size.ReportOverPadding'?

#include <pthread.h>
#include <stdatomic.h>

/* A project macro: fine on x86_64 (64), too small on ppc64 (128). */
#define CACHE_LINE_SIZE 64
// PPC64: :[[@LINE-1]]:9: warning: 'CACHE_LINE_SIZE' is 64, below the destructive interference size of ppc64 (128 bytes) [layout-hardcoded-line-size]
// WIDE: :[[@LINE-2]]:9: warning: 'CACHE_LINE_SIZE' is 64, below the destructive interference size of [[ARCH]] (256 bytes)
// WIDE-COUNT-2: warning: alignment to 'CACHE_LINE_SIZE' of 64 bytes is below the destructive interference size of [[ARCH]] (256 bytes)
// WIDE: warning: alignment of 64 bytes is below the destructive interference size of [[ARCH]] (256 bytes)
// WIDE: warning: padding computed from a line of 64 bytes is below the destructive interference size of [[ARCH]] (256 bytes)
// FIXED: #define CACHE_LINE_SIZE 128
// NAMED: #define CACHE_LINE_SIZE LW_DESTRUCTIVE_SIZE

struct queue {
	atomic_long head __attribute__((aligned(CACHE_LINE_SIZE)));
	atomic_long tail __attribute__((aligned(CACHE_LINE_SIZE)));
};
// PPC64: :[[@LINE-3]]:34: warning: alignment to 'CACHE_LINE_SIZE' of 64 bytes is below the destructive interference size of ppc64 (128 bytes)
// PPC64: :[[@LINE-3]]:34: warning: alignment to 'CACHE_LINE_SIZE' of 64 bytes is below

/* A literal alignment on a record holding a lock. */
struct stats {
	_Alignas(64) pthread_spinlock_t lock;
	long hits;
};
// PPC64: :[[@LINE-3]]:2: warning: alignment of 64 bytes is below the destructive interference size of ppc64 (128 bytes)
// FIXED: _Alignas(128) pthread_spinlock_t lock;

/* Padding computed from a 64-byte line. */
struct counter {
	atomic_long value;
	char pad[64 - sizeof(atomic_long)];
};
// PPC64: :[[@LINE-2]]:11: warning: padding computed from a line of 64 bytes is below the destructive interference size of ppc64 (128 bytes)
// FIXED: char pad[128 - sizeof(atomic_long)];

/* Negative: alignment that is not about lines (a SIMD vector), and plain data. */
struct vec { float v[8]; } __attribute__((aligned(32)));
struct plain { int x; } __attribute__((aligned(64)));
/* Negative: a hash entry holding atomics aligned to its own 32 bytes (as ck_ht_entry) is
   aligned for whole-entry access, not padded against a neighbour. */
struct ht_entry {
	_Atomic(unsigned long) key;
	_Atomic(unsigned long) value;
	unsigned long key_length;
	unsigned long hash;
} __attribute__((aligned(32)));

/* Over-padding is reported only on request: 256 on x86_64. */
struct big {
	_Alignas(256) pthread_mutex_t lock;
};
// OVER: :[[@LINE-2]]:2: warning: alignment of 256 bytes is above the destructive interference size of x86_64 (64 bytes): padding to it costs memory when objects are many
