// RUN: %lockwright check --quiet --checks=-*,barrier-missing-release %s -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu | FileCheck %s --implicit-check-not="warning:"
// RUN: %lockwright check --quiet --arch aarch64 --checks=-*,barrier-missing-release %s -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu | FileCheck %s --check-prefix=ARM64
// RUN: cp %s %t.c && %lockwright check --quiet --checks=-*,barrier-missing-release --fix %t.c -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu > /dev/null
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t.c
// RUN: %lockwright check --quiet --checks=-*,barrier-missing-release %t.c -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck -I %S/Inputs/urcu | FileCheck %s --check-prefix=REFIX --implicit-check-not="warning:"

#include "kernel-barrier.h"
#include "ck_pr.h"
#include "urcu.h"
#include <pthread.h>
#include <stdatomic.h>

/* Kernel: the message is published with WRITE_ONCE, which orders nothing. */
struct msg { int data; int len; int ready; };
struct msg m;
void k_produce(int v) {
	m.data = v;
	m.len = 4;
	WRITE_ONCE(m.ready, 1);
}
// CHECK: :[[@LINE-2]]:2: warning: 'WRITE_ONCE' publishes 'msg.ready' after the stores to 'msg.data' and 'msg.len' with no release ordering: a reader that sees the new 'msg.ready' may still read the old 'msg.data' and 'msg.len' [barrier-missing-release]
// CHECK: :[[@LINE-4]]:2: note: the store to 'msg.len' it publishes
// CHECK: note: paired with this load of 'msg.ready' in 'k_consume', which then reads 'msg.data' and 'msg.len'
// CHECK: note: on x86_64 the hardware keeps stores in order, but the compiler may reorder them
// ARM64: :[[@LINE-6]]:2: warning: 'WRITE_ONCE' publishes 'msg.ready'
// ARM64: note: on aarch64 the hardware reorders stores (a write barrier is dmb ishst)
// FIXED: smp_store_release(&m.ready, 1);
int k_consume(void) {
	if (smp_load_acquire(&m.ready))
		return m.data + m.len;
	return -1;
}

/* C11: a relaxed store of the ring's tail publishes the slot. */
struct ring { int slot[16]; _Atomic unsigned tail; };
struct ring r;
void c_push(int v, unsigned t) {
	r.slot[t % 16] = v;
	atomic_store_explicit(&r.tail, t + 1, memory_order_relaxed);
}
// CHECK: :[[@LINE-2]]:2: warning: 'atomic_store_explicit' (relaxed) publishes 'ring.tail' after the stores to 'ring.slot' with no release ordering
// FIXED: atomic_store_explicit(&r.tail, t + 1, memory_order_release);
int c_pop(unsigned t) {
	if (atomic_load_explicit(&r.tail, memory_order_acquire) > t)
		return r.slot[t % 16];
	return -1;
}

/* ck: ck_pr_store_int is a plain volatile store; ck has no release store to rewrite it to. */
struct ckq { int item; int seq; };
struct ckq q;
void ck_put(int v) {
	q.item = v;
	ck_pr_store_int(&q.seq, 1);
}
// CHECK: :[[@LINE-2]]:2: warning: 'ck_pr_store_int' publishes 'ckq.seq' after the stores to 'ckq.item' with no release ordering
// REFIX: :[[@LINE-3]]:2: warning: 'ck_pr_store_int' publishes 'ckq.seq'
int ck_get(void) {
	if (ck_pr_load_int(&q.seq)) {
		ck_pr_fence_load();
		return q.item;
	}
	return 0;
}

/* liburcu: uatomic_store with CMM_RELAXED. */
struct urq { long payload; long head; };
struct urq u;
void u_put(long v) {
	u.payload = v;
	uatomic_store(&u.head, 1, CMM_RELAXED);
}
// CHECK: :[[@LINE-2]]:2: warning: 'uatomic_store' (relaxed) publishes 'urq.head' after the stores to 'urq.payload'
// FIXED: uatomic_store(&u.head, 1, CMM_RELEASE);
long u_get(void) { return uatomic_load(&u.head, CMM_ACQUIRE) ? u.payload : 0; }

/* Negative: release stores, a write barrier between, seq_cst, rcu_assign_pointer. */
struct box { int val; int full; };
struct box b1, b2, b3;
void k_put1(int v) { b1.val = v; smp_store_release(&b1.full, 1); }
int k_get1(void) { return smp_load_acquire(&b1.full) ? b1.val : 0; }
void k_put2(int v) { b2.val = v; smp_wmb(); WRITE_ONCE(b2.full, 1); }
int k_get2(void) { if (READ_ONCE(b2.full)) { smp_rmb(); return b2.val; } return 0; }
void ck_put3(int v) { b3.val = v; ck_pr_fence_store(); ck_pr_store_int(&b3.full, 1); }
int ck_get3(void) { if (ck_pr_load_int(&b3.full)) { ck_pr_fence_load(); return b3.val; } return 0; }
struct cfg { int a; _Atomic int go; };
struct cfg c;
void c_set(int a) { c.a = a; atomic_store(&c.go, 1); }
int c_get(void) { return atomic_load(&c.go) ? c.a : 0; }
struct node { int key; struct node *next; };
struct node *head, *uhead;
void k_push(int key) {
	struct node *n = kmalloc(sizeof(*n), 0);
	n->key = key; /* private until published: not a publishing store */
	n->next = head;
	rcu_assign_pointer(head, n);
}
int k_first(void) {
	struct node *p = rcu_dereference(head);
	return p ? p->key : -1;
}
void u_push(struct node *n) {
	n->key = 1;
	rcu_assign_pointer(uhead, n);
}

