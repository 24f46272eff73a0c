#include <stdatomic.h>

/* A lock word and its waiter count: the slow path writes both, the fast paths one each. */
struct joint {
  atomic_long word;
  atomic_long waiters;
};

void fast_take(struct joint *j) { atomic_fetch_add(&j->word, 1); }
void fast_wake(struct joint *j) { atomic_fetch_sub(&j->waiters, 1); }
void slow_wait(struct joint *j) {
  atomic_fetch_add(&j->waiters, 1);
  atomic_fetch_or(&j->word, 2);
}
