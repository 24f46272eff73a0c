/* The seed's hashed-lock experiment (PA-RISC's __atomic_hash): NCOUNTERS plain
 * counters packed one word apart (AO_t style), hammered by THREADS threads, each
 * increment under the lock the table hashes the counter's address to. The
 * variants differ only in the table: 4 or 64 slots, slots padded to the
 * destructive size or packed, and the hash divisor (L1 or SMP line). Threads
 * outnumber cores here, so waits yield (LW's P_SPIN_YIELD hook).
 *
 *   bench_lockhash [--threads=32] [--counters=16] [--iterations=N] [--repeat=5] [--csv=FILE] [--quick]
 *
 * Each variant runs --repeat times, interleaved with the others; the median is
 * reported with the spread, because 32 threads on a few cores are at the mercy
 * of the scheduler. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define H4U_SMP_SPIN_YIELD() sched_yield()
#define H4P_SMP_SPIN_YIELD() sched_yield()
#define H64U_SMP_SPIN_YIELD() sched_yield()
#define H64P_SMP_SPIN_YIELD() sched_yield()
#define H4U_L1_SPIN_YIELD() sched_yield()
#define H4P_L1_SPIN_YIELD() sched_yield()
#define H64U_L1_SPIN_YIELD() sched_yield()
#define H64P_L1_SPIN_YIELD() sched_yield()
#include "h4u_smp_lockhash.h"
#include "h4p_smp_lockhash.h"
#include "h64u_smp_lockhash.h"
#include "h64p_smp_lockhash.h"
#include "h4u_l1_lockhash.h"
#include "h4p_l1_lockhash.h"
#include "h64u_l1_lockhash.h"
#include "h64p_l1_lockhash.h"

#define MAX_COUNTERS 4096
static unsigned long counters[MAX_COUNTERS]; /* one word apart, as the seed's AO_t array */
static int n_counters = 16;
static unsigned long iterations = 200000;
static int repeat = 5;

struct variant {
	const char *name;
	int size;
	int padded;
	const char *divisor;
	void (*body)(void *unused, int thread);
	void (*init)(void);
	size_t table_bytes;
};

/* One thread body per variant: thread t walks the counters with a stride of 7 from its own start. */
#define VARIANT(P)                                                                                  \
	static P##_lockhash_t P##_table;                                                           \
	static void P##_init(void) { P##_lockhash_init(&P##_table); }                              \
	static void P##_body(void *unused, int thread)                                             \
	{                                                                                          \
		unsigned long t = (unsigned long)thread;                                           \
		(void)unused;                                                                      \
		for (unsigned long i = 0; i < iterations; i++) {                                   \
			unsigned long *c = &counters[(t + i * 7) % (unsigned long)n_counters];      \
			P##_spinlock_t *l = P##_lock_hash(&P##_table, c);                          \
			P##_spin_lock(l);                                                          \
			*c = *c + 1;                                                               \
			P##_spin_unlock(l);                                                        \
		}                                                                                  \
	}

VARIANT(h4u_smp)
VARIANT(h4p_smp)
VARIANT(h64u_smp)
VARIANT(h64p_smp)
VARIANT(h4u_l1)
VARIANT(h4p_l1)
VARIANT(h64u_l1)
VARIANT(h64p_l1)

#define ENTRY(P, SIZE, PADDED, DIV) {#P, SIZE, PADDED, DIV, P##_body, P##_init, sizeof(P##_table)}
static const struct variant variants[] = {
	ENTRY(h4u_smp, 4, 0, "smp"), ENTRY(h4p_smp, 4, 1, "smp"), ENTRY(h64u_smp, 64, 0, "smp"),
	ENTRY(h64p_smp, 64, 1, "smp"), ENTRY(h4u_l1, 4, 0, "l1"),   ENTRY(h4p_l1, 4, 1, "l1"),
	ENTRY(h64u_l1, 64, 0, "l1"),   ENTRY(h64p_l1, 64, 1, "l1"),
};

/* One run of one variant; returns whether the counters add up exactly. */
static int run_once(const struct variant *V, int threads, double *seconds)
{
	memset(counters, 0, sizeof(counters));
	V->init();
	*seconds = harness_run_threads(threads, V->body, NULL);
	unsigned long sum = 0;
	for (int c = 0; c < n_counters; c++)
		sum += counters[c];
	return sum == (unsigned long)threads * iterations;
}

int main(int argc, char **argv)
{
	int threads = 32;
	const char *csv_path = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--threads=", 10))
			threads = atoi(argv[i] + 10);
		else if (!strncmp(argv[i], "--counters=", 11))
			n_counters = atoi(argv[i] + 11);
		else if (!strncmp(argv[i], "--iterations=", 13))
			iterations = strtoul(argv[i] + 13, NULL, 10);
		else if (!strncmp(argv[i], "--csv=", 6))
			csv_path = argv[i] + 6;
		else if (!strncmp(argv[i], "--repeat=", 9))
			repeat = atoi(argv[i] + 9);
		else if (!strcmp(argv[i], "--quick")) {
			iterations = 2000;
			repeat = 1;
		}
		else {
			fprintf(stderr, "bench_lockhash: unknown argument '%s'\n", argv[i]);
			return 2;
		}
	}
	if (threads < 1 || threads > HARNESS_MAX_THREADS || n_counters < 1 || n_counters > MAX_COUNTERS || repeat < 1 || repeat > 99) {
		fprintf(stderr, "bench_lockhash: --threads 1..%d, --counters 1..%d, --repeat 1..99\n", HARNESS_MAX_THREADS,
			MAX_COUNTERS);
		return 2;
	}
	FILE *csv = csv_path ? fopen(csv_path, "w") : NULL;
	if (csv_path && !csv) {
		fprintf(stderr, "bench_lockhash: cannot write %s\n", csv_path);
		return 2;
	}
	if (csv)
		fprintf(csv, "variant,hash_size,padded,divisor,table_bytes,threads,counters,iterations,runs,median_seconds,"
			     "ops_per_s,ops_per_s_slowest,ops_per_s_fastest,exact\n");
	enum { NV = sizeof(variants) / sizeof(variants[0]) };
	static double seconds[NV][99];
	int failures = 0;
	for (int r = 0; r < repeat; r++)
		for (size_t v = 0; v < NV; v++) {
			double s;
			int exact = run_once(&variants[v], threads, &s);
			seconds[v][r] = s;
			if (!exact) {
				failures++;
				printf("%s: LOST UPDATES in run %d\n", variants[v].name, r + 1);
			}
		}
	unsigned long ops = (unsigned long)threads * iterations;
	for (size_t v = 0; v < NV; v++) {
		const struct variant *V = &variants[v];
		double median = harness_median(seconds[v], repeat);
		double rate = ops / median, slowest = ops / seconds[v][repeat - 1], fastest = ops / seconds[v][0];
		printf("%-9s size %2d %-8s divisor %-3s table %5zu B: %d threads x %lu on %d counters: median %.0f op/s "
		       "(%.0f..%.0f over %d runs)\n",
		       V->name, V->size, V->padded ? "padded" : "unpadded", V->divisor, V->table_bytes, threads, iterations,
		       n_counters, rate, slowest, fastest, repeat);
		if (csv)
			fprintf(csv, "%s,%d,%d,%s,%zu,%d,%d,%lu,%d,%.4f,%.0f,%.0f,%.0f,%d\n", V->name, V->size, V->padded,
				V->divisor, V->table_bytes, threads, n_counters, iterations, repeat, median, rate, slowest,
				fastest, failures == 0);
	}
	if (csv)
		fclose(csv);
	return failures ? 1 : 0;
}
