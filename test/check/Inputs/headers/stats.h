#include <stdatomic.h>
struct stats {
	atomic_long hits;
	atomic_long misses;
};
