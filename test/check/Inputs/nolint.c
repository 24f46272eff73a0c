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
