/* Included by both TUs under two spellings; its finding is reported once. */
#include <stdatomic.h>
struct shared_stats {
	atomic_long hits;
	atomic_long misses;
};
