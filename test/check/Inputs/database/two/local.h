/* Same relative name as one/local.h, different file: must not be confused with it. */
#include <stdatomic.h>
#if 1
struct two_counters {
	atomic_long head;
	atomic_long tail;
};
#endif
