/* A client advances the grace period itself: gp_advance also runs on client threads. */
#include "gp.h"
void gp_kick(struct gp *g) { gp_advance(g); }
void *kicker(void *arg) { gp_kick(arg); return 0; }
