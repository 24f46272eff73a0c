// RUN: %lockwright check --quiet --checks=-*,layout-false-sharing %s -- -std=gnu11 | FileCheck %s --implicit-check-not="warning:"
// RUN: %lockwright check --quiet --checks=-*,layout-false-sharing --arch ppc64 %s -- -std=gnu11 | FileCheck %s --check-prefix=PPC64 --implicit-check-not="warning:"
// RUN: cp %s %t.c && %lockwright check --quiet --checks=-*,layout-false-sharing --fix %t.c -- -std=gnu11 > /dev/null
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t.c
// RUN: %lockwright check --quiet --checks=-*,layout-false-sharing %t.c -- -std=gnu11 | count 0

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

/* Kernel-style names, recognised through specs/api/kernel.yaml. */
typedef struct { int counter; } atomic_t;
typedef struct { volatile unsigned int slock; } spinlock_t;
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
void spin_lock(spinlock_t *l);
void spin_unlock(spinlock_t *l);
void atomic_inc(atomic_t *v);

/* --- positive: a lock and an atomic updated outside it -------------------------------------- */
struct stats {
	pthread_spinlock_t lock;
	long guarded;
	atomic_long hits;
};
// CHECK: layout-false-sharing.c:[[@LINE-2]]:14: warning: 'hits' (atomic) and 'lock' (lock) of struct stats can share a 64-byte destructive-interference window on x86_64; they are written independently, so they false-share [layout-false-sharing]
// CHECK: :[[@LINE-5]]:21: note: 'lock' is at offset 0 (4 bytes); 'hits' is at offset 16, 16 bytes after its start
// CHECK: note: the destructive interference size of x86_64 is 64 bytes
// PPC64: warning: 'hits' (atomic) and 'lock' (lock) of struct stats can share a 128-byte
// FIXED: _Alignas(64) atomic_long hits;
void stats_guarded(struct stats *s) { pthread_spin_lock(&s->lock); s->guarded++; pthread_spin_unlock(&s->lock); }
void stats_hit(struct stats *s) { atomic_fetch_add(&s->hits, 1); }

/* --- positive: two locks (kernel-style) ------------------------------------------------------ */
struct two_queues {
	spinlock_t head_lock;
	spinlock_t tail_lock;
};
// CHECK: :[[@LINE-2]]:13: warning: 'tail_lock' (lock) and 'head_lock' (lock) of struct two_queues can share
// PPC64: warning: 'tail_lock' (lock) and 'head_lock' (lock) of struct two_queues
// FIXED: _Alignas(64) spinlock_t tail_lock;
void q_push(struct two_queues *q) { spin_lock(&q->tail_lock); spin_unlock(&q->tail_lock); }
void q_pop(struct two_queues *q) { spin_lock(&q->head_lock); spin_unlock(&q->head_lock); }

/* --- negative: a record no function of the program uses: nothing says its locks are taken ---- */
struct unused_locks {
	spinlock_t a;
	spinlock_t b;
};

/* --- positive: two atomics written from different functions (kernel atomic_t, READ_ONCE) ----- */
struct kstats {
	atomic_t opens;
	unsigned long closes;
};
// CHECK: :[[@LINE-2]]:16: warning: 'closes' (atomic) and 'opens' (atomic) of struct kstats can share
// PPC64: warning: 'closes' (atomic) and 'opens' (atomic) of struct kstats
void k_open(struct kstats *k) { atomic_inc(&k->opens); }
void k_close(struct kstats *k) { WRITE_ONCE(k->closes, READ_ONCE(k->closes) + 1); }

/* --- positive: a single-producer/single-consumer ring: each side writes its index and reads the
   other's. Both functions use both, but as two parties handing off, not as one object. --------- */
struct spsc_ring {
	_Atomic unsigned long head;
	_Atomic unsigned long tail;
	unsigned long slot[64];
};
// CHECK: :[[@LINE-3]]:24: warning: 'tail' (atomic) and 'head' (atomic) of struct spsc_ring can share
// PPC64: warning: 'tail' (atomic) and 'head' (atomic) of struct spsc_ring
// FIXED: _Alignas(64) _Atomic unsigned long tail;
void ring_put(struct spsc_ring *r, unsigned long v) {
	unsigned long h = atomic_load_explicit(&r->head, memory_order_relaxed);
	while (h - atomic_load_explicit(&r->tail, memory_order_acquire) >= 64) ;
	r->slot[h % 64] = v;
	atomic_store_explicit(&r->head, h + 1, memory_order_release);
}
unsigned long ring_get(struct spsc_ring *r) {
	unsigned long t = atomic_load_explicit(&r->tail, memory_order_relaxed);
	while (atomic_load_explicit(&r->head, memory_order_acquire) == t) ;
	unsigned long v = r->slot[t % 64];
	atomic_store_explicit(&r->tail, t + 1, memory_order_release);
	return v;
}

