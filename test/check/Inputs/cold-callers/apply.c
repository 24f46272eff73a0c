#include "endpoint.h"
void ep_apply(struct endpoint *e, int opt, unsigned long v)
{
	if (opt == 1)
		ep_set_rcvbuf(e, v);
	else
		ep_reset_drops(e);
}
