/* Lock kinds in C: lockwright's generated locks for the host, Concurrency Kit,
 * pthread spinlocks, libatomic_ops and the instruction floor. */
#include "lock_kinds.h"

#include "lw_spinlock.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#ifdef BENCH_HAVE_CK
#include <ck_rwlock.h>
#include <ck_spinlock.h>
#endif
#ifdef BENCH_HAVE_ATOMIC_OPS
#include <atomic_ops.h>
#endif

_Static_assert(sizeof(lw_mcs_lock_t) <= BENCH_LOCK_BYTES, "lock storage");
_Static_assert(sizeof(pthread_spinlock_t) <= BENCH_LOCK_BYTES, "lock storage");

/* One kind: init and a loop of n lock/increment/unlock, the lock calls inline. */
#define BENCH_KIND(NAME, TYPE, INIT, ACQUIRE, RELEASE)                                          \
	static void bench_##NAME##_init(void *p) { INIT((TYPE *)p); }                                   \
	static void bench_##NAME##_run(void *p, volatile unsigned long *counter, unsigned long n)      \
	{                                                                                      \
		TYPE *l = (TYPE *)p;                                                           \
		for (unsigned long i = 0; i < n; i++) {                                        \
			ACQUIRE;                                                               \
			*counter = *counter + 1;                                               \
			RELEASE;                                                               \
		}                                                                              \
	}

BENCH_KIND(lw_tas, lw_tas_lock_t, lw_tas_init, lw_tas_lock(l), lw_tas_unlock(l))
BENCH_KIND(lw_ticket, lw_ticket_lock_t, lw_ticket_init, lw_ticket_lock(l), lw_ticket_unlock(l))
BENCH_KIND(lw_mcs, lw_mcs_lock_t, lw_mcs_init, lw_mcs_node_t node; lw_mcs_lock(l, &node), lw_mcs_unlock(l, &node))
BENCH_KIND(lw_rwlock, lw_rwlock_t, lw_rwlock_init, lw_write_lock(l), lw_write_unlock(l))
BENCH_KIND(lw_spin, lw_spinlock_t, lw_spin_init, lw_spin_lock(l), lw_spin_unlock(l))

/* CLH nodes change hands (an unlock takes the predecessor's), so they live on the heap, a
 * line each, for both CLH kinds alike: the lock's own node from init to destroy, and each
 * thread's current node from its first acquisition to its exit (a thread-specific key frees
 * it), so a batch pays no allocation. */
static pthread_key_t clh_node_key;
static pthread_once_t clh_node_key_once = PTHREAD_ONCE_INIT;
static void clh_node_key_create(void) { pthread_key_create(&clh_node_key, free); }
static void *clh_node_alloc(void)
{
	void *node = aligned_alloc(64, 64);
	if (!node)
		abort();
	memset(node, 0, 64);
	return node;
}
static void *clh_thread_node(void)
{
	pthread_once(&clh_node_key_once, clh_node_key_create);
	void *node = pthread_getspecific(clh_node_key);
	if (!node) {
		node = clh_node_alloc();
		pthread_setspecific(clh_node_key, node);
	}
	return node;
}
static void clh_thread_node_set(void *node) { pthread_setspecific(clh_node_key, node); }

_Static_assert(sizeof(lw_clh_node_t) <= 64, "a CLH node fits the line the bench gives it");
static void bench_lw_clh_init(void *p) { lw_clh_init((lw_clh_lock_t *)p, (lw_clh_node_t *)clh_node_alloc()); }
static void bench_lw_clh_destroy(void *p) { free(((lw_clh_lock_t *)p)->tail); }
static void bench_lw_clh_run(void *p, volatile unsigned long *counter, unsigned long n)
{
	lw_clh_lock_t *l = (lw_clh_lock_t *)p;
	lw_clh_node_t *node = (lw_clh_node_t *)clh_thread_node();
	for (unsigned long i = 0; i < n; i++) {
		lw_clh_lock(l, node);
		*counter = *counter + 1;
		lw_clh_unlock(&node);
	}
	clh_thread_node_set(node);
}

static void pthread_spin_init_private(pthread_spinlock_t *l) { pthread_spin_init(l, PTHREAD_PROCESS_PRIVATE); }
BENCH_KIND(pthread_spin, pthread_spinlock_t, pthread_spin_init_private, pthread_spin_lock(l), pthread_spin_unlock(l))
static void pthread_spin_destroy_any(void *p) { pthread_spin_destroy((pthread_spinlock_t *)p); }

static void pthread_mutex_init_default(pthread_mutex_t *l) { pthread_mutex_init(l, NULL); }
BENCH_KIND(pthread_mutex, pthread_mutex_t, pthread_mutex_init_default, pthread_mutex_lock(l), pthread_mutex_unlock(l))
static void pthread_mutex_destroy_any(void *p) { pthread_mutex_destroy((pthread_mutex_t *)p); }

static void pthread_rwlock_init_default(pthread_rwlock_t *l) { pthread_rwlock_init(l, NULL); }
BENCH_KIND(pthread_rwlock, pthread_rwlock_t, pthread_rwlock_init_default, pthread_rwlock_wrlock(l), pthread_rwlock_unlock(l))
static void pthread_rwlock_destroy_any(void *p) { pthread_rwlock_destroy((pthread_rwlock_t *)p); }