/* --- negative: a lock beside the plain data it guards ---------------------------------------- */
struct guarded_list {
	pthread_mutex_t lock;
	void *head;
	long count;
};
void list_push(struct guarded_list *l, void *n) { pthread_mutex_lock(&l->lock); l->head = n; l->count++; pthread_mutex_unlock(&l->lock); }

/* --- negative: the halves of one ticket lock (used together) --------------------------------- */
struct ticket {
	_Atomic uint16_t next;
	_Atomic uint16_t owner;
};
void ticket_lock(struct ticket *t) { uint16_t me = atomic_fetch_add(&t->next, 1); while (atomic_load(&t->owner) != me) ; }
void ticket_unlock(struct ticket *t) { atomic_fetch_add(&t->owner, 1); }

/* --- negative: const and read-only fields ---------------------------------------------------- */
struct config {
	pthread_spinlock_t lock;
	const _Atomic int version;
	_Atomic int mode;
};
int config_mode(struct config *c) { return atomic_load(&c->mode); }
void config_touch(struct config *c) { pthread_spin_lock(&c->lock); pthread_spin_unlock(&c->lock); }

/* --- negative: already separated at the destructive size (x86_64: 64; ppc64: 128) ----------- */
struct padded {
	pthread_spinlock_t lock;
	_Alignas(64) atomic_long hits;
};
// PPC64: :[[@LINE-2]]:27: warning: 'hits' (atomic) and 'lock' (lock) of struct padded can share a 128-byte destructive-interference window on ppc64; they are written independently, so they false-share [layout-false-sharing]
// PPC64: note: the destructive interference size of ppc64 is 128 bytes
void padded_hit(struct padded *p) { atomic_fetch_add(&p->hits, 1); }
void padded_lock(struct padded *p) { pthread_spin_lock(&p->lock); }

/* --- negative: a single synchronisation object ----------------------------------------------- */
struct one {
	atomic_long refs;
	char name[32];
};

/* --- NOLINT ---------------------------------------------------------------------------------- */
struct known {
	pthread_spinlock_t lock;
	atomic_long hits; // NOLINT(layout-false-sharing): measured, the line is cold
};
void known_hit(struct known *k) { atomic_fetch_add(&k->hits, 1); }


/* --- what is a sync object: a list link is not (issue: layout findings users keep on) --------
   Linux writes list and tree links with WRITE_ONCE so that lockless readers see whole pointers,
   and publishes them with rcu_assign_pointer (implemented with smp_store_release); nobody
   contends for them, and the list_head holding them is not what WRITE_ONCE writes. A link
   exchanged by an RMW is contended, and so is any other pointer shared lock-free (a queue's
   producer and consumer each writing their own pointer). */
