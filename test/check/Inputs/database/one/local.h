#include <stdatomic.h>
struct one_counters {
	atomic_int produced;
	atomic_int consumed;
};
