#include "stats.h"
struct local {
	atomic_long sent;
	atomic_long received;
};
void hit(struct stats *s) { atomic_fetch_add(&s->hits, 1); }
void miss(struct stats *s) { atomic_fetch_add(&s->misses, 1); }
void send(struct local *l) { atomic_fetch_add(&l->sent, 1); }
void receive(struct local *l) { atomic_fetch_add(&l->received, 1); }
