/* A record whose two fields are written in different files, always under its lock: set_b's
   own file holds no lock, its callers do. */
typedef struct { volatile unsigned int slock; } spinlock_t;
void spin_lock(spinlock_t *l);
void spin_unlock(spinlock_t *l);
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
struct pair {
	spinlock_t lock;
	long pad[8];
	unsigned long a;
	unsigned long b;
};
void set_b(struct pair *p); /* callers hold p->lock */
