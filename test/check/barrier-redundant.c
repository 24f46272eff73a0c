// RUN: %lockwright check --quiet --checks=-*,barrier-redundant %s -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu | FileCheck %s --check-prefixes=CHECK,X86 --implicit-check-not="warning:"
// RUN: %lockwright check --quiet --arch aarch64 --checks=-*,barrier-redundant %s -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu | FileCheck %s --check-prefixes=CHECK,ARM64 --implicit-check-not="warning:"
// RUN: cp %s %t.c && %lockwright check --quiet --checks=-*,barrier-redundant --fix %t.c -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu > /dev/null
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t.c
// RUN: %lockwright check --quiet --checks=-*,barrier-redundant %t.c -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu | FileCheck %s --check-prefix=REFIX --implicit-check-not="warning:"

#include "kernel-barrier.h"
#include "ck_pr.h"
#include "urcu.h"
#include <stdatomic.h>

atomic_t refs;
int flag, data, other;

/* Kernel: a value-returning atomic is fully ordered; smp_mb() beside it is redundant everywhere. */
int get_ref(void) {
	int r = atomic_inc_return(&refs);
	smp_mb();
	return r;
}
// CHECK: :[[@LINE-3]]:2: warning: 'smp_mb' is redundant: 'atomic_inc_return' before it is a value-returning RMW, fully ordered on every architecture [barrier-redundant]
// CHECK: :[[@LINE-5]]:10: note: the fully ordered RMW
// FIXED: int r = atomic_inc_return(&refs);
// FIXED-NEXT: {{^}}	return r;

/* Kernel: after a non-returning RMW, smp_mb__after_atomic() is what is needed. */
void put_ref(void) {
	atomic_inc(&refs);
	smp_mb();
	WRITE_ONCE(flag, 1);
}
// X86: :[[@LINE-3]]:2: warning: 'smp_mb' after the non-value-returning RMW 'atomic_inc' is stronger than needed: 'smp_mb__after_atomic()' orders it (on x86_64 it is a compiler barrier)
// ARM64: :[[@LINE-4]]:2: warning: 'smp_mb' after the non-value-returning RMW 'atomic_inc' is stronger than needed: 'smp_mb__after_atomic()' orders it (on aarch64 it is dmb ish)
// FIXED: smp_mb__after_atomic();
void pre_ref(void) {
	WRITE_ONCE(data, 1);
	smp_mb();
	atomic_inc(&refs);
}
// CHECK: :[[@LINE-3]]:2: warning: 'smp_mb' before the non-value-returning RMW 'atomic_inc' is stronger than needed: 'smp_mb__before_atomic()' orders it
// FIXED: smp_mb__before_atomic();

/* Negative: smp_mb__after_atomic() orders atomic RMWs only; after a plain `flags &= ~bit`
   the full barrier is what orders it before a lockless waiter check (unlock_new_inode). */
unsigned long state;
void clear_new(void) {
	state &= ~1UL;
	smp_mb();
	(void)READ_ONCE(flag);
}

/* Kernel: a write barrier next to a full one; a read barrier after an acquire load. */
void publish(void) {
	WRITE_ONCE(data, 1);
	smp_wmb();
	smp_mb();
	WRITE_ONCE(flag, 1);
}
// CHECK: :[[@LINE-4]]:2: warning: 'smp_wmb' is redundant on {{x86_64|aarch64}}: the adjacent 'smp_mb' already orders everything it does
int consume(void) {
	if (!smp_load_acquire(&flag))
		return 0;
	smp_rmb();
	return READ_ONCE(data);
}
// CHECK: :[[@LINE-3]]:2: warning: 'smp_rmb' is redundant: the acquire load 'smp_load_acquire' before it already orders the loads after it

/* C11: a seq_cst fence after a seq_cst RMW is redundant where RMWs are fully ordered (x86_64),
 * needed where they are not (aarch64): no fix-it, the code is portable. */
_Atomic int ticket;
int take(void) {
	int t = atomic_fetch_add(&ticket, 1);
	atomic_thread_fence(memory_order_seq_cst);
	return t + other;
}
// X86: :[[@LINE-3]]:2: warning: 'atomic_thread_fence' (seq_cst) is redundant on x86_64: the seq_cst RMW 'atomic_fetch_add' before it is fully ordered there; architectures whose RMWs are not fully ordered need it
// REFIX: warning: 'atomic_thread_fence' (seq_cst) is redundant on x86_64
// FIXED: atomic_thread_fence(memory_order_seq_cst);

/* ck and liburcu: a store fence subsumed by a full fence; a read barrier subsumed. */
void ck_publish(void) {
	ck_pr_store_int(&data, 1);
	ck_pr_fence_store();
	ck_pr_fence_memory();
	ck_pr_store_int(&flag, 1);
}
// CHECK: :[[@LINE-4]]:2: warning: 'ck_pr_fence_store' is redundant on {{x86_64|aarch64}}: the adjacent 'ck_pr_fence_memory' already orders everything it does
// FIXED: ck_pr_store_int(&data, 1);
// FIXED-NEXT: {{^}}	ck_pr_fence_memory();
int u_read(void) {
	int f = CMM_LOAD_SHARED(flag);
	cmm_smp_mb();
	cmm_smp_rmb();
	return f + CMM_LOAD_SHARED(data);
}
// CHECK: :[[@LINE-3]]:2: warning: 'cmm_smp_rmb' is redundant on {{x86_64|aarch64}}: the adjacent 'cmm_smp_mb' already orders everything it does

/* Negative: the read barrier also orders an earlier plain load; an access between the RMW and
 * the barrier; a read and a write barrier order different things. */
int consume2(void) {
	int o = READ_ONCE(other);
	if (!smp_load_acquire(&flag))
		return 0;
	smp_rmb();
	return o + READ_ONCE(data);
}
int get_ref2(void) {
	int r = atomic_inc_return(&refs);
	WRITE_ONCE(flag, r);
	smp_mb();
	return READ_ONCE(data);
}
void both(void) {
	WRITE_ONCE(data, READ_ONCE(other));
	smp_rmb();
	smp_wmb();
	WRITE_ONCE(flag, 1);
}
/* Negative: barriers on two arms of a branch are never both executed. */
void arms(int c) {
	if (c)
		smp_wmb();
	else
		smp_mb();
	WRITE_ONCE(flag, 1);
}
/* Negative: the body of a primitive the specs name as a function (ck_pr_store_*) is what its
   name stands for, not code to judge; its calls are judged where they are made. */
static inline void ck_pr_store_local(int *p, int v) {
	ck_pr_fence_store();
	ck_pr_fence_memory();
	*p = v;
}
/* A function a macro's name pattern happens to match ({prefix}_barrier) is still user code. */
void local_barrier(void) {
	ck_pr_store_local(&data, 1);
	ck_pr_fence_store();
	ck_pr_fence_memory();
	ck_pr_store_int(&flag, 1);
}
// CHECK: :[[@LINE-4]]:2: warning: 'ck_pr_fence_store' is redundant on {{x86_64|aarch64}}: the adjacent 'ck_pr_fence_memory' already orders everything it does
