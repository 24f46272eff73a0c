#include <stdatomic.h>
struct one_counters {
	atomic_int produced;
	atomic_int consumed;
};
static inline void produce(struct one_counters *c) { atomic_fetch_add(&c->produced, 1); }
static inline void consume(struct one_counters *c) { atomic_fetch_add(&c->consumed, 1); }
