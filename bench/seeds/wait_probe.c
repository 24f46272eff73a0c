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

/* wait-plain-variable's shape: a plain flag, which the compiler may read once. */
unsigned plain_flag;
void wait_plain(unsigned want)
{
	while (plain_flag != want)
		;
}

/* Its fix: read once per pass (READ_ONCE). */
void wait_read_once(unsigned want)
{
	while (lw_read_once(plain_flag) != want)
		;
}

/* wait-missing-relax's fix: the same poll with the relax hint. */
void wait_read_once_relax(unsigned want)
{
	while (lw_read_once(plain_flag) != want)
		lw_cpu_relax();
}
