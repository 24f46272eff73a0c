// RUN: %lockwright check --quiet --checks=-*,barrier-missing-acquire %s -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu | FileCheck %s --implicit-check-not="warning:"
// RUN: %lockwright check --quiet --arch generic --checks=-*,barrier-missing-acquire %s -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu | FileCheck %s --check-prefixes=CHECK,GENERIC --implicit-check-not="warning:"
// RUN: cp %s %t.c && %lockwright check --quiet --checks=-*,barrier-missing-acquire --fix %t.c -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu > /dev/null
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t.c
// RUN: %lockwright check --quiet --checks=-*,barrier-missing-acquire %t.c -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu | FileCheck %s --check-prefix=REFIX --implicit-check-not="warning:"

#include "kernel-barrier.h"
#include "ck_pr.h"
#include "urcu.h"
#include <stdatomic.h>

/* Kernel: the flag is read with READ_ONCE and the data after it with no read barrier. */
struct msg { int data; int len; int ready; };
struct msg m;
void k_produce(int v) { m.data = v; m.len = 4; smp_store_release(&m.ready, 1); }
int k_consume(void) {
	if (READ_ONCE(m.ready))
		return m.data + m.len;
	return -1;
}
// CHECK: :[[@LINE-4]]:6: warning: 'READ_ONCE' of 'msg.ready' guards the loads of 'msg.data' and 'msg.len' with no acquire ordering: they may read values older than the 'msg.ready' it saw [barrier-missing-acquire]
// CHECK: :[[@LINE-4]]:10: note: the load of 'msg.data' it guards
// CHECK: note: paired with this store to 'msg.ready' in 'k_produce', after it writes 'msg.data' and 'msg.len'
// CHECK: note: on {{x86_64|generic}}
// FIXED: if (smp_load_acquire(&m.ready))

/* C11: a relaxed load of the ring's head guards the slot. */
struct ring { int slot[16]; _Atomic unsigned head; };
struct ring r;
void c_push(int v, unsigned h) { r.slot[h % 16] = v; atomic_store_explicit(&r.head, h + 1, memory_order_release); }
int c_pop(unsigned h) {
	if (atomic_load_explicit(&r.head, memory_order_relaxed) > h)
		return r.slot[h % 16];
	return -1;
}
// CHECK: :[[@LINE-4]]:6: warning: 'atomic_load_explicit' (relaxed) of 'ring.head' guards the loads of 'ring.slot' with no acquire ordering
// FIXED: if (atomic_load_explicit(&r.head, memory_order_acquire) > h)

/* ck: ck_pr_load_int with the fence missing. */
struct ckq { int item; int seq; };
struct ckq q;
void ck_put(int v) { q.item = v; ck_pr_fence_store(); ck_pr_store_int(&q.seq, 1); }
int ck_get(void) {
	if (ck_pr_load_int(&q.seq))
		return q.item;
	return 0;
}
// CHECK: :[[@LINE-4]]:6: warning: 'ck_pr_load_int' of 'ckq.seq' guards the loads of 'ckq.item' with no acquire ordering
// REFIX: :[[@LINE-5]]:6: warning: 'ck_pr_load_int' of 'ckq.seq' guards

/* liburcu: uatomic_load with CMM_RELAXED. */
struct urq { long payload; long tail; };
struct urq u;
void u_put(long v) { u.payload = v; uatomic_store(&u.tail, 1, CMM_RELEASE); }
long u_get(void) { return uatomic_load(&u.tail, CMM_RELAXED) ? u.payload : 0; }
// CHECK: :[[@LINE-1]]:27: warning: 'uatomic_load' (relaxed) of 'urq.tail' guards the loads of 'urq.payload'
// FIXED: long u_get(void) { return uatomic_load(&u.tail, CMM_ACQUIRE) ? u.payload : 0; }

/* Negative: address dependencies. rcu_dereference and READ_ONCE carry them on every
 * architecture; a relaxed C11 load carries one only where the hardware keeps it (not in the
 * C11 model of the generic spec). */
