#include "msg.h"

struct msg box;

// The writer: data, then the flag, relaxed. Its reader is in reader.c.
void send(int v) {
  box.data = v;
  box.len = 1;
  atomic_thread_fence(memory_order_release);
  atomic_store_explicit(&box.ready, 1, memory_order_relaxed);
}

void send_late(int v) {
  box.len = v;
  atomic_store_explicit(&box.ready, 1, memory_order_relaxed);
}

// This file's own flag and record: reader.c has others of the same names, never paired with these.
static int note;
static atomic_int noted;
struct local {
  int value;
  atomic_int set;
};
struct local mine;

void jot(int v) {
  note = v;
  mine.value = v;
  atomic_store_explicit(&noted, 1, memory_order_release);
  atomic_store_explicit(&mine.set, 1, memory_order_release);
}

// Unordered, and reader.c's receive_ok reads with acquire: a release finding across files
// would rest on that reader's care alone, which on real code pairs initialisers (a refcount
// set on a fresh object) with unrelated ordered readers. Judged only within one TU.
void send_data_late(int v) {
  box.data = v;
  atomic_store_explicit(&box.ready, 1, memory_order_relaxed);
}
