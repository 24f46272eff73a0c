/* lockwright tune's probe: the measurements `lockwright tune` makes on the machine it runs on,
 * built there against the headers lockwright generates for it (prefix lwt, default lock mcs, so
 * that lwt_spin_lock is the queued lock the spec's `mcs` choice gives). One mode a run; every
 * mode repeats its variants in rotated order, repetition by repetition, so that a drift of the
 * machine (another process, frequency) falls on all of them alike. Output: CSV rows on stdout,
 * one per variant and repetition; an error row and exit 1 when a lock lost an update.
 *
 *   probe distance CPU_A CPU_B ITERATIONS REPEATS D1,D2,...
 *   probe lock THREADS1,THREADS2,... MILLISECONDS REPEATS CPU,CPU,...   (every generated lock)
 *   probe counter THREADS1,... ITERATIONS REPEATS CPU,CPU,...
 *   probe wait ITERATIONS REPEATS
 */
#define _GNU_SOURCE
#include "lwt_barrier.h"
#include "lwt_cache.h"
#include "lwt_cond_wait.h"
#include "lwt_counter.h"
#include "lwt_spinlock.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 256
#define MAX_LIST 4096

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int parse_list(const char *text, long *out)
{
	int n = 0;
	char *copy = strdup(text), *save = NULL;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == MAX_LIST) {
			fprintf(stderr, "probe: a list of more than %d items\n", MAX_LIST);
			exit(2);
		}
		out[n++] = strtol(tok, NULL, 10);
	}
	free(copy);
	return n;
}

static long parse_number(const char *text)
{
	char *end = NULL;
	long v = strtol(text, &end, 10);
	if (!*text || *end || v <= 0) {
		fprintf(stderr, "probe: '%s' is not a positive number\n", text);
		exit(2);
	}
	return v;
}

/* Pins the calling thread; a CPU the process may not use leaves it unpinned (said once). */
static void pin(long cpu)
{
	if (cpu < 0)
		return;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) != 0) {
		static int said;
		if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
			fprintf(stderr, "probe: cannot pin to CPU %ld; running unpinned\n", cpu);
	}
}

/* Threads released together by a barrier; each times its own body. */
struct worker {
	pthread_t id;
	int index;
	long cpu;
	void (*body)(struct worker *);
	void *shared;
	pthread_barrier_t *start;
	double started, finished;
	unsigned long count;
};

static void *worker_main(void *p)
{
	struct worker *w = p;
	pin(w->cpu);
	pthread_barrier_wait(w->start);
	w->started = now_ns();
	w->body(w);
	w->finished = now_ns();
	return NULL;
}

/* Runs body on n workers pinned to cpus[i % ncpus]; returns the ns from first start to last finish. */
static double run_workers(struct worker *w, int n, const long *cpus, int ncpus, void (*body)(struct worker *),
			  void *shared)
{
	pthread_barrier_t start;
	pthread_barrier_init(&start, NULL, (unsigned)n);
	for (int i = 0; i < n; i++) {
		w[i] = (struct worker){0};
		w[i].index = i;
		w[i].cpu = ncpus ? cpus[i % ncpus] : -1;
		w[i].body = body;
		w[i].shared = shared;
		w[i].start = &start;
		if (pthread_create(&w[i].id, NULL, worker_main, &w[i]) != 0) {
			fprintf(stderr, "probe: cannot start thread %d\n", i);
			exit(1);
		}
	}
	double first = 0, last = 0;
	for (int i = 0; i < n; i++) {
		pthread_join(w[i].id, NULL);
		first = i == 0 || w[i].started < first ? w[i].started : first;
		last = w[i].finished > last ? w[i].finished : last;
	}
	pthread_barrier_destroy(&start);
	return last - first;
}

/* ---- distance: two writers d bytes apart ---------------------------------------------- */

static unsigned long distance_iterations;

struct distance_run {
	unsigned char *words[2];
};

