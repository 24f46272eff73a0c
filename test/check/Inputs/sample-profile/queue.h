#include <stdatomic.h>

struct queue {
  atomic_long head;    /* q_push: the producers' hot path */
  atomic_long tail;    /* advance_tail, inlined into q_pop: the consumers' */
  atomic_long resized; /* q_resize: when an administrator resizes the queue */
  atomic_long drops;   /* q_drop: when the queue is full; q_reset */
};

void q_push(struct queue *q);
void q_pop(struct queue *q);
void q_resize(struct queue *q, long n);
void q_drop(struct queue *q);
void q_reset(struct queue *q);