#ifdef BENCH_HAVE_CK
static void ck_fas_init(ck_spinlock_fas_t *l) { ck_spinlock_fas_init(l); }
static void ck_ticket_init(ck_spinlock_ticket_t *l) { ck_spinlock_ticket_init(l); }
static void ck_mcs_init(ck_spinlock_mcs_t *l) { ck_spinlock_mcs_init(l); }
BENCH_KIND(ck_fas, ck_spinlock_fas_t, ck_fas_init, ck_spinlock_fas_lock(l), ck_spinlock_fas_unlock(l))
BENCH_KIND(ck_ticket, ck_spinlock_ticket_t, ck_ticket_init, ck_spinlock_ticket_lock(l), ck_spinlock_ticket_unlock(l))
BENCH_KIND(ck_mcs, ck_spinlock_mcs_t, ck_mcs_init, struct ck_spinlock_mcs node; ck_spinlock_mcs_lock(l, &node),
	   ck_spinlock_mcs_unlock(l, &node))
static void ck_rwlock_init_any(ck_rwlock_t *l) { ck_rwlock_init(l); }

/* The lock is ck's queue pointer; nodes as for lw_clh above. */
_Static_assert(sizeof(ck_spinlock_clh_t) <= 64, "a CLH node fits the line the bench gives it");
static void bench_ck_clh_init(void *p) { ck_spinlock_clh_init((ck_spinlock_clh_t **)p, (ck_spinlock_clh_t *)clh_node_alloc()); }
static void bench_ck_clh_destroy(void *p) { free(*(ck_spinlock_clh_t **)p); }
static void bench_ck_clh_run(void *p, volatile unsigned long *counter, unsigned long n)
{
	ck_spinlock_clh_t **l = (ck_spinlock_clh_t **)p;
	ck_spinlock_clh_t *node = (ck_spinlock_clh_t *)clh_thread_node();
	for (unsigned long i = 0; i < n; i++) {
		ck_spinlock_clh_lock(l, node);
		*counter = *counter + 1;
		ck_spinlock_clh_unlock(&node);
	}
	clh_thread_node_set(node);
}
BENCH_KIND(ck_rwlock, ck_rwlock_t, ck_rwlock_init_any, ck_rwlock_write_lock(l), ck_rwlock_write_unlock(l))
#endif

#ifdef BENCH_HAVE_ATOMIC_OPS
/* The test-and-set spin of the seed's AO experiments: AO_test_and_set_acquire until clear. */
static void ao_tas_init(volatile AO_TS_t *l) { *l = AO_TS_INITIALIZER; }
BENCH_KIND(ao_tas, volatile AO_TS_t, ao_tas_init, while (AO_test_and_set_acquire(l) == AO_TS_SET) {}, AO_CLEAR(l))
#endif

/* The floor: one bare read-modify-write and one store, no test, no wait. Not a
 * lock under contention; it prices what any lock must at least do. */
static void floor_init(volatile unsigned *l) { *l = 0; }
BENCH_KIND(floor_xchg, volatile unsigned, floor_init, (void)__atomic_exchange_n(l, 1u, __ATOMIC_ACQUIRE),
	   __atomic_store_n(l, 0u, __ATOMIC_RELEASE))

const struct lock_kind bench_c_kinds[] = {
	{"lw_tas", "lockwright", "lockwright test-and-test-and-set", bench_lw_tas_init, NULL, bench_lw_tas_run},
	{"lw_ticket", "lockwright", "lockwright ticket", bench_lw_ticket_init, NULL, bench_lw_ticket_run},
	{"lw_mcs", "lockwright", "lockwright MCS (node on the stack)", bench_lw_mcs_init, NULL, bench_lw_mcs_run},
	{"lw_clh", "lockwright", "lockwright CLH (heap nodes, passed along)", bench_lw_clh_init, bench_lw_clh_destroy,
	 bench_lw_clh_run},
	{"lw_rwlock", "lockwright", "lockwright rwlock, write side", bench_lw_rwlock_init, NULL, bench_lw_rwlock_run},
	{"lw_spin", "lockwright", "lockwright default spinlock of the host spec", bench_lw_spin_init, NULL, bench_lw_spin_run},
#ifdef BENCH_HAVE_CK
	{"ck_fas", "peer", "Concurrency Kit fetch-and-store spinlock", bench_ck_fas_init, NULL, bench_ck_fas_run},
	{"ck_ticket", "peer", "Concurrency Kit ticket spinlock", bench_ck_ticket_init, NULL, bench_ck_ticket_run},
	{"ck_mcs", "peer", "Concurrency Kit MCS (node on the stack)", bench_ck_mcs_init, NULL, bench_ck_mcs_run},
	{"ck_clh", "peer", "Concurrency Kit CLH (heap nodes, passed along)", bench_ck_clh_init, bench_ck_clh_destroy,
	 bench_ck_clh_run},
	{"ck_rwlock", "peer", "Concurrency Kit rwlock, write side", bench_ck_rwlock_init, NULL, bench_ck_rwlock_run},
#endif
	{"pthread_spin", "peer", "glibc pthread_spin_lock", bench_pthread_spin_init, pthread_spin_destroy_any, bench_pthread_spin_run},
	{"pthread_mutex", "peer", "glibc pthread_mutex_lock (default type)", bench_pthread_mutex_init, pthread_mutex_destroy_any,
	 bench_pthread_mutex_run},
	{"pthread_rwlock", "peer", "glibc pthread_rwlock_wrlock (default attributes), write side", bench_pthread_rwlock_init,
	 pthread_rwlock_destroy_any, bench_pthread_rwlock_run},
#ifdef BENCH_HAVE_ATOMIC_OPS
	{"ao_tas", "peer", "libatomic_ops AO_test_and_set_acquire spin", bench_ao_tas_init, NULL, bench_ao_tas_run},
#endif
	{"floor_xchg", "floor", "one bare exchange and one store (no lock)", bench_floor_xchg_init, NULL, bench_floor_xchg_run},
};
const size_t bench_c_kind_count = sizeof(bench_c_kinds) / sizeof(bench_c_kinds[0]);
