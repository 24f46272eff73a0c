#include "endpoint.h"
/* A scratch endpoint per call, reset by its cleanup at every return: ep_reset_drops runs on
   the data path without a call expression. */
void ep_enqueue(struct endpoint *e);
void ep_scratch(void)
{
	struct endpoint e __attribute__((cleanup(ep_reset_drops))) = {0};
	ep_enqueue(&e);
}
