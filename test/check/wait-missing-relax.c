// RUN: %lockwright check --quiet --checks=-*,wait-missing-relax %s -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu -I %S/Inputs/dpdk | FileCheck %s --check-prefixes=CHECK,X86 --implicit-check-not="warning:"
// RUN: %lockwright check --quiet --arch aarch64 --checks=-*,wait-missing-relax %s -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu -I %S/Inputs/dpdk | FileCheck %s --check-prefixes=CHECK,ARM64 --implicit-check-not="warning:"
// RUN: cp %s %t.c && %lockwright check --quiet --checks=-*,wait-missing-relax --fix %t.c -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu -I %S/Inputs/dpdk > /dev/null
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t.c
// RUN: clang-19 -fsyntax-only -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu -I %S/Inputs/dpdk %t.c
// RUN: %lockwright check --quiet --checks=-*,wait-missing-relax %t.c -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu -I %S/Inputs/dpdk | FileCheck %s --check-prefix=REFIX --allow-empty --implicit-check-not="warning:"
// REFIX-NOT: warning:

#include "kernel-barrier.h"
#include "ck_pr.h"
#include "urcu.h"
#include "rte_dpdk.h"

/* Kernel: the dialect's relax call goes where the empty body was. */
int flag;
void kernel_spin(void) {
	while (!READ_ONCE(flag))
		;
}
// CHECK: :[[@LINE-3]]:2: warning: busy-wait on 'flag' with no relax hint: each pass competes with the sibling hyperthread and keeps requesting the line [wait-missing-relax]
// X86: note: 'cpu_relax()' tells the core it spins ('rep; nop' on x86_64)
// ARM64: note: 'cpu_relax()' tells the core it spins ('yield' on aarch64)
// FIXED: while (!READ_ONCE(flag))
// FIXED-NEXT: {{^}}		cpu_relax();{{$}}

/* ck: a start barrier as ck's regressions write it. */
unsigned int barrier_count, n_threads;
void ck_spin(void) {
	ck_pr_inc_uint(&barrier_count);
	while (ck_pr_load_uint(&barrier_count) < n_threads);
}
// CHECK: :[[@LINE-2]]:2: warning: busy-wait on 'barrier_count' with no relax hint
// FIXED: while (ck_pr_load_uint(&barrier_count) < n_threads)ck_pr_stall();

/* liburcu: a volatile start gate with an empty block (a volatile access has no dialect: the
 * fix uses the first relax call the TU defines), and a CMM_LOAD_SHARED poll. */
static volatile int test_go;
struct gate { int open; };
void urcu_spin(struct gate *g) {
	while (!test_go)
	{
	}
	int seen;
	do {
		seen = CMM_LOAD_SHARED(g->open);
	} while (!seen);
}
// CHECK: :[[@LINE-8]]:2: warning: busy-wait on 'test_go' with no relax hint
// CHECK: :[[@LINE-5]]:2: warning: busy-wait on 'gate.open' with no relax hint
// FIXED: {{^}}	{ ck_pr_stall(); }{{$}}
// FIXED: seen = CMM_LOAD_SHARED(g->open);
// FIXED-NEXT: {{^}}		caa_cpu_relax();{{$}}

/* DPDK: rte_pause() in the empty body. */
RTE_ATOMIC(uint32_t) lcore_go;
void dpdk_spin(void) {
	while (rte_atomic_load_explicit(&lcore_go, rte_memory_order_relaxed) == 0)
		;
}
// CHECK: :[[@LINE-3]]:2: warning: busy-wait on 'lcore_go' with no relax hint
// FIXED: while (rte_atomic_load_explicit(&lcore_go, rte_memory_order_relaxed) == 0)
// FIXED-NEXT: {{^}}		rte_pause();{{$}}
/* A word of an anonymous union is named as its record's (DPDK's timer bucket). */
struct tim_bkt { union { RTE_ATOMIC(uint64_t) w1; struct { uint32_t lock; uint32_t rsvd; }; }; };
void bucket_spin(struct tim_bkt *bkt) {
	while (rte_atomic_load_explicit(&bkt->w1, rte_memory_order_relaxed) & (1ULL << 33))
		;
}
// CHECK: :[[@LINE-3]]:2: warning: busy-wait on 'tim_bkt.w1' with no relax hint
// FIXED: while (rte_atomic_load_explicit(&bkt->w1, rte_memory_order_relaxed) & (1ULL << 33))
// FIXED-NEXT: {{^}}		rte_pause();{{$}}

/* Negatives: relaxed already; a call that sleeps or yields; a CAS retry loop that works. */
int sched_yield(void);
void relaxed(void) {
	while (!READ_ONCE(flag))
		cpu_relax();
	while (ck_pr_load_uint(&barrier_count) < n_threads)
		ck_pr_stall();
}
void yields(void) {
	while (!READ_ONCE(flag))
		sched_yield();
}
unsigned int counter;
void cas_retry(void) {
	unsigned int old;
	do {
		old = READ_ONCE(counter);
	} while (!__atomic_compare_exchange_n(&counter, &old, old + 1, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
}
/* A bounded spin counts its passes. */
int bounded(void) {
	for (int i = 0; i < 1000; i++)
		if (READ_ONCE(flag))
			return 1;
	return 0;
}
/* A walk reads through a pointer the loop moves: a search, not a wait (DPDK's
   mbuf_is_consumed reads each segment's refcnt once). */
struct seg { unsigned short refcnt; struct seg *next; };
int consumed(struct seg *m) {
	while (m) {
		if (READ_ONCE(m->refcnt) > 1)
			return 0;
		m = m->next;
	}
	return 1;
}
struct seg *last_seg(struct seg *m) {
	while (READ_ONCE(m->next))
		m = READ_ONCE(m->next);
	return m;
}
