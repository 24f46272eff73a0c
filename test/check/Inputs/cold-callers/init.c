#include "endpoint.h"
/* An initialiser writes an endpoint of its own: that says nothing about when its callees run,
   which may be on every connection. */
void ep_init(struct endpoint *e) { ep_set_rcvbuf(e, 4096); }
