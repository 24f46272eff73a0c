/* Two ways to wait for a flag, compiled for every architecture by
 * wait_barriers.py, which counts the ordering instructions each one runs per
 * wait iteration. */
#include "lw_barrier.h"
#include "lw_cond_wait.h"

/* The hand-written way: an acquire load on every poll. */
unsigned wait_acquire_each_poll(const volatile unsigned *flag, unsigned want)
{
	unsigned seen;
	while ((seen = lw_load_acquire(flag)) != want)
		lw_cpu_relax();
	return seen;
}

/* smp_cond_load_acquire: relaxed polls, ordered once after the loop. */
unsigned wait_cond_load_acquire(const volatile unsigned *flag, unsigned want)
{
	return lw_cond_load_acquire(flag, VAL == want);
}
