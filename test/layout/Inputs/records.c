/* Records for the `lockwright layout` tests. */
#include <pthread.h>
#include <stdatomic.h>

/* Packed so that 'seq' straddles the first 64-byte line. */
struct __attribute__((packed)) wire {
	char pad[62];
	atomic_int seq;
	unsigned flags : 3, kind : 7;
	pthread_spinlock_t lock;
};

struct conn {
	pthread_spinlock_t lock;
	char state;
	long guarded;
	atomic_long hits;
	char name[40];
	long tail[9];
	const int max;
};
void conn_guarded(struct conn *c) { pthread_spin_lock(&c->lock); c->guarded++; pthread_spin_unlock(&c->lock); }
void conn_hit(struct conn *c) { atomic_fetch_add(&c->hits, 1); }

/* Separated at 64 bytes: fine on x86_64, not on ppc64 (128). */
struct split64 {
	_Alignas(64) atomic_long produced;
	_Alignas(64) atomic_long consumed;
};
void produce(struct split64 *s) { atomic_fetch_add(&s->produced, 1); }
void consume(struct split64 *s) { atomic_fetch_add(&s->consumed, 1); }

/* Writers of 'wire': without them nothing says its objects are written. */
void wire_publish(struct wire *w) { atomic_fetch_add(&w->seq, 1); }
void wire_lock(struct wire *w) { pthread_spin_lock(&w->lock); }
