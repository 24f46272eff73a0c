#include <stdatomic.h>
struct sysstats { _Atomic long hits; _Atomic long misses; };
