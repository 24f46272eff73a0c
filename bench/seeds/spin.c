/* spin_single / spin_multi for the generated lock and unlock variants: the
 * inline TAS and ticket locks against the out-of-line .S routines with the same
 * lock words. spin_single: every thread on one hot lock; spin_multi: each
 * thread on a lock of its own (padded), which prices lock+unlock with no
 * contention but every core busy.
 *
 *   bench_spin [--threads=1,2] [--iterations=N] [--repeat=5] [--csv=FILE] [--quick]
 */
#define _GNU_SOURCE
#include "lw_cache.h"
#include "lw_spinlock.h"
#include "lw_spinlock_asm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define MAX_THREADS 64

struct slot {
	union {
		lw_tas_lock_t tas;
		lw_ticket_lock_t ticket;
	} lock;
	unsigned long counter;
} LW_DESTRUCTIVE_ALIGNED;

static struct slot slots[MAX_THREADS];
static unsigned long iterations = 2000000;

/* One timed run: spin_multi gives thread t slot t, spin_single puts everyone on slot 0. */
struct run {
	int variant;
	int multi;
};

enum { INLINE_TAS, INLINE_TICKET, ASM_TAS, ASM_TICKET, N_VARIANTS };
static const char *variant_names[] = {"inline_tas", "inline_ticket", "asm_tas", "asm_ticket"};

static void body(void *arg, int t)
{
	const struct run *j = arg;
	struct slot *s = &slots[j->multi ? t : 0];
	for (unsigned long i = 0; i < iterations; i++) {
		switch (j->variant) {
		case INLINE_TAS: lw_tas_lock(&s->lock.tas); s->counter++; lw_tas_unlock(&s->lock.tas); break;
		case INLINE_TICKET: lw_ticket_lock(&s->lock.ticket); s->counter++; lw_ticket_unlock(&s->lock.ticket); break;
		case ASM_TAS: lw_asm_tas_lock(&s->lock.tas); s->counter++; lw_asm_tas_unlock(&s->lock.tas); break;
		case ASM_TICKET: lw_asm_ticket_lock(&s->lock.ticket); s->counter++; lw_asm_ticket_unlock(&s->lock.ticket); break;
		}
	}
}

int main(int argc, char **argv)
{
	int thread_counts[8] = {1, 2}, n_thread_counts = 2, repeat = 5;
	const char *csv_path = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--threads=", 10)) {
			n_thread_counts = harness_parse_counts(argv[i] + 10, thread_counts, 8, MAX_THREADS);
			if (!n_thread_counts) {
				fprintf(stderr, "bench_spin: threads are 1..%d\n", MAX_THREADS);
				return 2;
			}
		} else if (!strncmp(argv[i], "--iterations=", 13))
			iterations = strtoul(argv[i] + 13, NULL, 10);
		else if (!strncmp(argv[i], "--repeat=", 9))
			repeat = atoi(argv[i] + 9);
		else if (!strncmp(argv[i], "--csv=", 6))
			csv_path = argv[i] + 6;
		else if (!strcmp(argv[i], "--quick")) {
			iterations = 20000;
			repeat = 1;
		} else {
			fprintf(stderr, "bench_spin: unknown argument '%s'\n", argv[i]);
			return 2;
		}
	}
	if (repeat < 1 || repeat > 99) {
		fprintf(stderr, "bench_spin: --repeat 1..99\n");
		return 2;
	}
	FILE *csv = csv_path ? fopen(csv_path, "w") : NULL;
	if (csv_path && !csv) {
		fprintf(stderr, "bench_spin: cannot write %s\n", csv_path);
		return 2;
	}
	if (csv)
		fprintf(csv, "variant,mode,threads,runs,ops_per_s,exact\n");
	int failures = 0;
	for (int multi = 0; multi < 2; multi++)
		for (int ti = 0; ti < n_thread_counts; ti++)
			for (int v = 0; v < N_VARIANTS; v++) {
				int threads = thread_counts[ti];
				double seconds[99];
				int exact = 1;
				for (int r = 0; r < repeat; r++) {
					for (int t = 0; t < MAX_THREADS; t++) {
						lw_tas_init(&slots[t].lock.tas);
						if (v == INLINE_TICKET || v == ASM_TICKET)
							lw_ticket_init(&slots[t].lock.ticket);
						slots[t].counter = 0;
					}
					struct run run = {v, multi};
					seconds[r] = harness_run_threads(threads, body, &run);
					unsigned long sum = 0;
					for (int t = 0; t < MAX_THREADS; t++)
						sum += slots[t].counter;
					exact &= sum == (unsigned long)threads * iterations;
				}
				double rate = (double)threads * iterations / harness_median(seconds, repeat);
				failures += !exact;
				printf("%-11s %-13s threads=%d: %.0f lock+unlock/s (median of %d)%s\n",
				       multi ? "spin_multi" : "spin_single", variant_names[v], threads, rate, repeat,
				       exact ? "" : "  LOST UPDATES");
				if (csv)
					fprintf(csv, "%s,%s,%d,%d,%.0f,%d\n", variant_names[v],
						multi ? "spin_multi" : "spin_single", threads, repeat, rate, exact);
			}
	if (csv)
		fclose(csv);
	return failures ? 1 : 0;
}
