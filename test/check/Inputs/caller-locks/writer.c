#include "pair.h"
void set_b(struct pair *p) { WRITE_ONCE(p->b, 1); }
