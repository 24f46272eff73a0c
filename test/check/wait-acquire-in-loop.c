// RUN: %lockwright check --quiet --checks=-*,wait-acquire-in-loop %s -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu -I %S/Inputs/dpdk | FileCheck %s --check-prefixes=CHECK,X86 --implicit-check-not="warning:"
// RUN: %lockwright check --quiet --arch aarch64 --checks=-*,wait-acquire-in-loop %s -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu -I %S/Inputs/dpdk | FileCheck %s --check-prefixes=CHECK,ARM64 --implicit-check-not="warning:"
// RUN: cp %s %t.c && %lockwright check --quiet --checks=-*,wait-acquire-in-loop --fix %t.c -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu -I %S/Inputs/dpdk > /dev/null
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t.c
// RUN: clang-19 -fsyntax-only -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu -I %S/Inputs/dpdk %t.c
// RUN: %lockwright check --quiet --checks=-*,wait-acquire-in-loop %t.c -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu -I %S/Inputs/dpdk | FileCheck %s --check-prefix=REFIX --implicit-check-not="warning:"
// The fixed file compiles; what had no mechanical fix (liburcu names no acquire fence for
// uatomic_load's order argument) is still reported, nothing else.
// REFIX: warning: 'uatomic_load' (acquire) of 'urcu_state.phase'

#include "kernel-barrier.h"
#include "ck_pr.h"
#include "urcu.h"
#include "rte_dpdk.h"
#include <stdatomic.h>

/* Kernel: the seed, csd_lock_wait() before smp_cond_acquire(). */
struct call_single_data { unsigned int flags; void *info; };
#define CSD_FLAG_LOCK 0x01
void csd_lock_wait(struct call_single_data *csd) {
	while (smp_load_acquire(&csd->flags) & CSD_FLAG_LOCK)
		cpu_relax();
}
// CHECK: :[[@LINE-3]]:9: warning: 'smp_load_acquire' of 'call_single_data.flags' orders every pass of this polling loop; only the load that ends the wait needs acquire [wait-acquire-in-loop]
// X86: :[[@LINE-4]]:9: note: on x86_64 the ordering is a plain load, then a compiler barrier: no instruction per pass
// ARM64: :[[@LINE-5]]:9: note: on aarch64 each pass pays ldar
// X86: note: 'smp_cond_load_acquire' polls relaxed and orders once, after the value it waits for (on x86_64 it waits by poll)
// ARM64: note: 'smp_cond_load_acquire' polls relaxed and orders once, after the value it waits for (on aarch64 it waits by monitor-wfe)
// FIXED: {{^}}	smp_cond_load_acquire(&csd->flags, !(VAL & CSD_FLAG_LOCK));{{$}}
// FIXED-NEXT: {{^}}}{{$}}

/* C11: relaxed polls, one acquire fence after the exit. */
atomic_int ready;
void c11_wait(void) {
	while (atomic_load_explicit(&ready, memory_order_acquire) == 0)
		;
}
// CHECK: :[[@LINE-3]]:9: warning: 'atomic_load_explicit' (acquire) of 'ready' orders every pass of this polling loop
// CHECK: note: a relaxed poll and one 'atomic_thread_fence' after the loop order the same
// FIXED: while (atomic_load_explicit(&ready, memory_order_relaxed) == 0)
// FIXED-NEXT: {{^}}		;{{$}}
// FIXED-NEXT: {{^}}	atomic_thread_fence(memory_order_acquire);{{$}}

/* GCC builtins and liburcu: the order argument's own spelling. */
int gate;
struct urcu_state { int phase; } urcu_state;
void builtin_wait(void) {
	do {
		caa_cpu_relax();
	} while (!__atomic_load_n(&gate, __ATOMIC_ACQUIRE));
}
// CHECK: :[[@LINE-2]]:12: warning: '__atomic_load_n' (acquire) of 'gate' orders every pass
// CHECK: note: a relaxed poll and one '__atomic_thread_fence' after the loop order the same
// FIXED: } while (!__atomic_load_n(&gate, __ATOMIC_RELAXED));
// FIXED-NEXT: {{^}}	__atomic_thread_fence(__ATOMIC_ACQUIRE);{{$}}
void urcu_wait(void) {
	while (uatomic_load(&urcu_state.phase, CMM_ACQUIRE) != 1)
		caa_cpu_relax();
}
// CHECK: :[[@LINE-3]]:9: warning: 'uatomic_load' (acquire) of 'urcu_state.phase' orders every pass

/* ck: a relaxed poll with a load fence inside the loop; the fence belongs after it. */
struct ck_word { int value; };
void ck_wait(struct ck_word *w) {
	while (ck_pr_load_int(&w->value) == 0)
		ck_pr_fence_load();
}
// CHECK: :[[@LINE-2]]:3: warning: 'ck_pr_fence_load' inside the loop polling 'ck_word.value' orders every pass; only the pass that ends the wait needs it
// ARM64: note: on aarch64 each pass pays dmb ishld
// FIXED: while (ck_pr_load_int(&w->value) == 0)
// FIXED-NEXT: {{^}}		;{{$}}
// FIXED-NEXT: {{^}}	ck_pr_fence_load();{{$}}

/* DPDK (rte_stdatomic.h): the order argument respelled, one rte_atomic_thread_fence after. */
RTE_ATOMIC(uint32_t) worker_state;
void dpdk_wait(void) {
	while (rte_atomic_load_explicit(&worker_state, rte_memory_order_acquire) != 2)
		rte_pause();
}
// CHECK: :[[@LINE-3]]:9: warning: 'rte_atomic_load_explicit' (acquire) of 'worker_state' orders every pass
// ARM64: note: on aarch64 each pass pays ldar
// CHECK: note: a relaxed poll and one 'rte_atomic_thread_fence' after the loop order the same
// FIXED: while (rte_atomic_load_explicit(&worker_state, rte_memory_order_relaxed) != 2)
// FIXED-NEXT: {{^}}		rte_pause();{{$}}
// FIXED-NEXT: {{^}}	rte_atomic_thread_fence(rte_memory_order_acquire);{{$}}

/* Negatives. */
/* The loop reads other shared data each pass: the acquire orders those reads. */
struct ring { unsigned int head; int slot[16]; };
int drain(struct ring *r) {
	int sum = 0;
	while (smp_load_acquire(&r->head) != 0)
		sum = READ_ONCE(r->slot[0]);
	return sum;
}
/* Already the fix. */
void fixed_wait(struct call_single_data *csd) {
	smp_cond_load_acquire(&csd->flags, !(VAL & CSD_FLAG_LOCK));
}
/* A CAS retry loop does work each pass. */
int take(atomic_int *l) {
	int old = atomic_load_explicit(l, memory_order_acquire);
	while (!atomic_compare_exchange_weak_explicit(l, &old, old + 1, memory_order_acquire, memory_order_relaxed))
		;
	return old;
}
/* One acquire after a relaxed wait, and an acquire load outside any loop. */
void once_after(void) {
	while (!atomic_load_explicit(&ready, memory_order_relaxed))
		;
	atomic_thread_fence(memory_order_acquire);
}
int single(struct call_single_data *csd) { return smp_load_acquire(&csd->flags); }
/* A bounded spin advances a counter: it is not a wait on the flag alone. */
int bounded(void) {
	for (int i = 0; i < 100; i++)
		if (atomic_load_explicit(&ready, memory_order_acquire))
			return 1;
	return 0;
}
