#include "gp.h"
void gp_request(struct gp *g) { atomic_fetch_add(&g->requests, 1); }
