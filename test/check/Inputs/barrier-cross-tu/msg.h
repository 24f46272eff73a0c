// A message one file publishes and another consumes: a C11 flag with data beside it.
#include <stdatomic.h>

struct msg {
  int data;
  int len;
  atomic_int ready;
};

extern struct msg box;

// Both sides in one header, so every file that includes it sees the pair (and judges it itself).
static inline void send_inline(struct msg *m, int v) {
  m->data = v;
  atomic_store_explicit(&m->ready, 1, memory_order_relaxed);
}
static inline int receive_inline(struct msg *m) {
  if (atomic_load_explicit(&m->ready, memory_order_relaxed))
    return m->data;
  return -1;
}

void send(int v);
int receive(void);
int receive_ok(void);
