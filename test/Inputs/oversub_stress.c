/* Oversubscription: every generated lock with 4 threads per CPU, all released at once, each
 * thread taking the lock ITERS times; the counts must be exact and each algorithm must finish
 * within a generous bound. In user space threads get preempted; a lock that keeps spinning
 * while its holder (or the FIFO successor it handed the lock to) waits for a CPU moves once per
 * scheduler tick, and a run then takes minutes instead of a second: the bound catches that convoy.
 *
 *   oversub_stress ITERS BOUND_SECONDS      built with the headers' hosted defaults
 *
 * Output per algorithm: "<algo>-oversubscribed: count N (expected N)", then "... within bound".
 */
#define _GNU_SOURCE
#include "lw_spinlock.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 64

static unsigned long iterations;
static int threads;
static const char *running = "";
static pthread_barrier_t start;

static lw_tas_lock_t tas = LW_TAS_LOCK_INIT;
static lw_ticket_lock_t ticket = LW_TICKET_LOCK_INIT;
static lw_mcs_lock_t mcs = LW_MCS_LOCK_INIT;
static lw_spinlock_t spin = LW_SPINLOCK_INIT;
static lw_rwlock_t rw = LW_RWLOCK_INIT;

static unsigned long count, inside, overlaps, readers_seen_writer;

enum algo { TAS, TICKET, MCS, SPIN, RWLOCK };
static enum algo algo;

static void enter(void)
{
	if (inside++ != 0)
		overlaps++;
	count++;
	inside--;
}

static void *worker(void *arg)
{
	long index = (long)arg;
	pthread_barrier_wait(&start);
	for (unsigned long i = 0; i < iterations; i++) {
		switch (algo) {
		case TAS: lw_tas_lock(&tas); enter(); lw_tas_unlock(&tas); break;
		case TICKET: lw_ticket_lock(&ticket); enter(); lw_ticket_unlock(&ticket); break;
		case MCS: {
			lw_mcs_node_t node;
			lw_mcs_lock(&mcs, &node);
			enter();
			lw_mcs_unlock(&mcs, &node);
			break;
		}
		case SPIN: lw_spin_lock(&spin); enter(); lw_spin_unlock(&spin); break;
		case RWLOCK:
			/* A quarter of the threads write, the rest read (and count under the read lock
			 * only that no writer is inside). */
			if (index % 4 == 0) {
				lw_write_lock(&rw);
				enter();
				lw_write_unlock(&rw);
			} else {
				lw_read_lock(&rw);
				if (__atomic_load_n(&inside, __ATOMIC_RELAXED) != 0)
					__atomic_fetch_add(&readers_seen_writer, 1, __ATOMIC_RELAXED);
				lw_read_unlock(&rw);
			}
			break;
		}
	}
	return 0;
}

static void convoy(int sig)
{
	(void)sig;
	static const char msg[] = ": did not finish within the bound (a convoy: waiters spin while the lock waits for a preempted thread)\n";
	(void)!write(1, running, strlen(running));
	(void)!write(1, msg, sizeof msg - 1);
	_exit(1);
}

static int run(enum algo a, const char *name, unsigned bound)
{
	pthread_t t[MAX_THREADS];
	algo = a;
	running = name;
	count = inside = overlaps = readers_seen_writer = 0;
	pthread_barrier_init(&start, 0, (unsigned)threads);
	alarm(bound);
	for (long i = 0; i < threads; i++)
		if (pthread_create(&t[i], 0, worker, (void *)i) != 0) {
			perror("pthread_create");
			exit(2);
		}
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], 0);
	alarm(0);
	pthread_barrier_destroy(&start);
	unsigned long want = a == RWLOCK ? (unsigned long)((threads + 3) / 4) * iterations
					  : (unsigned long)threads * iterations;
	printf("%s-oversubscribed: count %lu (expected %lu)\n", name, count, want);
	printf("%s-oversubscribed: overlaps %lu (expected 0)\n", name, overlaps + readers_seen_writer);
	printf("%s-oversubscribed: within bound\n", name);
	fflush(stdout);
	return count == want && overlaps == 0 && readers_seen_writer == 0;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: oversub_stress ITERS BOUND_SECONDS\n");
		return 2;
	}
	iterations = strtoul(argv[1], 0, 10);
	unsigned bound = (unsigned)strtoul(argv[2], 0, 10);
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	threads = (int)(cpus < 1 ? 4 : 4 * cpus > MAX_THREADS ? MAX_THREADS : 4 * cpus);
	signal(SIGALRM, convoy);
	setvbuf(stdout, 0, _IOLBF, 0);
	printf("oversubscribed: %d threads on %ld CPUs\n", threads, cpus);
	int ok = 1;
	ok &= run(TAS, "tas", bound);
	ok &= run(TICKET, "ticket", bound);
	ok &= run(MCS, "mcs", bound);
	ok &= run(SPIN, "spinlock", bound);
	ok &= run(RWLOCK, "rwlock", bound);
	printf(ok ? "oversubscribed: all passed\n" : "oversubscribed: FAILED\n");
	return ok ? 0 : 1;
}
