#include <stdatomic.h>
struct stats { atomic_long hits; atomic_long misses; };
struct stats g;
void hit(void) { atomic_fetch_add(&g.hits, 1); }
void miss(void) { atomic_fetch_add(&g.misses, 1); }
int flag, data;
void publish(int v) { data = v; __atomic_store_n(&flag, 1, __ATOMIC_RELAXED); }
