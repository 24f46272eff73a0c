/* Included by both TUs under two spellings; its finding is reported once. */
#include <stdatomic.h>
struct shared_stats {
	atomic_long hits;
	atomic_long misses;
};
static inline void hit(struct shared_stats *s) { atomic_fetch_add(&s->hits, 1); }
static inline void miss(struct shared_stats *s) { atomic_fetch_add(&s->misses, 1); }
