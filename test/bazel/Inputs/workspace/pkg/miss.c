#include "counters.h"

void count_miss(struct counters *c) { atomic_fetch_add(&c->misses, 1); }
void received(struct traffic *t) { atomic_fetch_add(&t->received, 1); }
void take_second(struct lock_pair *p) { spin_lock(&p->second); }
