/* local_t-style counters, the seed's sparc64/x86 question: one atomic word, the
 * generated striped counter (a destructive-window stripe per thread, summed on
 * read), or a per-thread block of plain words (what per-CPU counters do). Each
 * of inc, add, add_return and read is timed with T threads on K counters, K
 * small (the working set fits any cache) and large (the striped counters' 512x
 * footprint no longer fits).
 *
 *   bench_counters [--threads=1,2] [--small=16] [--large=16384] [--iterations=N] [--csv=FILE] [--quick]
 */
#define _GNU_SOURCE
#include "lw_counter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define MAX_THREADS 64
enum variant { ATOMIC, STRIPED, PER_THREAD, N_VARIANTS };
enum op { INC, ADD, ADD_RETURN, READ, N_OPS };
static const char *variant_names[] = {"atomic", "striped", "per_thread"};
static const char *op_names[] = {"inc", "add", "add_return", "read"};

static lw_counter_atomic_t *atomics;
static lw_counter_striped_t *stripeds;
/* Per-thread blocks: thread t owns per_thread[t * stride .. + K), its block padded to a window. */
static unsigned long *per_thread;
static size_t per_thread_stride;

static unsigned long iterations = 2000000;
static volatile unsigned long sink;

/* One timed run: every thread applies op to K counters of variant v. */
struct run {
	enum variant v;
	enum op op;
	unsigned long k;
	int threads;
	unsigned long returned[MAX_THREADS]; /* what reads and add_return gave back, kept alive */
};

/* Per-thread blocks are padded to whole destructive windows. */
static size_t round_up_to_window(unsigned long k)
{
	size_t window = LW_DESTRUCTIVE_SIZE / sizeof(unsigned long);
	return (k + window - 1) / window * window;
}

static unsigned long per_thread_read(unsigned long k, int threads)
{
	unsigned long sum = 0;
	for (int t = 0; t < threads; t++)
		sum += __atomic_load_n(&per_thread[t * per_thread_stride + k], __ATOMIC_RELAXED);
	return sum;
}

