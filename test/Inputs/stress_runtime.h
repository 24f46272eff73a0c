/* Threads, output and argument parsing for barrier_stress.c: POSIX threads
 * normally, raw Linux clone() when built with -DSTRESS_FREESTANDING (targets
 * whose Debian toolchain has no libc, e.g. loongarch64). */
#ifndef STRESS_RUNTIME_H
#define STRESS_RUNTIME_H

#ifdef STRESS_FREESTANDING
#include "stress_runtime_freestanding.h"
#else
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

typedef pthread_t stress_thread;

static void stress_start(stress_thread *t, void *(*fn)(void *), void *arg)
{
	if (pthread_create(t, 0, fn, arg) != 0) {
		perror("pthread_create");
		exit(2);
	}
}
static void stress_join(stress_thread *t) { pthread_join(*t, 0); }
static void stress_yield(void) { sched_yield(); }
static void stress_print(const char *s) { fputs(s, stdout); fflush(stdout); }
static unsigned long stress_parse(const char *s) { return strtoul(s, 0, 10); }
static void stress_report(const char *test, const char *what, unsigned long got, unsigned long want)
{
	printf("%s: %s %lu (expected %lu)\n", test, what, got, want);
	fflush(stdout);
}

int stress_main(int argc, char **argv);
int main(int argc, char **argv) { return stress_main(argc, argv); }
#endif

/* Runs fn in n threads, each given its index, and waits for all of them. */
static __attribute__((__unused__)) void stress_run_threads(int n, void *(*fn)(void *))
{
	stress_thread t[16];
	for (long i = 0; i < n && i < 16; i++)
		stress_start(&t[i], fn, (void *)i);
	for (int i = 0; i < n && i < 16; i++)
		stress_join(&t[i]);
}

#endif
