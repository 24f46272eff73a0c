#include "endpoint.h"
void ep_set_rcvbuf(struct endpoint *e, unsigned long v) { WRITE_ONCE(e->rcvbuf, v); }
void ep_reset_drops(struct endpoint *e) { WRITE_ONCE(e->drops, 0); }