struct node { int key; struct node *next; };
struct node *head, *lhead;
_Atomic(struct node *) chead;
void k_push(struct node *n) { n->key = 1; rcu_assign_pointer(head, n); }
int k_first(void) { struct node *p = rcu_dereference(head); return p ? p->key : -1; }
void l_push(struct node *n) { n->key = 1; smp_store_release(&lhead, n); }
int l_first(void) { struct node *p = READ_ONCE(lhead); return p ? p->key : -1; }
int l_direct(void) { return READ_ONCE(lhead)->key; }
void c_pushn(struct node *n) { n->key = 1; atomic_store_explicit(&chead, n, memory_order_release); }
int c_first(void) {
	struct node *p = atomic_load_explicit(&chead, memory_order_relaxed);
	return p ? p->key : -1;
}
// GENERIC: :[[@LINE-3]]:19: warning: 'atomic_load_explicit' (relaxed) of 'chead' guards the loads of 'node.key'

/* Negative: a load that guards nothing (a statistic). */
int k_ready_count(void) { return READ_ONCE(m.ready); }

/* Negative: acquire, a read barrier, seq_cst, a control dependency ordering a later store. */
struct box { int val; int full; int ack; };
struct box b1, b2, b3;
void put1(int v) { b1.val = v; smp_wmb(); WRITE_ONCE(b1.full, 1); }
int get1(void) { if (READ_ONCE(b1.full)) { smp_rmb(); return b1.val; } return 0; }
int get1a(void) { return smp_load_acquire(&b1.full) ? b1.val : 0; }
struct cfg { int a; _Atomic int go; };
struct cfg c;
void c_set(int a) { c.a = a; atomic_store(&c.go, 1); }
int c_get(void) { return atomic_load(&c.go) ? c.a : 0; }
void ack(void) { if (READ_ONCE(b2.full)) WRITE_ONCE(b2.ack, 1); }
void put2(int v) { b2.ack = 0; smp_store_release(&b2.full, 1); }

/* Negative: under the lock on both sides. */
struct locked { spinlock_t lock; int val; int full; };
struct locked L;
void lput(int v) { spin_lock(&L.lock); L.val = v; WRITE_ONCE(L.full, 1); spin_unlock(&L.lock); }
int lget(void) { int x = 0; spin_lock(&L.lock); if (READ_ONCE(L.full)) x = L.val; spin_unlock(&L.lock); return x; }

/* Negative: a plain load of a flag the TU's readers load with READ_ONCE: the writer's own code
   (a single writer rereading its table) reads it plain on purpose. */
struct sw { int size; int nr; };
struct sw tab;
void sw_grow(int n) { tab.size = n; smp_wmb(); WRITE_ONCE(tab.nr, n); }
int sw_reader(void) { if (READ_ONCE(tab.nr)) { smp_rmb(); return tab.size; } return 0; }
int sw_writer_probe(void) { if (tab.nr) return tab.size; return 0; }

/* Negative: the data is read through a copy of the pointer the guard loaded (container_of):
   an address dependency orders it. */
struct item { int key; struct item *next; };
struct rec { int state; struct item link; };
struct list { struct item *head; };
struct list lst;
void ls_add(struct rec *r) { r->state = 1; smp_wmb(); WRITE_ONCE(lst.head, &r->link); }
int ls_first_state(void) {
	struct item *it = READ_ONCE(lst.head);
	struct rec *r = (struct rec *)((char *)it - __builtin_offsetof(struct rec, link));
	return r->state;
}

/* Negative: a program's main that starts no thread runs alone. */
struct once { int val; int set; };
struct once on;
void on_set(int v) { on.val = v; smp_wmb(); WRITE_ONCE(on.set, 1); }
int main(void) {
	on_set(1);
	if (READ_ONCE(on.set))
		return on.val;
	return 0;
}
