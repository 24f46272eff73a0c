/* Multi-threaded stress of the generated locks, run under qemu-user per
 * architecture (natively on the host). Every result is exact:
 *
 *  <algo>-count    THREADS threads take the lock ITERS times each and bump a
 *                  plain counter; a second plain counter checks that no two
 *                  threads are ever inside at once (tas, ticket, mcs, clh, spinlock, rwlock as
 *                  writer); clh also accounts for every node after the run
 *  <algo>-trylock  while one thread holds the lock, another's trylock must fail every time
 *  rwlock-mixed    readers and writers: a writer never sees a reader or another writer inside
 *  lockhash        8 threads bump 16 counters, each under the lock the table hashes it to
 *  counter         the counter reads back exactly the sum of every add
 *
 * Built with -DSTRESS_ASM the tas/ticket runs use the out-of-line .S routines. */
#include "stress_runtime.h"

/* The tests run more spinning threads than the machine (or emulator) has CPUs:
 * let waiters yield now and then, through the generated headers' hook. */
#define LW_SPIN_YIELD() stress_yield()

#include "lw_counter.h"
#include "lw_lockhash.h"
#include "lw_spinlock.h"

#ifdef STRESS_ASM
#include "lw_spinlock_asm.h"
#endif

#define THREADS 4
#define HASH_THREADS 8
#define HASH_COUNTERS 16

static unsigned long iterations = 200000;

/* ---- mutual exclusion and exact count --------------------------------------- */

struct shared {
	unsigned long count;   /* plain: only the lock protects it */
	unsigned long inside;  /* plain: 1 while a holder is inside */
	unsigned long overlaps;
};

/* yield_after_unlock: the .S routines spin without the yield hook, so their
 * workers give the CPU away between critical sections instead; without that a
 * FIFO lock handed to a preempted waiter stalls for a scheduler tick. */
