#include <stdatomic.h>
// NOLINTBEGIN(layout-false-sharing)
struct covered {
	atomic_long a;
	atomic_long b;
};
// NOLINTEND(layout-*)
struct after_mismatched_end {
	atomic_long c;
	atomic_long d;
};
void wa(struct covered *p) { atomic_store(&p->a, 1); }
void wb(struct covered *p) { atomic_store(&p->b, 1); }
void wc(struct after_mismatched_end *p) { atomic_store(&p->c, 1); }
void wd(struct after_mismatched_end *p) { atomic_store(&p->d, 1); }
