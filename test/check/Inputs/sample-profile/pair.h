struct pair {
  long a, b;
};
static inline void bump_a(struct pair *p) { __atomic_fetch_add(&p->a, 1, __ATOMIC_RELAXED); }
static inline void bump_b(struct pair *p) { __atomic_fetch_add(&p->b, 1, __ATOMIC_RELAXED); }