struct list_head { struct list_head *next, *prev; };
struct cached_entry {
	struct list_head node;
	atomic_t refs;
};
void entry_link(struct cached_entry *e, struct list_head *head) {
	WRITE_ONCE(e->node.next, head->next);
	WRITE_ONCE(head->next, &e->node);
}
void entry_get(struct cached_entry *e) { atomic_inc(&e->refs); }
#define smp_store_release(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)
#define rcu_assign_pointer(p, v) smp_store_release(&(p), (v))
struct item {
	struct item *next;
	struct item *prev;
	atomic_t refs;
};
void item_publish(struct item *prev, struct item *n) { rcu_assign_pointer(prev->next, n); }
void item_unlink(struct item *n) { smp_store_release(&n->prev, (struct item *)0); }
void item_get(struct item *it) { atomic_inc(&it->refs); }
struct mpsc_node {
	struct mpsc_node *next;
	atomic_t hits;
};
// CHECK: :[[@LINE-2]]:11: warning: 'hits' (atomic) and 'next' (atomic) of struct mpsc_node can share
// CHECK: :[[@LINE-4]]:20: note: 'next' is at offset 0
// CHECK: :[[@LINE-5]]:20: note: 'next' is a link contended for: 'mpsc_swap' passes it to '__atomic_exchange_n'
// CHECK: :[[@LINE-5]]:11: note: 'hits' is an atomic by its type 'atomic_t'
// PPC64: warning: 'hits' (atomic) and 'next' (atomic) of struct mpsc_node
// FIXED: _Alignas(64) atomic_t hits;
struct mpsc_node *mpsc_swap(struct mpsc_node *n, struct mpsc_node *v) { return __atomic_exchange_n(&n->next, v, __ATOMIC_ACQ_REL); }
void mpsc_hit(struct mpsc_node *n) { atomic_inc(&n->hits); }
struct defer_queue {
	void (*last_fct_in)(void *);
	void (*last_fct_out)(void *);
};
// CHECK: :[[@LINE-2]]:9: warning: 'last_fct_out' (atomic) and 'last_fct_in' (atomic) of struct defer_queue can share
// CHECK: :[[@LINE-3]]:9: note: 'last_fct_out' is shared lock-free: 'defer_dequeue' passes it to 'WRITE_ONCE'
// PPC64: warning: 'last_fct_out' (atomic) and 'last_fct_in' (atomic) of struct defer_queue
// FIXED: _Alignas(64) void (*last_fct_out)(void *);
void defer_enqueue(struct defer_queue *q, void (*fct)(void *)) { WRITE_ONCE(q->last_fct_in, fct); }
void defer_dequeue(struct defer_queue *q, void (*fct)(void *)) { WRITE_ONCE(q->last_fct_out, fct); }

/* --- each pair once: at the record that declares both, not again in each record embedding it;
   a member beside the embedded object is one new pair, not one per part of it ---------------- */
struct lock_pair {
	spinlock_t first;
	spinlock_t second;
};
// CHECK: :[[@LINE-2]]:13: warning: 'second' (lock) and 'first' (lock) of struct lock_pair can share
// CHECK: :[[@LINE-4]]:13: note: 'first' is a lock by its type 'spinlock_t'
// PPC64: warning: 'second' (lock) and 'first' (lock) of struct lock_pair
// FIXED: _Alignas(64) spinlock_t second;
struct embeds_one { struct lock_pair pair; };
struct embeds_two { long plain; struct lock_pair pair; };
struct embeds_beside {
	spinlock_t own;
	struct lock_pair pair;
};
// CHECK: :[[@LINE-13]]:13: warning: 'pair.first' (lock) and 'own' (lock) of struct embeds_beside can share
// CHECK: :[[@LINE-4]]:13: note: 'own' is at offset 0 (4 bytes); 'pair.first' is at offset 4, 4 bytes after its start
// PPC64: warning: 'pair.first' (lock) and 'own' (lock) of struct embeds_beside
void pair_first(struct lock_pair *p) { spin_lock(&p->first); }
void pair_second(struct lock_pair *p) { spin_lock(&p->second); }
void beside_own(struct embeds_beside *e) { spin_lock(&e->own); }

/* An API macro written in another's arguments is the code's own use: READ_ONCE(n->last) inside
   WRITE_ONCE makes 'last' shared. */
struct nested_once {
	unsigned long last;
	atomic_t gen;
};
// CHECK: :[[@LINE-2]]:11: warning: 'gen' (atomic) and 'last' (atomic) of struct nested_once can share
// CHECK: :[[@LINE-4]]:16: note: 'last' is shared lock-free: 'nested_copy' passes it to 'READ_ONCE'
// PPC64: warning: 'gen' (atomic) and 'last' (atomic) of struct nested_once
// FIXED: _Alignas(64) atomic_t gen;
void nested_copy(struct nested_once *n, unsigned long *out) { WRITE_ONCE(*out, READ_ONCE(n->last)); }
void nested_set(struct nested_once *n, unsigned long v) { n->last = v; }
void nested_bump(struct nested_once *n) { atomic_inc(&n->gen); }

/* --- write frequency and ownership ----------------------------------------------------------- */

/* A statistics summer reads both but writes neither: the counters' writers still contend, and
   the note says why the reader did not count. */
