#include "gp.h"
void gp_advance(struct gp *g) { atomic_fetch_add(&g->seq, 1); }
