#include "counters.h"

void count_hit(struct counters *c) { atomic_fetch_add(&c->hits, 1); }
void sent(struct traffic *t) { atomic_fetch_add(&t->sent, 1); }
void take_first(struct lock_pair *p) { spin_lock(&p->first); }