struct hit_stats {
	atomic_long hits;
	atomic_long misses;
};
// CHECK: :[[@LINE-2]]:14: warning: 'misses' (atomic) and 'hits' (atomic) of struct hit_stats can share
// CHECK: :[[@LINE-3]]:14: note: no function writes both: 'misses' by 'stat_miss'; 'hits' by 'stat_hit'; 'stat_sum' only reads both, which does not make them one object
// PPC64: warning: 'misses' (atomic) and 'hits' (atomic) of struct hit_stats
// FIXED: _Alignas(64) atomic_long misses;
void stat_hit(struct hit_stats *s) { atomic_fetch_add(&s->hits, 1); }
void stat_miss(struct hit_stats *s) { atomic_fetch_add(&s->misses, 1); }
long stat_sum(struct hit_stats *s) { return atomic_load(&s->hits) + atomic_load(&s->misses); }

/* Set once: 'limit' is written only by an initialiser and a static helper only it calls; 'epoch'
   only at registration. Cold fields do not false-share. */
struct conf_once {
	atomic_long gen;
	atomic_long limit;
	atomic_long epoch;
};
static void conf_set_limit(struct conf_once *c, long v) { atomic_store(&c->limit, v); }
void conf_init(struct conf_once *c) { conf_set_limit(c, 100); }
void conf_register(struct conf_once *c) { atomic_store(&c->epoch, 1); }
void conf_bump(struct conf_once *c) { atomic_fetch_add(&c->gen, 1); }
long conf_read(struct conf_once *c) { return atomic_load(&c->limit) + atomic_load(&c->epoch); }

/* Written before publication: the function that allocated the job sets its id before handing
   it on; only 'state' is written while the job is shared. */
struct job {
	atomic_int state;
	atomic_long id;
};
struct job *job_new(long id) {
	struct job *j = malloc(sizeof *j);
	if (!j)
		return NULL;
	atomic_store(&j->id, id);
	return j;
}
void job_run(struct job *j) { atomic_store(&j->state, 1); }

/* Once handed on (publish(p)), the object is shared: a later write is hot. */
struct published {
	atomic_int a;
	atomic_int b;
};
// CHECK: :[[@LINE-2]]:13: warning: 'b' (atomic) and 'a' (atomic) of struct published can share
// CHECK: :[[@LINE-3]]:13: note: no function writes both: 'b' by 'published_new'; 'a' by 'published_a'
// PPC64: warning: 'b' (atomic) and 'a' (atomic) of struct published
// FIXED: _Alignas(64) atomic_int b;
void publish(struct published *p);
void published_new(void) {
	struct published *p = malloc(sizeof *p);
	atomic_store(&p->a, 0);
	publish(p);
	atomic_store(&p->b, 1);
}
void published_a(struct published *p) { atomic_store(&p->a, 2); }

/* A member handed to an initialiser (init_waitqueue_head(&pipe->rd_wait)) is set up, not
   published: the object stays the allocating function's, and its later writes are cold... */
struct waitq { spinlock_t lock; };
void init_waitq(struct waitq *q);
struct pool {
	struct waitq rd_wait;
	long pad[8];
	atomic_long max_usage;
	atomic_long readers;
};
struct pool *pool_alloc(void) {
	struct pool *p = malloc(sizeof *p);
	init_waitq(&p->rd_wait);
	atomic_store(&p->max_usage, 16);
	return p;
}
void pool_open(struct pool *p) { atomic_fetch_add(&p->readers, 1); }
/* ... but a member handed to any other function may publish the object. */
struct listed_pool {
	struct waitq rd_wait;
	long pad[8];
	atomic_long max_usage;
	atomic_long readers;
};
// CHECK: :[[@LINE-2]]:14: warning: 'readers' (atomic) and 'max_usage' (atomic) of struct listed_pool can share
// CHECK: :[[@LINE-3]]:14: note: no function writes both: 'readers' by 'listed_open'; 'max_usage' by 'listed_alloc'
// PPC64: warning: 'readers' (atomic) and 'max_usage' (atomic) of struct listed_pool
// FIXED: _Alignas(64) atomic_long readers;
void pools_add(struct waitq *q);
struct listed_pool *listed_alloc(void) {
	struct listed_pool *p = malloc(sizeof *p);
	pools_add(&p->rd_wait);
	atomic_store(&p->max_usage, 16);
	return p;
}
void listed_open(struct listed_pool *p) { atomic_fetch_add(&p->readers, 1); }