static void body(void *arg, int t)
{
	struct run *j = arg;
	unsigned long k = j->k, acc = 0;
	unsigned long *mine = &per_thread[t * per_thread_stride];
	for (unsigned long i = 0; i < iterations; i++) {
		unsigned long c = (i * 7 + (unsigned long)t) % k;
		switch (j->v * N_OPS + j->op) {
		case ATOMIC * N_OPS + INC: lw_counter_atomic_inc(&atomics[c]); break;
		case ATOMIC * N_OPS + ADD: lw_counter_atomic_add(&atomics[c], 3); break;
		case ATOMIC * N_OPS + ADD_RETURN: acc += lw_counter_atomic_add_return(&atomics[c], 3); break;
		case ATOMIC * N_OPS + READ: acc += lw_counter_atomic_read(&atomics[c]); break;
		case STRIPED * N_OPS + INC: lw_counter_striped_inc(&stripeds[c]); break;
		case STRIPED * N_OPS + ADD: lw_counter_striped_add(&stripeds[c], 3); break;
		case STRIPED * N_OPS + ADD_RETURN: acc += lw_counter_striped_add_return(&stripeds[c], 3); break;
		case STRIPED * N_OPS + READ: acc += lw_counter_striped_read(&stripeds[c]); break;
		/* The owner's plain read-modify-write (this_cpu_add): relaxed so that readers may sum concurrently. */
		case PER_THREAD * N_OPS + INC:
			__atomic_store_n(&mine[c], __atomic_load_n(&mine[c], __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
			break;
		case PER_THREAD * N_OPS + ADD:
		case PER_THREAD * N_OPS + ADD_RETURN: {
			unsigned long v = __atomic_load_n(&mine[c], __ATOMIC_RELAXED) + 3;
			__atomic_store_n(&mine[c], v, __ATOMIC_RELAXED);
			acc += j->op == ADD_RETURN ? v : 0;
			break;
		}
		case PER_THREAD * N_OPS + READ: acc += per_thread_read(c, j->threads); break;
		}
	}
	j->returned[t] = acc;
}

static void reset(unsigned long k, int threads)
{
	memset(atomics, 0, k * sizeof(*atomics));
	memset(stripeds, 0, k * sizeof(*stripeds));
	memset(per_thread, 0, (size_t)threads * per_thread_stride * sizeof(unsigned long));
}

static unsigned long total(enum variant v, unsigned long k, int threads)
{
	unsigned long sum = 0;
	for (unsigned long c = 0; c < k; c++)
		sum += v == ATOMIC ? lw_counter_atomic_read(&atomics[c])
		     : v == STRIPED ? lw_counter_striped_read(&stripeds[c])
				    : per_thread_read(c, threads);
	return sum;
}

int main(int argc, char **argv)
{
	int thread_counts[8] = {1, 2}, n_thread_counts = 2;
	unsigned long sizes[2] = {16, 16384};
	const char *csv_path = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--threads=", 10)) {
			n_thread_counts = harness_parse_counts(argv[i] + 10, thread_counts, 8, MAX_THREADS);
			if (!n_thread_counts) {
				fprintf(stderr, "bench_counters: threads are 1..%d\n", MAX_THREADS);
				return 2;
			}
		} else if (!strncmp(argv[i], "--small=", 8))
			sizes[0] = strtoul(argv[i] + 8, NULL, 10);
		else if (!strncmp(argv[i], "--large=", 8))
			sizes[1] = strtoul(argv[i] + 8, NULL, 10);
		else if (!strncmp(argv[i], "--iterations=", 13))
			iterations = strtoul(argv[i] + 13, NULL, 10);
		else if (!strncmp(argv[i], "--csv=", 6))
			csv_path = argv[i] + 6;
		else if (!strcmp(argv[i], "--quick")) {
			iterations = 20000;
			sizes[1] = 1024;
		} else {
			fprintf(stderr, "bench_counters: unknown argument '%s'\n", argv[i]);
			return 2;
		}
	}
	int max_threads = 0;
	for (int i = 0; i < n_thread_counts; i++)
		max_threads = thread_counts[i] > max_threads ? thread_counts[i] : max_threads;
	unsigned long kmax = sizes[0] > sizes[1] ? sizes[0] : sizes[1];
	if (sizes[0] < 1 || kmax > (1UL << 20)) {
		fprintf(stderr, "bench_counters: --small/--large are 1..1048576 counters\n");
		return 2;
	}
	per_thread_stride = round_up_to_window(kmax);
	if (posix_memalign((void **)&atomics, LW_DESTRUCTIVE_SIZE, kmax * sizeof(*atomics)) ||
	    posix_memalign((void **)&stripeds, LW_DESTRUCTIVE_SIZE, kmax * sizeof(*stripeds)) ||
	    posix_memalign((void **)&per_thread, LW_DESTRUCTIVE_SIZE,
			   (size_t)max_threads * per_thread_stride * sizeof(unsigned long))) {
		fprintf(stderr, "bench_counters: out of memory\n");
		return 1;
	}
	FILE *csv = csv_path ? fopen(csv_path, "w") : NULL;
	if (csv_path && !csv) {
		fprintf(stderr, "bench_counters: cannot write %s\n", csv_path);
		return 2;
	}
	if (csv)
		fprintf(csv, "variant,op,counters,footprint_bytes,threads,ns_per_op,exact\n");
	int failures = 0;
	for (int s = 0; s < 2; s++)
		for (int ti = 0; ti < n_thread_counts; ti++)
			for (int v = 0; v < N_VARIANTS; v++)
				for (int op = 0; op < N_OPS; op++) {
					unsigned long k = sizes[s];
					int threads = thread_counts[ti];
					reset(k, threads);
					struct run run = {(enum variant)v, (enum op)op, k, threads, {0}};
					/* Wall time per operation of one thread, all threads running at once. */
					double ns = harness_run_threads(threads, body, &run) * 1e9 / iterations;
					for (int t = 0; t < threads; t++)
						sink += run.returned[t];
					unsigned long per_op = op == INC ? 1 : op == READ ? 0 : 3;
					int exact = total((enum variant)v, k, threads) == per_op * iterations * threads;
					failures += !exact;
					size_t footprint = v == ATOMIC ? k * sizeof(*atomics)
							 : v == STRIPED ? k * sizeof(*stripeds)
									: (size_t)threads * round_up_to_window(k) * sizeof(unsigned long);
					printf("%-10s %-10s K=%-6lu (%9zu B) threads=%d: %7.2f ns/op%s\n", variant_names[v],
					       op_names[op], k, footprint, threads, ns, exact ? "" : "  LOST UPDATES");
					if (csv)
						fprintf(csv, "%s,%s,%lu,%zu,%d,%.3f,%d\n", variant_names[v], op_names[op], k,
							footprint, threads, ns, exact);
				}
	if (csv)
		fclose(csv);
	return failures ? 1 : 0;
}
