#include "msg.h"

// The reader: the flag relaxed, then the data, with nothing between.
int receive(void) {
  if (atomic_load_explicit(&box.ready, memory_order_relaxed))
    return box.data + box.len;
  return -1;
}

// Ordered: nothing to say.
int receive_ok(void) {
  if (atomic_load_explicit(&box.ready, memory_order_acquire))
    return box.data;
  return -1;
}

static int note;
static atomic_int noted;
struct local {
  long value;
  atomic_int set;
};
struct local theirs;

int peek(void) {
  if (atomic_load_explicit(&noted, memory_order_relaxed))
    return note;
  if (atomic_load_explicit(&theirs.set, memory_order_relaxed))
    return (int)theirs.value;
  return -1;
}