/* --- the guarding lock: fields written only under one lock take turns, whoever writes them --- */
struct guarded_pair {
	spinlock_t lock;
	long pad[8];
	unsigned long seq_a;
	unsigned long seq_b;
};
void guarded_a(struct guarded_pair *g) { spin_lock(&g->lock); WRITE_ONCE(g->seq_a, 1); spin_unlock(&g->lock); }
/* An unlock on an early exit does not end the section the code after it runs in. */
void guarded_b(struct guarded_pair *g, int fail) {
	spin_lock(&g->lock);
	if (fail) {
		spin_unlock(&g->lock);
		return;
	}
	WRITE_ONCE(g->seq_b, READ_ONCE(g->seq_b) + 1);
	spin_unlock(&g->lock);
}
/* A static helper every caller calls under the lock runs under it. */
static void bump_b_locked(struct guarded_pair *g) { WRITE_ONCE(g->seq_b, 2); }
void guarded_b_again(struct guarded_pair *g) { spin_lock(&g->lock); bump_b_locked(g); spin_unlock(&g->lock); }

/* A lock wrapper (a function that returns holding the lock, and its partner) takes the lock
   for the code after its call. */
struct wrapped {
	spinlock_t lock;
	long pad[8];
	unsigned long head;
	unsigned long tail;
};
static inline void wrapped_lock(struct wrapped *w) { spin_lock(&w->lock); }
static inline void wrapped_unlock(struct wrapped *w) { spin_unlock(&w->lock); }
void wrapped_write(struct wrapped *w) { wrapped_lock(w); WRITE_ONCE(w->head, 1); wrapped_unlock(w); }
void wrapped_read(struct wrapped *w) { wrapped_lock(w); WRITE_ONCE(w->tail, 1); wrapped_unlock(w); }
void wrapped_after(struct wrapped *w) { wrapped_lock(w); wrapped_unlock(w); READ_ONCE(w->tail); }

/* A wrapper of the lock it is handed (liburcu's mutex_lock around pthread_mutex_lock) takes that
   lock for the code after its call. */
static void checked_lock(spinlock_t *l) { spin_lock(l); }
static void checked_unlock(spinlock_t *l) { spin_unlock(l); }
spinlock_t gp_lock, other_gp_lock;
struct gp_words {
	unsigned long ctr;
	unsigned long futex;
	unsigned long other;
};
struct gp_words gp_words;
void gp_flip(void) { checked_lock(&gp_lock); WRITE_ONCE(gp_words.ctr, 1); checked_unlock(&gp_lock); }
void gp_wait(void) { checked_lock(&gp_lock); WRITE_ONCE(gp_words.futex, 1); checked_unlock(&gp_lock); }
void gp_other(void) { checked_lock(&other_gp_lock); WRITE_ONCE(gp_words.other, 1); checked_unlock(&other_gp_lock); }
// CHECK: :[[@LINE-6]]:16: warning: 'other' (atomic) and 'futex' (atomic) of struct gp_words can share
// PPC64: warning: 'other' (atomic) and 'futex' (atomic) of struct gp_words
// FIXED: _Alignas(64) unsigned long other;
/* A function that takes its argument's lock and releases it through another wrapper is no
   wrapper: what follows its call runs unlocked. */
static void locked_noop(spinlock_t *l) { checked_lock(l); checked_unlock(l); }
struct gp_pair {
	unsigned long a;
	unsigned long b;
};
struct gp_pair gp_pair;
void gp_pair_a(void) { locked_noop(&gp_lock); WRITE_ONCE(gp_pair.a, 1); }
void gp_pair_b(void) { locked_noop(&gp_lock); WRITE_ONCE(gp_pair.b, 1); }
// CHECK: :[[@LINE-5]]:16: warning: 'b' (atomic) and 'a' (atomic) of struct gp_pair can share
// PPC64: warning: 'b' (atomic) and 'a' (atomic) of struct gp_pair
// FIXED: _Alignas(64) unsigned long b;

/* A function that asserts the lock is held (lockdep_assert_held) runs under it. */
#define lockdep_assert_held(l) do { (void)(l); } while (0)
struct asserted {
	spinlock_t lock;
	long pad[8];
	unsigned long head;
	unsigned long tail;
};
void asserted_head(struct asserted *a) { spin_lock(&a->lock); WRITE_ONCE(a->head, 1); spin_unlock(&a->lock); }
void asserted_tail(struct asserted *a) {
	lockdep_assert_held(&a->lock);
	WRITE_ONCE(a->tail, 1);
}

/* A lock reached through another type (the kernel's ACCESS_PRIVATE around an rcu_node's lock:
   `*(T *)&p->lock`) is the same lock. */
