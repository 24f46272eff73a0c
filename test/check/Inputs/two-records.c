#include <stdatomic.h>
struct pair {
	atomic_long a;
	atomic_long b;
};
void set_a(struct pair *p) { atomic_store(&p->a, 1); }
void set_b(struct pair *p) { atomic_store(&p->b, 2); }
