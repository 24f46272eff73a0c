/* What the seed benchmarks share: running threads that start together and
 * timing them, medians of repeated runs, and --threads=1,2 lists. Header-only,
 * so that each benchmark stays one C file. */
#ifndef LOCKWRIGHT_BENCH_HARNESS_H
#define LOCKWRIGHT_BENCH_HARNESS_H

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HARNESS_MAX_THREADS 256

static double harness_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct harness_thread {
	void (*body)(void *arg, int thread);
	void *arg;
	int thread;
	pthread_barrier_t *start;
	double started, finished;
};

static void *harness_thread_main(void *p)
{
	struct harness_thread *h = p;
	pthread_barrier_wait(h->start);
	h->started = harness_now();
	h->body(h->arg, h->thread);
	h->finished = harness_now();
	return NULL;
}

/* Runs body(arg, t) on threads t = 0 .. threads-1, released together, and returns
 * the seconds from the first start to the last finish. Each thread times itself:
 * the main thread may not be running when they start. */
static double harness_run_threads(int threads, void (*body)(void *arg, int thread), void *arg)
{
	struct harness_thread h[HARNESS_MAX_THREADS];
	pthread_t tid[HARNESS_MAX_THREADS];
	pthread_barrier_t start;
	pthread_barrier_init(&start, NULL, (unsigned)threads);
	for (int t = 0; t < threads; t++) {
		h[t] = (struct harness_thread){body, arg, t, &start, 0, 0};
		pthread_create(&tid[t], NULL, harness_thread_main, &h[t]);
	}
	double first = 0, last = 0;
	for (int t = 0; t < threads; t++) {
		pthread_join(tid[t], NULL);
		first = t == 0 || h[t].started < first ? h[t].started : first;
		last = h[t].finished > last ? h[t].finished : last;
	}
	pthread_barrier_destroy(&start);
	return last - first;
}

static int harness_compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median of n values; sorts them, so values[0] and values[n - 1] are then the extremes. */
static double harness_median(double *values, int n)
{
	qsort(values, (size_t)n, sizeof(double), harness_compare_doubles);
	return values[n / 2];
}

/* Parses "1,2,8" into counts; returns how many (at most max), or 0 when one is outside 1..limit. */
static int harness_parse_counts(const char *list, int *counts, int max, int limit)
{
	int n = 0;
	for (const char *p = list; *p && n < max; p = strchr(p, ',') ? strchr(p, ',') + 1 : "") {
		counts[n] = atoi(p);
		if (counts[n] < 1 || counts[n] > limit)
			return 0;
		n++;
	}
	return n;
}

#endif