#define ACCESS_PRIVATE(p, member) (*((__typeof__((p)->member) *)&(p)->member))
struct private_locked {
	spinlock_t lock;
	long pad[8];
	unsigned long qsmask;
	unsigned long gp_seq_needed;
};
void pl_report(struct private_locked *p) { spin_lock(&ACCESS_PRIVATE(p, lock)); WRITE_ONCE(p->qsmask, 0); spin_unlock(&ACCESS_PRIVATE(p, lock)); }
void pl_start(struct private_locked *p) { spin_lock(&ACCESS_PRIVATE(p, lock)); WRITE_ONCE(p->gp_seq_needed, 1); spin_unlock(&ACCESS_PRIVATE(p, lock)); }

/* One writer outside the lock: the writers no longer take turns. */
struct half_guarded {
	spinlock_t lock;
	long pad[8];
	unsigned long seq_a;
	unsigned long seq_b;
};
// CHECK: :[[@LINE-2]]:16: warning: 'seq_b' (atomic) and 'seq_a' (atomic) of struct half_guarded can share
// PPC64: warning: 'seq_b' (atomic) and 'seq_a' (atomic) of struct half_guarded
// FIXED: _Alignas(64) unsigned long seq_b;
void half_a(struct half_guarded *g) { spin_lock(&g->lock); WRITE_ONCE(g->seq_a, 1); spin_unlock(&g->lock); }
void half_b(struct half_guarded *g) {
	spin_lock(&g->lock);
	spin_unlock(&g->lock);
	WRITE_ONCE(g->seq_b, 1); /* after the unlock */
}

/* The socket lock (kernel spec: `member: sk_lock`): lock_sock(sk) makes the caller the owner
   of sk->sk_lock, a lock of a member the call names by its argument. Fields only the owner
   writes take turns; the backlog, written under sk_lock.slock alone while a process owns the
   socket, does not. */
typedef struct { spinlock_t slock; int owned; } socket_lock_t;
struct sock {
	socket_lock_t sk_lock;
	long pad[8];
	unsigned long sk_backlog_tail;
	int sk_forward_alloc;
	int sk_sndbuf;
};
// CHECK: :[[@LINE-3]]:6: warning: 'sk_forward_alloc' (atomic) and 'sk_backlog_tail' (atomic) of struct sock can share
// CHECK: :[[@LINE-3]]:6: warning: 'sk_sndbuf' (atomic) and 'sk_backlog_tail' (atomic) of struct sock can share
// PPC64: warning: 'sk_forward_alloc' (atomic) and 'sk_backlog_tail' (atomic) of struct sock
// PPC64: warning: 'sk_sndbuf' (atomic) and 'sk_backlog_tail' (atomic) of struct sock
// FIXED: _Alignas(64) int sk_forward_alloc;
void lock_sock(struct sock *sk);
void release_sock(struct sock *sk);
void sock_owned_by_me(const struct sock *sk);
void sk_mem_charge(struct sock *sk, int n) {
	lock_sock(sk);
	WRITE_ONCE(sk->sk_forward_alloc, sk->sk_forward_alloc - n);
	release_sock(sk);
}
void sk_stream_moderate_sndbuf(struct sock *sk) {
	sock_owned_by_me(sk);
	WRITE_ONCE(sk->sk_sndbuf, sk->sk_sndbuf / 2);
}
void sk_add_backlog(struct sock *sk, unsigned long skb) {
	spin_lock(&sk->sk_lock.slock);
	WRITE_ONCE(sk->sk_backlog_tail, skb);
	spin_unlock(&sk->sk_lock.slock);
}
unsigned long sk_reader(struct sock *sk) { return READ_ONCE(sk->sk_backlog_tail) + READ_ONCE(sk->sk_sndbuf); }

