#include "pair.h"
/* One call without the lock: set_b no longer runs under it. */
void race(struct pair *p) { set_b(p); }
