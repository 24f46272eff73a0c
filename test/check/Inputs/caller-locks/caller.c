#include "pair.h"
void update(struct pair *p) {
	spin_lock(&p->lock);
	WRITE_ONCE(p->a, 1);
	set_b(p);
	spin_unlock(&p->lock);
}
