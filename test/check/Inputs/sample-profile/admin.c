#include "queue.h"

void q_resize(struct queue *q, long n) { atomic_store(&q->resized, n); }
void q_drop(struct queue *q) { atomic_fetch_add(&q->drops, 1); }
void q_reset(struct queue *q) { atomic_store(&q->drops, 0); }
