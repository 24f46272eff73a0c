#include <sysstats.h>
struct sysstats st;
void count_hit(void) { atomic_fetch_add(&st.hits, 1); }
void count_miss(void) { atomic_fetch_add(&st.misses, 1); }
