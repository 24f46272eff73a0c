#include "endpoint.h"
static int check_opt(int opt) { return opt > 0; }
int ep_setsockopt(struct endpoint *e, int opt, unsigned long v)
{
	if (!check_opt(opt))
		return -1;
	ep_apply(e, opt, v);
	return 0;
}