/* Negative: both sides under one lock. */
struct locked { spinlock_t lock; int val; int full; };
struct locked L;
void k_lput(int v) { spin_lock(&L.lock); L.val = v; WRITE_ONCE(L.full, 1); spin_unlock(&L.lock); }
int k_lget(void) { int r = 0; spin_lock(&L.lock); if (READ_ONCE(L.full)) r = L.val; spin_unlock(&L.lock); return r; }

/* Negative: data written before pthread_create and read by the new thread. */
int shared_input;
static void *worker(void *arg) { return (void *)(long)shared_input; }
void start(void) {
	pthread_t t;
	shared_input = 42;
	pthread_create(&t, 0, worker, 0);
}

/* Negative: thread-local and stack objects are never shared. */
_Thread_local struct box tls_box;
void tls_put(int v) { tls_box.val = v; WRITE_ONCE(tls_box.full, 1); }
int tls_get(void) { return READ_ONCE(tls_box.full) ? tls_box.val : 0; }

/* Negative: nothing marks this pair as synchronisation (plain on both sides, no barrier). */
struct stats { long hits; long last; };
struct stats st;
void st_hit(long t) { st.hits++; st.last = t; }
long st_read(void) { return st.last + st.hits; }

/* Negative: a value-returning kernel RMW is fully ordered. */
struct counted { int data; atomic_t seq; };
struct counted cc;
void cc_put(int v) { cc.data = v; atomic_inc_return(&cc.seq); }
int cc_get(void) { return atomic_read(&cc.seq) ? cc.data : 0; }

/* Negative: main's serial phases, before it starts a thread and after it joins the last. */
struct phase { int data; int flag; };
struct phase ph;
static void *phase_reader(void *a) { return smp_load_acquire(&ph.flag) ? (void *)(long)ph.data : 0; }
int phase_main(void) {
	pthread_t t;
	ph.data = 1;
	WRITE_ONCE(ph.flag, 1);
	pthread_create(&t, 0, phase_reader, 0);
	pthread_join(t, 0);
	ph.data = 2;
	WRITE_ONCE(ph.flag, 2);
	return 0;
}

/* Negative: a linked container's links (the kernel's list_head): next and prev of one link
 * are not a flag and its data. */
struct list_head { struct list_head *next, *prev; };
static inline void list_add_between(struct list_head *new, struct list_head *prev, struct list_head *next) {
	next->prev = new;
	new->next = next;
	new->prev = prev;
	WRITE_ONCE(prev->next, new);
}
static inline int list_empty_careful(const struct list_head *head) {
	struct list_head *next = smp_load_acquire(&head->next);
	return next == head && next == READ_ONCE(head->prev);
}

/* Negative: one lock held on both paths (trylock or lock), then the data and flag. */
struct tl { spinlock_t lock; int val; int full; };
struct tl T;
int spin_trylock(spinlock_t *l);
void tl_put(int v, int try) {
	if (try) {
		while (!spin_trylock(&T.lock))
			;
	} else {
		spin_lock(&T.lock);
	}
	T.val = v;
	WRITE_ONCE(T.full, 1);
	spin_unlock(&T.lock);
}
int tl_get(void) { return smp_load_acquire(&T.full) ? T.val : 0; }

/* Negative: a function reading back its own flag is program order, not a reader. */
struct own { int data; int ready; };
struct own ow;
int own_flag(int v) {
	ow.data = v;
	WRITE_ONCE(ow.ready, 1);
	return smp_load_acquire(&ow.ready) ? ow.data : 0;
}

/* C11, the S shape: a queue lock whose tail exchange is acquire only. The node's init stores
 * may land after a successor that found the node in the tail linked itself in (prev->next). */
struct qnode { struct qnode *next; int locked; };
struct qlock { _Atomic(struct qnode *) tail; };
struct qlock QL;
void q_lock(struct qnode *node) {
	node->next = 0;
	node->locked = 1;
	struct qnode *prev = atomic_exchange_explicit(&QL.tail, node, memory_order_acquire);
	if (prev)
		prev->next = node;
}
// CHECK: :[[@LINE-4]]:23: warning: 'atomic_exchange_explicit' (acquire) publishes 'qlock.tail' after the stores to 'qnode.next' with no release ordering: they may land after a thread that saw the new 'qlock.tail' wrote 'qnode.next', and overwrite it [barrier-missing-release]
// CHECK: note: paired with this load of 'qlock.tail' in 'q_lock', which then writes 'qnode.next'
// REFIX: :[[@LINE-6]]:23: warning: 'atomic_exchange_explicit' (acquire) publishes 'qlock.tail'

