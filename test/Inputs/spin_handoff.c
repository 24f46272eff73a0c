/* The default spinlock's handover when the queue's head is not running.
 *
 * main holds the lock; a first waiter queues and becomes the head; a signal then stops the
 * head inside its wait, as a preemption would. main unlocks (a handoff to that head), and a
 * newcomer arrives. Where waits may yield (hosted builds), the newcomer must take the
 * untaken handoff; where they spin forever (LW_SPIN_FOREVER) it must wait its turn behind
 * the head. Either way, once the head runs again both finish and the lock ends free.
 *
 *   spin_handoff   prints what happened; the lit test checks it per build.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "lw_spinlock.h"

static lw_spinlock_t lock = LW_SPINLOCK_INIT;
static volatile sig_atomic_t head_stopped, head_resume;
static volatile int head_got, newcomer_got, newcomer_first;

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, 0);
}

/* Runs in the head's thread, inside its wait: nothing else of that thread runs until resumed. */
static void stop_here(int sig)
{
	(void)sig;
	head_stopped = 1;
	while (!head_resume)
		sleep_ms(1);
}

static void *head(void *arg)
{
	(void)arg;
	lw_spin_lock(&lock);
	head_got = 1;
	lw_spin_unlock(&lock);
	return 0;
}

static void *newcomer(void *arg)
{
	(void)arg;
	lw_spin_lock(&lock);
	newcomer_got = 1;
	newcomer_first = !head_got;
	lw_spin_unlock(&lock);
	return 0;
}

/* Polls a flag for up to ms milliseconds. */
static int wait_for(volatile int *flag, long ms)
{
	for (long t = 0; t < ms && !*flag; t++)
		sleep_ms(1);
	return *flag;
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = stop_here;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, 0);

	pthread_t h, n;
	lw_spin_lock(&lock);
	pthread_create(&h, 0, head, 0);
	for (int t = 0; t < 5000 && !lw_read_once(lock.queue.tail); t++)
		sleep_ms(1);
	sleep_ms(20); /* the head is now polling the lock word */
	printf("head queued: %s\n", lw_read_once(lock.queue.tail) ? "yes" : "no");
	pthread_kill(h, SIGUSR1);
	for (int t = 0; t < 5000 && !head_stopped; t++)
		sleep_ms(1);
	printf("head stopped: %s\n", head_stopped ? "yes" : "no");

	lw_spin_unlock(&lock);
	printf("unlock: %s\n", (lw_read_once(lock.word) & LW__SPIN_HANDOFF) ? "handoff" : "free");

	pthread_create(&n, 0, newcomer, 0);
	printf("newcomer while the head is stopped: %s\n", wait_for(&newcomer_got, 1000) ? "took the lock" : "waits");

	head_resume = 1;
	pthread_join(h, 0);
	pthread_join(n, 0);
	printf("both done: head %d, newcomer %d, newcomer first %d\n", head_got, newcomer_got, newcomer_first);
	printf("lock free at the end: %s\n", lw_spin_is_locked(&lock) ? "no" : "yes");
	return 0;
}