#define DEFINE_COUNT_TEST(name, lock_type, init, lock, unlock, yield_after_unlock) \
	static lock_type name##_lock;                                            \
	static struct shared name##_shared;                                      \
	static void *name##_worker(void *arg)                                    \
	{                                                                        \
		(void)arg;                                                       \
		for (unsigned long i = 0; i < iterations; i++) {                 \
			lock(&name##_lock);                                      \
			if (name##_shared.inside++ != 0)                         \
				name##_shared.overlaps++;                        \
			name##_shared.count++;                                   \
			name##_shared.inside--;                                  \
			unlock(&name##_lock);                                    \
			if (yield_after_unlock)                                  \
				stress_yield();                                  \
		}                                                                \
		return 0;                                                        \
	}                                                                        \
	static int name##_run(void)                                              \
	{                                                                        \
		init(&name##_lock);                                              \
		stress_run_threads(THREADS, name##_worker);                      \
		stress_report(#name "-count", "count", name##_shared.count,     \
			      (unsigned long)THREADS * iterations);              \
		stress_report(#name "-count", "overlaps", name##_shared.overlaps, 0); \
		return name##_shared.count == (unsigned long)THREADS * iterations && \
		       name##_shared.overlaps == 0;                              \
	}

/* Trylock on a held lock: the holder signals, the prober tries PROBES times. */
#define PROBES 2000
#define DEFINE_TRYLOCK_TEST(name, lock_type, init, lock, trylock, unlock)          \
	static lock_type name##_tlock;                                           \
	static unsigned long name##_held, name##_done, name##_wrong;            \
	static void *name##_holder(void *arg)                                    \
	{                                                                        \
		(void)arg;                                                       \
		for (unsigned long r = 1; r <= 20; r++) {                        \
			lock(&name##_tlock);                                     \
			lw_store_release(&name##_held, r);                       \
			while (lw_load_acquire(&name##_done) != r)               \
				stress_yield();                                  \
			unlock(&name##_tlock);                                   \
		}                                                                \
		return 0;                                                        \
	}                                                                        \
	static void *name##_prober(void *arg)                                    \
	{                                                                        \
		(void)arg;                                                       \
		for (unsigned long r = 1; r <= 20; r++) {                        \
			while (lw_load_acquire(&name##_held) != r)               \
				stress_yield();                                  \
			for (int k = 0; k < PROBES; k++)                         \
				if (trylock(&name##_tlock)) {                    \
					name##_wrong++;                          \
					unlock(&name##_tlock);                   \
				}                                                \
			lw_store_release(&name##_done, r);                       \
		}                                                                \
		return 0;                                                        \
	}                                                                        \
	static int name##_trylock_run(void)                                      \
	{                                                                        \
		stress_thread t[2];                                              \
		init(&name##_tlock);                                             \
		stress_start(&t[0], name##_holder, 0);                           \
		stress_start(&t[1], name##_prober, 0);                           \
		stress_join(&t[0]);                                              \
		stress_join(&t[1]);                                              \
		/* Free again, trylock must now succeed exactly once. */        \
		int first = trylock(&name##_tlock), second = trylock(&name##_tlock); \
		if (first)                                                       \
			unlock(&name##_tlock);                                   \
		name##_wrong += !first + second;                                 \
		stress_report(#name "-trylock", "wrong trylock results", name##_wrong, 0); \
		return name##_wrong == 0;                                        \
	}

DEFINE_COUNT_TEST(tas, lw_tas_lock_t, lw_tas_init, lw_tas_lock, lw_tas_unlock, 0)
DEFINE_TRYLOCK_TEST(tas, lw_tas_lock_t, lw_tas_init, lw_tas_lock, lw_tas_trylock, lw_tas_unlock)
DEFINE_COUNT_TEST(ticket, lw_ticket_lock_t, lw_ticket_init, lw_ticket_lock, lw_ticket_unlock, 0)
DEFINE_TRYLOCK_TEST(ticket, lw_ticket_lock_t, lw_ticket_init, lw_ticket_lock, lw_ticket_trylock, lw_ticket_unlock)
DEFINE_COUNT_TEST(spinlock, lw_spinlock_t, lw_spin_init, lw_spin_lock, lw_spin_unlock, 0)
DEFINE_TRYLOCK_TEST(spinlock, lw_spinlock_t, lw_spin_init, lw_spin_lock, lw_spin_trylock, lw_spin_unlock)
DEFINE_COUNT_TEST(rwlock, lw_rwlock_t, lw_rwlock_init, lw_write_lock, lw_write_unlock, 0)
DEFINE_TRYLOCK_TEST(rwlock, lw_rwlock_t, lw_rwlock_init, lw_write_lock, lw_write_trylock, lw_write_unlock)

#ifdef STRESS_ASM
DEFINE_COUNT_TEST(tas_asm, lw_tas_lock_t, lw_tas_init, lw_asm_tas_lock, lw_asm_tas_unlock, 1)
DEFINE_TRYLOCK_TEST(tas_asm, lw_tas_lock_t, lw_tas_init, lw_asm_tas_lock, lw_asm_tas_trylock, lw_asm_tas_unlock)
DEFINE_COUNT_TEST(ticket_asm, lw_ticket_lock_t, lw_ticket_init, lw_asm_ticket_lock, lw_asm_ticket_unlock, 1)
DEFINE_TRYLOCK_TEST(ticket_asm, lw_ticket_lock_t, lw_ticket_init, lw_asm_ticket_lock, lw_asm_ticket_trylock,
		    lw_asm_ticket_unlock)
#endif

/* MCS takes a node per acquisition: the worker's own, on its stack. */
static lw_mcs_lock_t mcs_lock;
static struct shared mcs_shared;
static void *mcs_worker(void *arg)
{
	(void)arg;
	lw_mcs_node_t node;
	for (unsigned long i = 0; i < iterations; i++) {
		lw_mcs_lock(&mcs_lock, &node);
		if (mcs_shared.inside++ != 0)
			mcs_shared.overlaps++;
		mcs_shared.count++;
		mcs_shared.inside--;
		lw_mcs_unlock(&mcs_lock, &node);
	}
	return 0;
}
static int mcs_run(void)
{
	lw_mcs_init(&mcs_lock);
	stress_run_threads(THREADS, mcs_worker);
	unsigned long expected = (unsigned long)THREADS * iterations;
	stress_report("mcs-count", "count", mcs_shared.count, expected);
	stress_report("mcs-count", "overlaps", mcs_shared.overlaps, 0);
	return mcs_shared.count == expected && mcs_shared.overlaps == 0;
}

static lw_mcs_lock_t mcs_tlock;
static unsigned long mcs_held, mcs_done, mcs_wrong;
static void *mcs_holder(void *arg)
{
	(void)arg;
	lw_mcs_node_t node;
	for (unsigned long r = 1; r <= 20; r++) {
		lw_mcs_lock(&mcs_tlock, &node);
		lw_store_release(&mcs_held, r);
		while (lw_load_acquire(&mcs_done) != r)
			stress_yield();
		lw_mcs_unlock(&mcs_tlock, &node);
	}
	return 0;
}
static void *mcs_prober(void *arg)
{
	(void)arg;
	lw_mcs_node_t node;
	for (unsigned long r = 1; r <= 20; r++) {
		while (lw_load_acquire(&mcs_held) != r)
			stress_yield();
		for (int k = 0; k < PROBES; k++)
			if (lw_mcs_trylock(&mcs_tlock, &node)) {
				mcs_wrong++;
				lw_mcs_unlock(&mcs_tlock, &node);
			}
		lw_store_release(&mcs_done, r);
	}
	return 0;
}
static int mcs_trylock_run(void)
{
	stress_thread t[2];
	lw_mcs_init(&mcs_tlock);
	stress_start(&t[0], mcs_holder, 0);
	stress_start(&t[1], mcs_prober, 0);
	stress_join(&t[0]);
	stress_join(&t[1]);
	stress_report("mcs-trylock", "wrong trylock results", mcs_wrong, 0);
	return mcs_wrong == 0;
}

/* CLH: nodes change hands, so they live in static storage: one per worker and one the lock
 * starts with. Each worker ends owning some node, and the free lock the last one it got;
 * afterwards every node must be accounted for exactly once. */
static lw_clh_lock_t clh_lock;
static lw_clh_node_t clh_nodes[THREADS + 1];
static lw_clh_node_t *clh_owned[THREADS];
static struct shared clh_shared;
static void *clh_worker(void *arg)
{
	long me = (long)arg;
	lw_clh_node_t *node = &clh_nodes[me];
	for (unsigned long i = 0; i < iterations; i++) {
		lw_clh_lock(&clh_lock, node);
		if (clh_shared.inside++ != 0)
			clh_shared.overlaps++;
		clh_shared.count++;
		clh_shared.inside--;
		lw_clh_unlock(&node);
	}
	clh_owned[me] = node;
	return 0;
}
static int clh_run(void)
{
	lw_clh_init(&clh_lock, &clh_nodes[THREADS]);
	stress_run_threads(THREADS, clh_worker);
	unsigned long expected = (unsigned long)THREADS * iterations, lost = 0;
	for (int k = 0; k <= THREADS; k++) {
		unsigned long holders = clh_lock.tail == &clh_nodes[k];
		for (int t = 0; t < THREADS; t++)
			holders += clh_owned[t] == &clh_nodes[k];
		lost += holders != 1;
	}
	lost += lw_clh_is_locked(&clh_lock);
	stress_report("clh-count", "count", clh_shared.count, expected);
	stress_report("clh-count", "overlaps", clh_shared.overlaps, 0);
	stress_report("clh-count", "nodes lost or shared, or left locked", lost, 0);
	return clh_shared.count == expected && clh_shared.overlaps == 0 && lost == 0;
}

/* ---- reader-writer ------------------------------------------------------------ */

static lw_rwlock_t rw;
static unsigned long rw_readers_inside, rw_writer_inside, rw_violations, rw_writes, rw_reads;

static void *rw_worker(void *arg)
{
	long me = (long)arg;
	unsigned long rounds = iterations / 4;
	for (unsigned long i = 0; i < rounds; i++) {
		if ((i + (unsigned long)me) % 4 == 0) {
			lw_write_lock(&rw);
			if (__atomic_load_n(&rw_readers_inside, __ATOMIC_RELAXED) != 0 ||
			    __atomic_fetch_add(&rw_writer_inside, 1, __ATOMIC_RELAXED) != 0)
				__atomic_fetch_add(&rw_violations, 1, __ATOMIC_RELAXED);
			rw_writes++;
			__atomic_fetch_sub(&rw_writer_inside, 1, __ATOMIC_RELAXED);
			lw_write_unlock(&rw);
		} else {
			lw_read_lock(&rw);
			__atomic_fetch_add(&rw_readers_inside, 1, __ATOMIC_RELAXED);
			if (__atomic_load_n(&rw_writer_inside, __ATOMIC_RELAXED) != 0)
				__atomic_fetch_add(&rw_violations, 1, __ATOMIC_RELAXED);
			__atomic_fetch_add(&rw_reads, 1, __ATOMIC_RELAXED);
			__atomic_fetch_sub(&rw_readers_inside, 1, __ATOMIC_RELAXED);
			lw_read_unlock(&rw);
		}
	}
	return 0;
}

static int rw_mixed_run(void)
{
	lw_rwlock_init(&rw);
	stress_run_threads(THREADS, rw_worker);
	unsigned long rounds = iterations / 4, writes = 0;
	for (unsigned long me = 0; me < THREADS; me++)
		for (unsigned long i = 0; i < rounds; i++)
			writes += (i + me) % 4 == 0;
	stress_report("rwlock-mixed", "violations", rw_violations, 0);
	stress_report("rwlock-mixed", "writes", rw_writes, writes);
	stress_report("rwlock-mixed", "reads", rw_reads, (unsigned long)THREADS * rounds - writes);
	return rw_violations == 0 && rw_writes == writes && rw_reads == (unsigned long)THREADS * rounds - writes;
}

/* ---- hashed lock table ------------------------------------------------------- */

static lw_lockhash_t table;
static unsigned long hash_counters[HASH_COUNTERS]; /* plain: each guarded by its hashed lock */

static void *hash_worker(void *arg)
{
	long me = (long)arg;
	unsigned long rounds = iterations / 4;
	for (unsigned long i = 0; i < rounds; i++) {
		unsigned long *c = &hash_counters[(i * 7 + (unsigned long)me) % HASH_COUNTERS];
		lw_spinlock_t *l = lw_lock_hash(&table, c);
		lw_spin_lock(l);
		*c = *c + 1;
		lw_spin_unlock(l);
	}
	return 0;
}

static int hash_run(void)
{
	unsigned long expected[HASH_COUNTERS] = {0};
	lw_lockhash_init(&table);
	stress_run_threads(HASH_THREADS, hash_worker);
	unsigned long rounds = iterations / 4, wrong = 0, total = 0;
	for (unsigned long me = 0; me < HASH_THREADS; me++)
		for (unsigned long i = 0; i < rounds; i++)
			expected[(i * 7 + me) % HASH_COUNTERS]++;
	for (int k = 0; k < HASH_COUNTERS; k++) {
		wrong += hash_counters[k] != expected[k];
		total += hash_counters[k];
	}
	stress_report("lockhash", "counters wrong", wrong, 0);
	stress_report("lockhash", "total", total, (unsigned long)HASH_THREADS * rounds);
	return wrong == 0 && total == (unsigned long)HASH_THREADS * rounds;
}

/* ---- counters ------------------------------------------------------------------ */

static lw_counter_t counter;
static lw_counter_atomic_t counter_atomic;
static lw_counter_striped_t counter_striped;

static void *counter_worker(void *arg)
{
	unsigned slot = (unsigned)(long)arg;
	for (unsigned long i = 0; i < iterations; i++) {
		unsigned long v = i % 5 + 1;
		lw_counter_add_slot(&counter, slot, v);
		lw_counter_atomic_add(&counter_atomic, v);
		lw_counter_striped_add_slot(&counter_striped, slot, v);
	}
	return 0;
}

static int counter_run(void)
{
	stress_run_threads(THREADS, counter_worker);
	unsigned long expected = 0;
	for (unsigned long i = 0; i < iterations; i++)
		expected += i % 5 + 1;
	expected *= THREADS;
	stress_report("counter", "default", lw_counter_read(&counter), expected);
	stress_report("counter", "atomic", lw_counter_atomic_read(&counter_atomic), expected);
	stress_report("counter", "striped", lw_counter_striped_read(&counter_striped), expected);
	return lw_counter_read(&counter) == expected && lw_counter_atomic_read(&counter_atomic) == expected &&
	       lw_counter_striped_read(&counter_striped) == expected;
}

int stress_main(int argc, char **argv)
{
	if (argc > 1)
		iterations = stress_parse(argv[1]);
	int ok = 1;
	ok &= tas_run();
	ok &= tas_trylock_run();
	ok &= ticket_run();
	ok &= ticket_trylock_run();
	ok &= mcs_run();
	ok &= mcs_trylock_run();
	ok &= clh_run();
	ok &= spinlock_run();
	ok &= spinlock_trylock_run();
	ok &= rwlock_run();
	ok &= rwlock_trylock_run();
	ok &= rw_mixed_run();
#ifdef STRESS_ASM
	ok &= tas_asm_run();
	ok &= tas_asm_trylock_run();
	ok &= ticket_asm_run();
	ok &= ticket_asm_trylock_run();
#endif
	ok &= hash_run();
	ok &= counter_run();
	stress_print(ok ? "stress: all passed\n" : "stress: FAILED\n");
	return ok ? 0 : 1;
}