/* Negative: the reader's load of the data runs whether or not the flag is set (two statistics
   reads): the flag's load decides nothing, so nothing is read on its strength. */
struct hitstats { long hits; long epoch; };
struct hitstats hs;
void hs_bump(long h) { hs.hits = h; WRITE_ONCE(hs.epoch, 1); }
long hs_read(long *hits) {
	long e = smp_load_acquire(&hs.epoch);
	*hits = hs.hits;
	return e;
}

/* Negative: the data store and the flag store are on two arms of a branch, or two iterations. */
struct arms { int data; int flag; };
struct arms ar;
void ar_put(int c, int v) {
	if (c)
		ar.data = v;
	else
		WRITE_ONCE(ar.flag, 1);
}
int ar_get(void) { return smp_load_acquire(&ar.flag) ? ar.data : 0; }

/* Negative: two calls of one function: one call's data store and the next call's flag store are
   two operations in a row; the callee's own body is judged on its own. */
struct pipe { int slot; int tail; };
struct pipe pp;
static void pp_step(int v) {
	WRITE_ONCE(pp.tail, v);
	pp.slot = v;
	smp_wmb();
	WRITE_ONCE(pp.tail, v + 1);
}
void pp_twice(void) { pp_step(1); pp_step(2); }
int pp_get(void) { return smp_load_acquire(&pp.tail) ? pp.slot : 0; }

/* Negative: the writer asserts it holds the lock its readers take. */
struct held { spinlock_t lock; int data; int ready; };
struct held hd;
void hd_put(int v) {
	lockdep_assert_held(&hd.lock);
	hd.data = v;
	WRITE_ONCE(hd.ready, 1);
}
int hd_get(void) { return smp_load_acquire(&hd.ready) ? hd.data : 0; }

/* Negative: a static function whose every call holds a lock runs under it. */
struct under { spinlock_t lock; int data; int ready; };
struct under ud;
static void ud_put_locked(int v) {
	ud.data = v;
	WRITE_ONCE(ud.ready, 1);
}
void ud_put(int v) { spin_lock(&ud.lock); ud_put_locked(v); spin_unlock(&ud.lock); }
int ud_get(void) { return smp_load_acquire(&ud.ready) ? ud.data : 0; }

/* Negative: a plain store where the other stores of the flag are marked: written plain on purpose
   (a single producer, an owner); the marked variant is the one judged. */
struct spnc { int item; int head; };
struct spnc sp;
void sp_push_single(int v) { sp.item = v; sp.head = 1; }
void sp_push_multi(int v) { sp.item = v; smp_store_release(&sp.head, 2); }
int sp_pop(void) { return smp_load_acquire(&sp.head) ? sp.item : 0; }

/* Negative: the reader only prints the data. */
struct diag { long seq; int state; };
struct diag dg;
void dg_end(long s) { dg.seq = s; WRITE_ONCE(dg.state, 0); }
void dg_report(void) {
	if (smp_load_acquire(&dg.state) == 1)
		pr_info("seq %ld\n", dg.seq);
}

/* Negative: the reader computes the flag's next value from the data (a deadline rewritten). */
struct deadline { long timeout; long stall; };
struct deadline dl;
void dl_set(long t) { dl.timeout = t; WRITE_ONCE(dl.stall, 1); }
void dl_rearm(long now) {
	if (now > smp_load_acquire(&dl.stall))
		WRITE_ONCE(dl.stall, now + dl.timeout);
}

/* Negative: a new object compared with NULL is still unpublished. */
struct obj { int ref; int next; };
struct obj *ob_new(void) {
	struct obj *o = kzalloc(sizeof(*o), 0);
	if (o != NULL) {
		o->ref = 1;
		WRITE_ONCE(o->next, 0);
	}
	return o;
}
int ob_get(struct obj *o) { return smp_load_acquire(&o->next) ? o->ref : 0; }

/* ck: an exchange orders as the architecture's instruction (ck writes it in asm with a memory
   clobber): fully on x86_64, not at all on arm64. */
struct ckx { int item; unsigned int seq; };
struct ckx cx;
void cx_put(int v) {
	cx.item = v;
	ck_pr_fas_uint(&cx.seq, 1);
}
// ARM64: :[[@LINE-2]]:2: warning: 'ck_pr_fas_uint' publishes 'ckx.seq' after the stores to 'ckx.item' with no release ordering
int cx_get(void) {
	if (ck_pr_load_int((const int *)&cx.seq)) {
		ck_pr_fence_load();
		return cx.item;
	}
	return 0;
}
