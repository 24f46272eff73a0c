#include "endpoint.h"
void ep_enqueue(struct endpoint *e) { WRITE_ONCE(e->queued, e->queued + 1); }
void ep_drop(struct endpoint *e) { WRITE_ONCE(e->drops, e->drops + 1); }
