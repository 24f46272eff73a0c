/* Records shared by hit.c, miss.c and reset.c: whether their fields are written independently
   is a question about all three files, not about any one of them. */
#include <stdatomic.h>

/* reset.c writes both in one function: used together, never reported. hit.c and miss.c alone
   would each see one writer per field. */
struct counters {
	atomic_long hits;
	atomic_long misses;
};

/* Written by hit.c and miss.c, never together: reported once, not once per file. */
struct traffic {
	atomic_long sent;
	atomic_long received;
};

/* One lock pair, embedded in 100 records: reported once, at the record that declares it. */
typedef struct { atomic_int word; } spinlock_t;
struct lock_pair {
	spinlock_t first;
	spinlock_t second;
};
#define HOLDER(n) struct holder##n { long plain; struct lock_pair pair; };
#define TEN(n) HOLDER(n##0) HOLDER(n##1) HOLDER(n##2) HOLDER(n##3) HOLDER(n##4) \
	HOLDER(n##5) HOLDER(n##6) HOLDER(n##7) HOLDER(n##8) HOLDER(n##9)
TEN(1) TEN(2) TEN(3) TEN(4) TEN(5) TEN(6) TEN(7) TEN(8) TEN(9) TEN(10)

void count_hit(struct counters *c);
void count_miss(struct counters *c);
void spin_lock(spinlock_t *lock);
