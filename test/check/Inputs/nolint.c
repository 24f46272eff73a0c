#include <stdatomic.h>
struct quiet {
	atomic_long a;
	// NOLINTNEXTLINE(layout-*)
	atomic_long b;
	atomic_long c; // NOLINT
	atomic_long d; // NOLINT(layout-split-atomic): a different check
};
void wa(struct quiet *q) { atomic_store(&q->a, 1); }
void wb(struct quiet *q) { atomic_store(&q->b, 1); }
void wc(struct quiet *q) { atomic_store(&q->c, 1); }
void wd(struct quiet *q) { atomic_store(&q->d, 1); }
/* A by-design region: a block covers every line until its end. */
// NOLINTBEGIN(layout-false-sharing)
struct packed_by_design {
	atomic_long e;
	atomic_long f;
};
// NOLINTEND(layout-false-sharing)
struct after_block {
	atomic_long g;
	atomic_long h;
};
// NOLINTBEGIN(layout-split-atomic)
struct other_check_block {
	atomic_long i;
	atomic_long j;
};
// NOLINTEND(layout-split-atomic)
void we(struct packed_by_design *p) { atomic_store(&p->e, 1); }
void wf(struct packed_by_design *p) { atomic_store(&p->f, 1); }
void wg(struct after_block *p) { atomic_store(&p->g, 1); }
void wh(struct after_block *p) { atomic_store(&p->h, 1); }
void wi(struct other_check_block *p) { atomic_store(&p->i, 1); }
void wj(struct other_check_block *p) { atomic_store(&p->j, 1); }
