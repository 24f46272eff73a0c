#include "gp.h"
void *gp_thread(void *arg) {
	struct gp *g = arg;
	for (;;) {
		atomic_store(&g->state, 1);
		gp_advance(g);
		atomic_store(&g->state, 0);
	}
	return 0;
}