static void distance_body(struct worker *w)
{
	struct distance_run *r = w->shared;
	unsigned long *word = (unsigned long *)r->words[w->index];
	/* The owner's increment: a relaxed load and store, no locked instruction (a per-thread
	 * counter), so the cost measured is the line moving, not the RMW. */
	for (unsigned long i = 0; i < distance_iterations; i++)
		__atomic_store_n(word, __atomic_load_n(word, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
}

static int mode_distance(int argc, char **argv)
{
	if (argc != 7) {
		fprintf(stderr, "usage: probe distance CPU_A CPU_B ITERATIONS REPEATS D1,D2,...\n");
		return 2;
	}
	long cpus[2] = {strtol(argv[2], NULL, 10), strtol(argv[3], NULL, 10)};
	distance_iterations = (unsigned long)parse_number(argv[4]);
	long repeats = parse_number(argv[5]);
	long distances[MAX_LIST];
	int nd = parse_list(argv[6], distances);
	/* The first word starts a 4 KiB page, so it starts every line and line pair too: d = 64
	 * puts the second word in the adjacent line of the same 128-byte pair. */
	unsigned char *buffer = aligned_alloc(4096, 8192);
	if (!buffer)
		return 1;
	struct worker w[2];
	for (long rep = 0; rep < repeats; rep++)
		for (int k = 0; k < nd; k++) {
			long d = distances[(k + rep) % nd];
			if (d < (long)sizeof(unsigned long) || d + sizeof(unsigned long) > 8192)
				continue;
			memset(buffer, 0, 8192);
			struct distance_run r = {{buffer, buffer + d}};
			double ns = run_workers(w, 2, cpus, 2, distance_body, &r);
			printf("distance,%ld,%ld,%.3f\n", d, rep, ns / distance_iterations);
		}
	free(buffer);
	return 0;
}

/* ---- lock: throughput and fairness of every generated lock ---------------------------- */

/* tas, ticket and mcs may be a spec's default_lock; clh and the rwlock's write side are
 * measured for the tables. */
enum lock_kind { LOCK_TAS, LOCK_TICKET, LOCK_MCS, LOCK_CLH, LOCK_RWLOCK, N_LOCKS };
static const char *lock_names[] = {"tas", "ticket", "mcs", "clh", "rwlock"};

struct lock_run {
	enum lock_kind kind;
	union {
		lwt_tas_lock_t tas;
		lwt_ticket_lock_t ticket;
		lwt_spinlock_t queued;
		lwt_clh_lock_t clh;
		lwt_rwlock_t rw;
	} lock LWT_DESTRUCTIVE_ALIGNED;
	/* CLH nodes change hands at each unlock, so they outlive the threads: one per thread and
	 * the one the free lock owns. */
	struct {
		lwt_clh_node_t node;
	} LWT_DESTRUCTIVE_ALIGNED clh_nodes[MAX_THREADS + 1];
	volatile unsigned long counter LWT_DESTRUCTIVE_ALIGNED;
	/* Set by the first worker once released, and by the stopper when the time is up. */
	int started, stop LWT_DESTRUCTIVE_ALIGNED;
};

static void lock_body(struct worker *w)
{
	struct lock_run *r = w->shared;
	unsigned long mine = 0;
	/* The clock starts when the workers do, not while they are being created. */
	__atomic_store_n(&r->started, 1, __ATOMIC_RELEASE);
	/* One loop per lock with its calls inlined (a call through a pointer would be measured too). */
#define LOCK_LOOP(lock, unlock)                                                   \
	while (!__atomic_load_n(&r->stop, __ATOMIC_RELAXED)) {                    \
		lock;                                                             \
		r->counter++;                                                     \
		unlock;                                                           \
		mine++;                                                           \
	}
	switch (r->kind) {
	case LOCK_TAS:
		LOCK_LOOP(lwt_tas_lock(&r->lock.tas), lwt_tas_unlock(&r->lock.tas));
		break;
	case LOCK_TICKET:
		LOCK_LOOP(lwt_ticket_lock(&r->lock.ticket), lwt_ticket_unlock(&r->lock.ticket));
		break;
	case LOCK_MCS:
		LOCK_LOOP(lwt_spin_lock(&r->lock.queued), lwt_spin_unlock(&r->lock.queued));
		break;
	case LOCK_CLH: {
		lwt_clh_node_t *node = &r->clh_nodes[w->index + 1].node;
		LOCK_LOOP(lwt_clh_lock(&r->lock.clh, node), lwt_clh_unlock(&node));
		break;
	}
	default:
		LOCK_LOOP(lwt_write_lock(&r->lock.rw), lwt_write_unlock(&r->lock.rw));
		break;
	}
#undef LOCK_LOOP
	w->count = mine;
}

struct lock_timer {
	struct lock_run *run;
	long milliseconds;
};

static void *lock_stopper(void *p)
{
	struct lock_timer *t = p;
	struct timespec ts = {t->milliseconds / 1000, (t->milliseconds % 1000) * 1000000L};
	while (!__atomic_load_n(&t->run->started, __ATOMIC_ACQUIRE))
		sched_yield();
	nanosleep(&ts, NULL);
	__atomic_store_n(&t->run->stop, 1, __ATOMIC_RELAXED);
	return NULL;
}

static int mode_lock(int argc, char **argv)
{
	if (argc != 6) {
		fprintf(stderr, "usage: probe lock THREADS,... MILLISECONDS REPEATS CPU,...\n");
		return 2;
	}
	long threads[MAX_LIST], cpus[MAX_LIST];
	int nt = parse_list(argv[2], threads);
	long milliseconds = parse_number(argv[3]), repeats = parse_number(argv[4]);
	int ncpus = parse_list(argv[5], cpus);
	static struct worker w[MAX_THREADS];
	static struct lock_run r;
	for (long rep = 0; rep < repeats; rep++)
		for (int t = 0; t < nt; t++)
			for (int k = 0; k < N_LOCKS; k++) {
				enum lock_kind kind = (enum lock_kind)((k + rep) % N_LOCKS);
				int n = (int)threads[t];
				if (n < 1 || n > MAX_THREADS)
					continue;
				memset(&r, 0, sizeof r);
				r.kind = kind;
				lwt_tas_init(&r.lock.tas);
				if (kind == LOCK_TICKET)
					lwt_ticket_init(&r.lock.ticket);
				if (kind == LOCK_MCS)
					lwt_spin_init(&r.lock.queued);
				if (kind == LOCK_CLH)
					lwt_clh_init(&r.lock.clh, &r.clh_nodes[0].node);
				if (kind == LOCK_RWLOCK)
					lwt_rwlock_init(&r.lock.rw);
				struct lock_timer timer = {&r, milliseconds};
				pthread_t stopper;
				if (pthread_create(&stopper, NULL, lock_stopper, &timer) != 0) {
					fprintf(stderr, "probe: cannot start the timer thread\n");
					return 1;
				}
				double ns = run_workers(w, n, cpus, ncpus, lock_body, &r);
				pthread_join(stopper, NULL);
				unsigned long total = 0, least = ~0UL, most = 0;
				for (int i = 0; i < n; i++) {
					total += w[i].count;
					least = w[i].count < least ? w[i].count : least;
					most = w[i].count > most ? w[i].count : most;
				}
				if (total != r.counter) {
					printf("error,lock,%s,%d,lost %lu of %lu updates\n", lock_names[kind], n,
					       total - r.counter, total);
					return 1;
				}
				printf("lock,%s,%d,%ld,%.4f,%.4f\n", lock_names[kind], n, rep, total / ns * 1e3,
				       most ? (double)least / most : 0.0);
			}
	return 0;
}

/* ---- counter: one hot counter, atomic, striped or per thread -------------------------- */

enum counter_kind { COUNTER_ATOMIC, COUNTER_STRIPED, COUNTER_PER_THREAD, N_COUNTERS };
static const char *counter_names[] = {"atomic", "striped", "per_thread"};
/* inc: only increments; add: adds 3; read: only reads; mix: nine increments to a read. */
enum counter_mix { MIX_INC, MIX_ADD, MIX_READ, MIX_MIX, N_MIXES };
static const char *mix_names[] = {"inc", "add", "read", "mix"};

struct per_thread_slot {
	unsigned long value;
} LWT_DESTRUCTIVE_ALIGNED;

struct counter_run {
	enum counter_kind kind;
	enum counter_mix mix;
	int threads;
	unsigned long iterations;
	lwt_counter_atomic_t atomic LWT_DESTRUCTIVE_ALIGNED;
	lwt_counter_striped_t striped;
	struct per_thread_slot slots[MAX_THREADS];
};

static volatile unsigned long counter_sink;

static unsigned long per_thread_read(struct counter_run *r)
{
	unsigned long sum = 0;
	for (int t = 0; t < r->threads; t++)
		sum += __atomic_load_n(&r->slots[t].value, __ATOMIC_RELAXED);
	return sum;
}

static void counter_body(struct worker *w)
{
	struct counter_run *r = w->shared;
	unsigned long *mine = &r->slots[w->index].value, acc = 0;
	for (unsigned long i = 0; i < r->iterations; i++) {
		int read = r->mix == MIX_READ || (r->mix == MIX_MIX && i % 10 == 9);
		unsigned long by = r->mix == MIX_ADD ? 3 : 1;
		switch (r->kind) {
		case COUNTER_ATOMIC:
			if (read)
				acc += lwt_counter_atomic_read(&r->atomic);
			else
				lwt_counter_atomic_add(&r->atomic, by);
			break;
		case COUNTER_STRIPED:
			if (read)
				acc += lwt_counter_striped_read(&r->striped);
			else
				lwt_counter_striped_add(&r->striped, by);
			break;
		default:
			if (read)
				acc += per_thread_read(r);
			else
				__atomic_store_n(mine, __atomic_load_n(mine, __ATOMIC_RELAXED) + by, __ATOMIC_RELAXED);
			break;
		}
	}
	counter_sink = acc;
}

static int mode_counter(int argc, char **argv)
{
	if (argc != 6) {
		fprintf(stderr, "usage: probe counter THREADS,... ITERATIONS REPEATS CPU,...\n");
		return 2;
	}
	long threads[MAX_LIST], cpus[MAX_LIST];
	int nt = parse_list(argv[2], threads);
	unsigned long iterations = (unsigned long)parse_number(argv[3]);
	long repeats = parse_number(argv[4]);
	int ncpus = parse_list(argv[5], cpus);
	static struct worker w[MAX_THREADS];
	struct counter_run *r = aligned_alloc(4096, (sizeof *r + 4095) / 4096 * 4096);
	if (!r)
		return 1;
	for (long rep = 0; rep < repeats; rep++)
		for (int t = 0; t < nt; t++)
			for (int m = 0; m < N_MIXES; m++)
				for (int k = 0; k < N_COUNTERS; k++) {
					int n = (int)threads[t];
					if (n < 1 || n > MAX_THREADS)
						continue;
					memset(r, 0, sizeof *r);
					r->kind = (enum counter_kind)((k + rep) % N_COUNTERS);
					r->mix = (enum counter_mix)m;
					r->threads = n;
					r->iterations = iterations;
					double ns = run_workers(w, n, cpus, ncpus, counter_body, r);
					printf("counter,%s,%s,%d,%ld,%.4f\n", counter_names[r->kind], mix_names[m], n, rep,
					       ns / iterations);
				}
	free(r);
	return 0;
}

/* ---- wait: the relax instruction and one poll ------------------------------------------- */

static int mode_wait(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: probe wait ITERATIONS REPEATS\n");
		return 2;
	}
	unsigned long iterations = (unsigned long)parse_number(argv[2]);
	long repeats = parse_number(argv[3]);
	static volatile uint32_t flag LWT_DESTRUCTIVE_ALIGNED;
	for (long rep = 0; rep < repeats; rep++) {
		double t0 = now_ns();
		for (unsigned long i = 0; i < iterations; i++)
			lwt_cpu_relax();
		double t1 = now_ns();
		/* One poll of a wait loop on a line this CPU holds: the acquire load, the test, the relax. */
		unsigned long seen = 0;
		for (unsigned long i = 0; i < iterations; i++) {
			seen += lwt_load_acquire(&flag);
			lwt_cpu_relax();
		}
		double t2 = now_ns();
		/* The acquire load alone. */
		for (unsigned long i = 0; i < iterations; i++)
			seen += lwt_load_acquire(&flag);
		double t3 = now_ns();
		counter_sink = seen;
		printf("wait,relax,%ld,%.4f\n", rep, (t1 - t0) / iterations);
		printf("wait,poll,%ld,%.4f\n", rep, (t2 - t1) / iterations);
		printf("wait,acquire_load,%ld,%.4f\n", rep, (t3 - t2) / iterations);
	}
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 2 && !strcmp(argv[1], "distance"))
		return mode_distance(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "lock"))
		return mode_lock(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "counter"))
		return mode_counter(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "wait"))
		return mode_wait(argc, argv);
	fprintf(stderr, "usage: probe distance|lock|counter|wait ...\n");
	return 2;
}
