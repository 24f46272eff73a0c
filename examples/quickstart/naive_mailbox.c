/* The mailbox of mailbox.c as it is often first written: head and tail side by
 * side, and a table of per-thread statistics packed one word apart. It works,
 * and every message bounces one cache line between the two threads.
 * `scripts/quickstart` runs `lockwright check` on it to show the findings. */
#include <stdatomic.h>

#define SLOTS 64
#define THREADS 8

struct mailbox {
	_Atomic unsigned long head; /* written by the producer only */
	_Atomic unsigned long tail; /* written by the consumer only */
	unsigned long slot[SLOTS];
};

static unsigned long delivered[THREADS]; /* one slot per thread */

void produce(struct mailbox *box, unsigned long n, unsigned long value)
{
	while (n - atomic_load_explicit(&box->tail, memory_order_acquire) > SLOTS)
		;
	box->slot[n % SLOTS] = value;
	atomic_store_explicit(&box->head, n, memory_order_release);
}

unsigned long consume(struct mailbox *box, unsigned long n, int thread)
{
	while (atomic_load_explicit(&box->head, memory_order_acquire) < n)
		;
	unsigned long value = box->slot[n % SLOTS];
	atomic_store_explicit(&box->tail, n, memory_order_release);
	delivered[thread] = delivered[thread] + 1;
	return value;
}
