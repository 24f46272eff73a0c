/* A single-producer/single-consumer mailbox built on lockwright's generated
 * headers: the producer fills a slot and publishes it with a release store,
 * the consumer waits with an acquire load. Head and tail each own a whole
 * destructive-interference window, so the two threads never false-share. */
#include "lw_barrier.h"
#include "lw_cache.h"

#include <pthread.h>
#include <stdio.h>

#define SLOTS 64
#define MESSAGES 1000000UL

struct mailbox {
	LW_PADDED(unsigned long, head); /* written by the producer only */
	LW_PADDED(unsigned long, tail); /* written by the consumer only */
	unsigned long slot[SLOTS];
};

static struct mailbox box;
static unsigned long received_sum, out_of_order;

static void *producer(void *arg)
{
	(void)arg;
	for (unsigned long n = 1; n <= MESSAGES; n++) {
		while (n - lw_load_acquire(&box.tail) > SLOTS) /* full: wait for the consumer */
			lw_cpu_relax();
		box.slot[n % SLOTS] = n;
		lw_store_release(&box.head, n); /* publish slot n */
	}
	return NULL;
}

static void *consumer(void *arg)
{
	(void)arg;
	for (unsigned long n = 1; n <= MESSAGES; n++) {
		while (lw_load_acquire(&box.head) < n) /* empty: wait for the producer */
			lw_cpu_relax();
		unsigned long v = box.slot[n % SLOTS];
		out_of_order += v != n;
		received_sum += v;
		lw_store_release(&box.tail, n); /* hand slot n back */
	}
	return NULL;
}

int main(void)
{
	pthread_t p, c;
	pthread_create(&c, NULL, consumer, NULL);
	pthread_create(&p, NULL, producer, NULL);
	pthread_join(p, NULL);
	pthread_join(c, NULL);

	unsigned long expected = MESSAGES * (MESSAGES + 1) / 2;
	printf("C11: L1 line %d, SMP line %d, destructive size %d bytes; head at offset %zu, tail at %zu\n",
	       LW_L1_CACHE_BYTES, LW_SMP_CACHE_BYTES, LW_DESTRUCTIVE_SIZE,
	       (size_t)((char *)&box.head - (char *)&box), (size_t)((char *)&box.tail - (char *)&box));
	printf("C11: %lu messages, sum %lu (expected %lu), %lu out of order\n", MESSAGES, received_sum, expected,
	       out_of_order);
	return received_sum == expected && out_of_order == 0 ? 0 : 1;
}