/* --- per CPU: each CPU writes its own copy (DEFINE_PER_CPU's section, from the kernel spec) --- */
struct cpu_stats {
	unsigned long hits;
	unsigned long misses;
};
__attribute__((section(".data..percpu"))) struct cpu_stats cpu_stats;
void cpu_hit(struct cpu_stats *s) { WRITE_ONCE(s->hits, s->hits + 1); }
void cpu_miss(struct cpu_stats *s) { WRITE_ONCE(s->misses, s->misses + 1); }
/* A record only ever inside per-CPU records is per CPU too (rcu_segcblist inside rcu_data). */
struct cpu_list {
	unsigned long len;
	unsigned long seq;
};
struct cpu_data {
	struct cpu_list list;
	long other;
};
__attribute__((section(".data..percpu"))) struct cpu_data cpu_data;
void cl_len(struct cpu_list *l) { WRITE_ONCE(l->len, 1); }
void cl_seq(struct cpu_list *l) { WRITE_ONCE(l->seq, 1); }
/* ... but not one that a shared record also holds. */
struct any_list {
	unsigned long len;
	unsigned long seq;
};
// CHECK: :[[@LINE-2]]:16: warning: 'seq' (atomic) and 'len' (atomic) of struct any_list can share
// PPC64: warning: 'seq' (atomic) and 'len' (atomic) of struct any_list
// FIXED: _Alignas(64) unsigned long seq;
struct cpu_data2 { struct any_list list; };
struct shared_data { struct any_list list; };
__attribute__((section(".data..percpu"))) struct cpu_data2 cpu_data2;
struct shared_data shared_data;
void al_len(struct any_list *l) { WRITE_ONCE(l->len, 1); }
void al_seq(struct any_list *l) { WRITE_ONCE(l->seq, 1); }

/* A thread-local record (liburcu's DEFINE_URCU_TLS reader): each thread writes its own copy. */
struct tls_reader {
	unsigned long ctr;
	unsigned long need_mb;
};
__thread struct tls_reader tls_reader;
void tr_lock(void) { WRITE_ONCE(tls_reader.ctr, tls_reader.ctr + 1); }
void tr_mb(struct tls_reader *r) { WRITE_ONCE(r->need_mb, 1); }
/* ... but not a record with a shared global beside its thread-local copies (a per-thread cache
   of a shared table). */
struct tls_cached {
	unsigned long hits;
	unsigned long misses;
};
// CHECK: :[[@LINE-2]]:16: warning: 'misses' (atomic) and 'hits' (atomic) of struct tls_cached can share
// PPC64: warning: 'misses' (atomic) and 'hits' (atomic) of struct tls_cached
// FIXED: _Alignas(64) unsigned long misses;
__thread struct tls_cached tls_cache;
struct tls_cached shared_cache;
void tc_hit(struct tls_cached *c) { WRITE_ONCE(c->hits, c->hits + 1); }
void tc_miss(struct tls_cached *c) { WRITE_ONCE(c->misses, c->misses + 1); }

/* alloc_percpu(type) passes sizeof(type) to __alloc_percpu. */
struct cpu_queue {
	unsigned long head;
	unsigned long tail;
};
void *__alloc_percpu(unsigned long size, unsigned long align);
struct cpu_queue *cpu_queues(void) { return __alloc_percpu(sizeof(struct cpu_queue), 8); }
void cq_push(struct cpu_queue *q) { WRITE_ONCE(q->tail, q->tail + 1); }
void cq_pop(struct cpu_queue *q) { WRITE_ONCE(q->head, q->head + 1); }

/* --- a configuration entry point (a setsockopt handler, named in the kernel spec) is cold ---- */
struct endpoint {
	unsigned long rcvbuf;
	unsigned long queued;
};
void ep_setsockopt(struct endpoint *e, unsigned long v) { WRITE_ONCE(e->rcvbuf, v); }
void ep_enqueue(struct endpoint *e) { WRITE_ONCE(e->queued, e->queued + 1); }
/* The same pair written on the data path by both sides is reported. */
struct endpoint_hot {
	unsigned long rcvbuf;
	unsigned long queued;
};
// CHECK: :[[@LINE-2]]:16: warning: 'queued' (atomic) and 'rcvbuf' (atomic) of struct endpoint_hot can share
// PPC64: warning: 'queued' (atomic) and 'rcvbuf' (atomic) of struct endpoint_hot
// FIXED: _Alignas(64) unsigned long queued;
void eph_grow(struct endpoint_hot *e, unsigned long v) { WRITE_ONCE(e->rcvbuf, v); }
void eph_enqueue(struct endpoint_hot *e) { WRITE_ONCE(e->queued, e->queued + 1); }

/* --- initialisers by name (`*_init_*`) and clones write objects nobody else reaches yet ----- */
struct sockish {
	unsigned long rcvlowat;
	unsigned long priority;
	unsigned long queued;
};
void sockish_init_data(struct sockish *s) { WRITE_ONCE(s->rcvlowat, 1); }
struct sockish *sockish_clone_lock(struct sockish *s) { WRITE_ONCE(s->priority, 0); return s; }
void sockish_enqueue(struct sockish *s) { WRITE_ONCE(s->queued, s->queued + 1); }

