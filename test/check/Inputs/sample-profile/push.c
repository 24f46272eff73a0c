#include "queue.h"

long q_limit = 1 << 20;

void q_push(struct queue *q) {
  if (atomic_fetch_add(&q->head, 1) > q_limit)
    q_drop(q);
}
