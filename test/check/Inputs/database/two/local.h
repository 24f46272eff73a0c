/* Same relative name as one/local.h, different file: must not be confused with it. */
#include <stdatomic.h>
#if 1
struct two_counters {
	atomic_long head;
	atomic_long tail;
};
static inline void push(struct two_counters *c) { atomic_fetch_add(&c->tail, 1); }
static inline void pop(struct two_counters *c) { atomic_fetch_add(&c->head, 1); }
#endif