/* --- rare branches: a write the code says it does not expect (unlikely(), the else of likely(),
   WARN_ON's statement expression, a function marked cold) is cold ------------------------------ */
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define WARN_ON(c) ({ int __ret = !!(c); unlikely(__ret); })
struct rx_queue {
	unsigned long packets;
	unsigned long drops;
	unsigned long errors;
	unsigned long overruns;
	unsigned long resets;
};
void rx_packet(struct rx_queue *q, int bad) {
	if (unlikely(bad)) {
		WRITE_ONCE(q->drops, q->drops + 1);
		return;
	}
	WRITE_ONCE(q->packets, q->packets + 1);
}
void rx_check(struct rx_queue *q, int ok) {
	if (likely(ok))
		return;
	else
		WRITE_ONCE(q->errors, q->errors + 1);
}
void rx_overrun(struct rx_queue *q, int full) {
	if (WARN_ON(full))
		WRITE_ONCE(q->overruns, q->overruns + 1);
}
__attribute__((cold)) void rx_reset(struct rx_queue *q) { WRITE_ONCE(q->resets, 0); }
/* ... but a function that also writes it on a common path keeps it hot. */
struct tx_queue {
	unsigned long packets;
	unsigned long drops;
};
// CHECK: :[[@LINE-2]]:16: warning: 'drops' (atomic) and 'packets' (atomic) of struct tx_queue can share
// CHECK: note: no function writes both: 'drops' by 'tx_drop'; 'packets' by 'tx_packet'
// PPC64: warning: 'drops' (atomic) and 'packets' (atomic) of struct tx_queue
// FIXED: _Alignas(64) unsigned long drops;
void tx_packet(struct tx_queue *q) { WRITE_ONCE(q->packets, q->packets + 1); }
void tx_drop(struct tx_queue *q, int why) {
	if (unlikely(why))
		WRITE_ONCE(q->drops, q->drops + 2);
	WRITE_ONCE(q->drops, q->drops + 1);
}
/* The note says which writes did not count, and why. */
struct err_stats {
	unsigned long hits;
	unsigned long misses;
};
// CHECK: :[[@LINE-2]]:16: warning: 'misses' (atomic) and 'hits' (atomic) of struct err_stats can share
// CHECK: note: no function writes both: 'misses' by 'es_miss'; 'hits' by 'es_hit'; writes at init, teardown, configuration or before publication do not count ('es_check' writes it only on a branch the code marks unexpected)
// PPC64: warning: 'misses' (atomic) and 'hits' (atomic) of struct err_stats
// FIXED: _Alignas(64) unsigned long misses;
void es_hit(struct err_stats *s) { WRITE_ONCE(s->hits, s->hits + 1); }
void es_check(struct err_stats *s, int corrupt) {
	if (unlikely(corrupt)) {
		WRITE_ONCE(s->hits, 0);
		WRITE_ONCE(s->misses, 0);
	}
}
void es_miss(struct err_stats *s) { WRITE_ONCE(s->misses, s->misses + 1); }

/* --- set once: a word only ever set by a compare-and-swap from NULL is written once ------- */
#define cmpxchg(p, o, n) __sync_val_compare_and_swap(p, o, n)
struct lazy {
	void *ctx;
	unsigned long hits;
};
void lazy_ctx(struct lazy *l, void *c) { cmpxchg(&l->ctx, NULL, c); }
void lazy_hit(struct lazy *l) { WRITE_ONCE(l->hits, l->hits + 1); }
/* ... but one a hot path resets is written again and again. */
struct lazy_reset {
	void *ctx;
	unsigned long hits;
};
// CHECK: :[[@LINE-2]]:16: warning: 'hits' (atomic) and 'ctx' (atomic) of struct lazy_reset can share
// PPC64: warning: 'hits' (atomic) and 'ctx' (atomic) of struct lazy_reset
// FIXED: _Alignas(64) unsigned long hits;
void lr_ctx(struct lazy_reset *l, void *c) { cmpxchg(&l->ctx, NULL, c); }
void lr_drop(struct lazy_reset *l) { WRITE_ONCE(l->ctx, NULL); }
void lr_hit(struct lazy_reset *l) { WRITE_ONCE(l->hits, l->hits + 1); }
