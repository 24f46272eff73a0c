// RUN: %lockwright check --quiet --checks=-*,barrier-misplaced-write-barrier,barrier-missing-release %s -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu | FileCheck %s --implicit-check-not="warning:"
// RUN: cp %s %t.c && %lockwright check --quiet --checks=-*,barrier-misplaced-write-barrier --fix %t.c -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu > /dev/null
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t.c
// RUN: %lockwright check --quiet --checks=-*,barrier-misplaced-write-barrier,barrier-missing-release %t.c -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu | count 0

#include "kernel-barrier.h"
#include "ck_pr.h"
#include "urcu.h"
#include <stdatomic.h>

/* Kernel: smp_wmb() after the flag store orders nothing the reader relies on. */
struct msg { int data; int ready; };
struct msg m;
void k_produce(int v) {
	m.data = v;
	WRITE_ONCE(m.ready, 1);
	smp_wmb();
}
// CHECK: :[[@LINE-2]]:2: warning: 'smp_wmb' stands after the publishing store, so it does not order the stores to 'msg.data' before the publishing store to 'msg.ready'; move it between them [barrier-misplaced-write-barrier]
// CHECK: :[[@LINE-4]]:2: note: the publishing store to 'msg.ready'
// CHECK: :[[@LINE-6]]:2: note: the store to 'msg.data' it must be ordered after
// CHECK: note: paired with this load of 'msg.ready' in 'k_consume'
// FIXED: {{^}}	m.data = v;
// FIXED-NEXT: {{^}}	smp_wmb();
// FIXED-NEXT: {{^}}	WRITE_ONCE(m.ready, 1);
// FIXED-NEXT: {{^}}}
int k_consume(void) {
	if (READ_ONCE(m.ready)) {
		smp_rmb();
		return m.data;
	}
	return -1;
}

/* C11: the release fence stands before the data store. */
struct ring { int slot[16]; _Atomic unsigned tail; };
struct ring r;
void c_push(int v, unsigned t) {
	atomic_thread_fence(memory_order_release);
	r.slot[t % 16] = v;
	atomic_store_explicit(&r.tail, t + 1, memory_order_relaxed);
}
// CHECK: :[[@LINE-4]]:2: warning: 'atomic_thread_fence' (release) stands before the stores it should order, so it does not order the stores to 'ring.slot' before the publishing store to 'ring.tail'; move it between them
// FIXED: void c_push(int v, unsigned t) {
// FIXED-NEXT: {{^}}	r.slot[t % 16] = v;
// FIXED-NEXT: {{^}}	atomic_thread_fence(memory_order_release);
// FIXED-NEXT: {{^}}	atomic_store_explicit(&r.tail, t + 1, memory_order_relaxed);
int c_pop(unsigned t) {
	if (atomic_load_explicit(&r.tail, memory_order_acquire) > t)
		return r.slot[t % 16];
	return -1;
}

/* ck: the store fence after the publishing store. */
struct ckq { int item; int seq; };
struct ckq q;
void ck_put(int v) {
	q.item = v;
	ck_pr_store_int(&q.seq, 1);
	ck_pr_fence_store();
}
// CHECK: :[[@LINE-2]]:2: warning: 'ck_pr_fence_store' stands after the publishing store
// FIXED: {{^}}	ck_pr_fence_store();
// FIXED-NEXT: {{^}}	ck_pr_store_int(&q.seq, 1);
int ck_get(void) { if (ck_pr_load_int(&q.seq)) { ck_pr_fence_load(); return q.item; } return 0; }

/* liburcu: cmm_smp_wmb() on the wrong side, inside a branch: it moves within the branch. */
struct urq { long payload; long head; };
struct urq u;
void u_put(long v, int more) {
	u.payload = v;
	if (more) {
		CMM_STORE_SHARED(u.head, 1);
		cmm_smp_wmb();
	}
}
// CHECK: :[[@LINE-3]]:3: warning: 'cmm_smp_wmb' stands after the publishing store
// FIXED: {{^}}		cmm_smp_wmb();
// FIXED-NEXT: {{^}}		CMM_STORE_SHARED(u.head, 1);
long u_get(void) { if (CMM_LOAD_SHARED(u.head)) { cmm_smp_rmb(); return u.payload; } return 0; }

/* Negative: the barrier between; a full barrier after the store that orders a later load
 * (store buffering: it is there for that). */
struct box { int val; int full; int other; };
struct box b1, b2;
void put1(int v) { b1.val = v; smp_wmb(); WRITE_ONCE(b1.full, 1); }
int get1(void) { if (READ_ONCE(b1.full)) { smp_rmb(); return b1.val; } return 0; }
int put2(int v) {
	b2.val = v;
	smp_wmb();
	WRITE_ONCE(b2.full, 1);
	smp_mb();
	return READ_ONCE(b2.other);
}
int get2(void) { if (READ_ONCE(b2.full)) { smp_rmb(); return b2.val; } return 0; }
