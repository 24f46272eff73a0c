/* Its own prototype first: this TU keys ep_set_rcvbuf by this line, set.c by the header's. */
struct endpoint;
void ep_set_rcvbuf(struct endpoint *e, unsigned long v);
#include "endpoint.h"
void ep_grow(struct endpoint *e) { ep_set_rcvbuf(e, 2 * e->queued); }
