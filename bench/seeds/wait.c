/* Waiting, timed on the host: two threads hand a counter back and forth, each
 * waiting for the other's value either with an acquire load on every poll or
 * with lw_cond_load_acquire (relaxed polls, one ordering after the loop). The
 * same probe's ordering instructions per iteration on every architecture are
 * counted by wait_barriers.py.
 *
 *   bench_wait [--round-trips=N] [--repeat=5] [--csv=FILE] [--quick]
 */
#define _GNU_SOURCE
#include "lw_barrier.h"
#include "lw_cache.h"
#include "lw_cond_wait.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static unsigned long round_trips = 1000000;
static volatile unsigned flag LW_DESTRUCTIVE_ALIGNED; /* the handed-over value, alone in its window */
static int use_cond_load;

static void wait_for(unsigned want)
{
	if (use_cond_load)
		(void)lw_cond_load_acquire(&flag, VAL == want);
	else
		while (lw_load_acquire(&flag) != want)
			lw_cpu_relax();
}

/* Player 0 waits for even values and writes odd ones; player 1 the reverse. */
static void player(void *unused, int thread)
{
	unsigned me = (unsigned)thread;
	(void)unused;
	for (unsigned long i = 0; i < round_trips; i++) {
		unsigned base = (unsigned)(2 * i);
		wait_for(base + me);
		lw_store_release(&flag, base + me + 1);
	}
}

int main(int argc, char **argv)
{
	int repeat = 5;
	const char *csv_path = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--round-trips=", 14))
			round_trips = strtoul(argv[i] + 14, NULL, 10);
		else if (!strncmp(argv[i], "--repeat=", 9))
			repeat = atoi(argv[i] + 9);
		else if (!strncmp(argv[i], "--csv=", 6))
			csv_path = argv[i] + 6;
		else if (!strcmp(argv[i], "--quick")) {
			round_trips = 10000;
			repeat = 1;
		} else {
			fprintf(stderr, "bench_wait: unknown argument '%s'\n", argv[i]);
			return 2;
		}
	}
	if (repeat < 1 || repeat > 99 || round_trips < 1) {
		fprintf(stderr, "bench_wait: --repeat 1..99, --round-trips >= 1\n");
		return 2;
	}
	FILE *csv = csv_path ? fopen(csv_path, "w") : NULL;
	if (csv_path && !csv) {
		fprintf(stderr, "bench_wait: cannot write %s\n", csv_path);
		return 2;
	}
	if (csv)
		fprintf(csv, "wait,round_trips,runs,ns_per_round_trip,exact\n");
	static const char *names[] = {"acquire_each_poll", "cond_load_acquire"};
	double ns[2][99];
	int failures = 0;
	for (int r = 0; r < repeat; r++)
		for (int w = 0; w < 2; w++) { /* interleaved */
			use_cond_load = w;
			flag = 0;
			ns[w][r] = harness_run_threads(2, player, NULL) * 1e9 / round_trips;
			failures += flag != 2 * round_trips;
		}
	for (int w = 0; w < 2; w++) {
		double median = harness_median(ns[w], repeat);
		printf("%-18s %.1f ns per round trip (median of %d, %lu round trips each)\n", names[w], median, repeat,
		       round_trips);
		if (csv)
			fprintf(csv, "%s,%lu,%d,%.2f,%d\n", names[w], round_trips, repeat, median, failures == 0);
	}
	if (csv)
		fclose(csv);
	return failures ? 1 : 0;
}
