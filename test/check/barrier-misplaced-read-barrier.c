// RUN: %lockwright check --quiet --checks=-*,barrier-misplaced-read-barrier,barrier-missing-acquire %s -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu | FileCheck %s --implicit-check-not="warning:"
// RUN: cp %s %t.c && %lockwright check --quiet --checks=-*,barrier-misplaced-read-barrier --fix %t.c -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu > /dev/null
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t.c
// RUN: %lockwright check --quiet --checks=-*,barrier-misplaced-read-barrier %t.c -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu | FileCheck %s --check-prefix=REFIX --implicit-check-not="warning:"

#include "kernel-barrier.h"
#include "ck_pr.h"
#include "urcu.h"
#include <stdatomic.h>

/* Kernel: smp_rmb() before the flag load orders nothing the writer relies on. */
struct msg { int data; int ready; };
struct msg m;
void k_produce(int v) { m.data = v; smp_wmb(); WRITE_ONCE(m.ready, 1); }
int k_consume(void) {
	int d;
	smp_rmb();
	if (!READ_ONCE(m.ready))
		return -1;
	d = m.data;
	return d;
}
// CHECK: :[[@LINE-6]]:2: warning: 'smp_rmb' stands before the guarding load, so it does not order the load of 'msg.ready' before the loads of 'msg.data'; move it between them [barrier-misplaced-read-barrier]
// CHECK: :[[@LINE-6]]:7: note: the guarding load of 'msg.ready'
// CHECK: :[[@LINE-5]]:6: note: the load of 'msg.data' it must be ordered before
// CHECK: note: paired with this store to 'msg.ready' in 'k_produce'
// FIXED: {{^}}	int d;
// FIXED-NEXT: {{^}}	if (!READ_ONCE(m.ready))
// FIXED-NEXT: {{^}}		return -1;
// FIXED-NEXT: {{^}}	smp_rmb();
// FIXED-NEXT: {{^}}	d = m.data;

/* C11: the acquire fence after the data load. */
struct ring { int slot[16]; _Atomic unsigned tail; };
struct ring r;
void c_push(int v, unsigned t) { r.slot[t % 16] = v; atomic_store_explicit(&r.tail, t + 1, memory_order_release); }
int c_pop(unsigned t) {
	int v;
	if (atomic_load_explicit(&r.tail, memory_order_relaxed) <= t)
		return -1;
	v = r.slot[t % 16];
	atomic_thread_fence(memory_order_acquire);
	return v;
}
// CHECK: :[[@LINE-3]]:2: warning: 'atomic_thread_fence' (acquire) stands after the loads it should order, so it does not order the load of 'ring.tail' before the loads of 'ring.slot'
// FIXED: {{^}}		return -1;
// FIXED-NEXT: {{^}}	atomic_thread_fence(memory_order_acquire);
// FIXED-NEXT: {{^}}	v = r.slot[t % 16];
// FIXED-NEXT: {{^}}	return v;

/* ck: the load fence before the poll; the data load shares the guard's statement, so there is
 * no statement to move it before. */
struct ckq { int item; int seq; };
struct ckq q;
void ck_put(int v) { q.item = v; ck_pr_fence_store(); ck_pr_store_int(&q.seq, 1); }
int ck_get(void) {
	ck_pr_fence_load();
	return ck_pr_load_int(&q.seq) ? q.item : 0;
}
// CHECK: :[[@LINE-3]]:2: warning: 'ck_pr_fence_load' stands before the guarding load
// REFIX: :[[@LINE-4]]:2: warning: 'ck_pr_fence_load' stands before the guarding load
// FIXED: {{^}}	ck_pr_fence_load();
// FIXED-NEXT: {{^}}	return ck_pr_load_int(&q.seq) ? q.item : 0;

/* Negative: the read barrier between; a full barrier after a store is for store buffering. */
struct box { int val; int full; int mine; };
struct box b1, b2;
void put1(int v) { b1.val = v; smp_wmb(); WRITE_ONCE(b1.full, 1); }
int get1(void) { if (READ_ONCE(b1.full)) { smp_rmb(); return b1.val; } return 0; }
void put2(int v) { b2.val = v; smp_wmb(); WRITE_ONCE(b2.full, 1); }
int get2(void) {
	WRITE_ONCE(b2.mine, 1);
	smp_mb();
	if (smp_load_acquire(&b2.full))
		return b2.val;
	return 0;
}

/* A read barrier that orders other loads (the slot's key before its value) is not misplaced when
   the pair it misses is the bound before the slot (ck_ht_map_probe_rd): that pair just lacks
   ordering, and the finding is barrier-missing-acquire at the bound's load. */
struct slot { int key; int value; };
struct table { struct slot slots[8]; int deletions; int bound; };
struct table tb;
void tb_shrink(int k, int v) {
	tb.deletions = 1;
	tb.slots[0].value = v;
	ck_pr_store_int(&tb.slots[0].key, k);
	ck_pr_fence_store();
	ck_pr_store_int(&tb.bound, 1);
}
int tb_probe(int k) {
	int bound = ck_pr_load_int(&tb.bound);
	for (int i = 0; i < 8; i++) {
		if (i > bound)
			return -1;
		int d = tb.deletions;
		int key = ck_pr_load_int(&tb.slots[i].key);
		ck_pr_fence_load();
		if (key == k && d >= 0)
			return tb.slots[i].value;
	}
	return -1;
}
// CHECK: :[[@LINE-12]]:14: warning: 'ck_pr_load_int' of 'table.bound' guards the loads of 'table.deletions', 'table.slots.key' and 'table.slots.value' with no acquire ordering{{.*}}[barrier-missing-acquire]
