/* Multi-threaded stress of the generated barriers, run under qemu-user per
 * architecture (natively on the host). Every check has an exact expected
 * result; any reordering the barriers fail to forbid shows up as a count.
 *
 *  mp-wmb-rmb   message passing: data; wmb; flag  ||  flag; rmb; data
 *  mp-acq-rel   message passing: data; store_release(flag)  ||  load_acquire(flag); data
 *  mp-ctrl-dep  message passing, reader spins on read_once + cpu_relax, then acquire_after_ctrl_dep
 *  sb-mb        store buffering: x=1; mb; r1=y  ||  y=1; mb; r2=x  (r1 == r2 == 0 is forbidden)
 *  bakery       Lamport's bakery lock from plain accesses and mb; the counter it guards must be exact
 *  atomic       relaxed RMW bracketed by mb_before_atomic/mb_after_atomic; exact total
 *  rodata       acquire loads of const objects in .rodata, every size: an acquire load must be a
 *               load (LoongArch's was an atomic RMW, which faults on a read-only page)
 *
 * Threads come from stress_runtime.h: pthreads, or raw clone() where the
 * target has no libc (see stress_runtime_freestanding.h). */
#include "lw_barrier.h"
#include "stress_runtime.h"

#ifndef STRESS_THREADS
#define STRESS_THREADS 4
#endif

static unsigned long iterations = 20000;

/* One step of a spin-wait. Tests run more threads than the machine (or the
 * emulator) has cores, so a waiter yields now and then instead of burning the
 * slice the thread it waits for needs. */
static void spin_step(unsigned *spins)
{
	lw_cpu_relax();
	if ((++*spins & 63) == 0)
		stress_yield();
}

/* ---- message passing ------------------------------------------------------ */

#define MP_WORDS 4
static struct {
	unsigned long data[MP_WORDS];
	unsigned long flag;
	unsigned long ack;
	unsigned long errors;
	int variant;
} mp;

enum { MP_WMB_RMB, MP_ACQ_REL, MP_CTRL_DEP };

static void *mp_writer(void *arg)
{
	(void)arg;
	for (unsigned long i = 1; i <= iterations; i++) {
		for (int w = 0; w < MP_WORDS; w++)
			lw_write_once(mp.data[w], i);
		if (mp.variant == MP_WMB_RMB) {
			lw_wmb();
			lw_write_once(mp.flag, i);
		} else {
			lw_store_release(&mp.flag, i);
		}
		/* Do not overwrite the data until the reader has read it. */
		unsigned spins = 0;
		while (lw_load_acquire(&mp.ack) != i)
			spin_step(&spins);
	}
	return 0;
}

static void *mp_reader(void *arg)
{
	(void)arg;
	unsigned long errors = 0;
	for (unsigned long i = 1; i <= iterations; i++) {
		unsigned spins = 0;
		switch (mp.variant) {
		case MP_WMB_RMB:
			while (lw_read_once(mp.flag) != i)
				spin_step(&spins);
			lw_rmb();
			break;
		case MP_ACQ_REL:
			while (lw_load_acquire(&mp.flag) != i)
				spin_step(&spins);
			break;
		case MP_CTRL_DEP:
			while (lw_read_once(mp.flag) != i)
				spin_step(&spins);
			lw_acquire_after_ctrl_dep();
			break;
		}
		for (int w = 0; w < MP_WORDS; w++)
			if (lw_read_once(mp.data[w]) != i)
				errors++;
		lw_store_release(&mp.ack, i);
	}
	mp.errors = errors;
	return 0;
}

static int run_mp(int variant, const char *name)
{
	for (int w = 0; w < MP_WORDS; w++)
		mp.data[w] = 0;
	mp.flag = mp.ack = mp.errors = 0;
	mp.variant = variant;
	stress_thread t[2];
	stress_start(&t[0], mp_writer, 0);
	stress_start(&t[1], mp_reader, 0);
	stress_join(&t[0]);
	stress_join(&t[1]);
	stress_report(name, "stale reads", mp.errors, 0);
	return mp.errors == 0;
}

/* ---- store buffering -------------------------------------------------------- */

/* Like litmus7: each round both sides walk a batch of fresh location pairs in
 * lockstep, so their store/load windows overlap often enough for a missing
 * store->load barrier to show. */
#define SB_BATCH 256
static struct {
	unsigned long x[SB_BATCH], y[SB_BATCH];
	unsigned long r[2][SB_BATCH];
	unsigned long round;   /* both sides start round n when this reaches n */
	unsigned long done[2]; /* last round each side finished */
	unsigned long forbidden;
} sb;

static void *sb_side(void *arg)
{
	int me = (int)(long)arg;
	unsigned long *mine = me == 0 ? sb.x : sb.y;
	unsigned long *theirs = me == 0 ? sb.y : sb.x;
	unsigned long rounds = iterations / 64 + 1;
	for (unsigned long n = 1; n <= rounds; n++) {
		unsigned spins = 0;
		while (lw_load_acquire(&sb.round) != n)
			spin_step(&spins);
		for (int k = 0; k < SB_BATCH; k++) {
			lw_write_once(mine[k], n);
			lw_mb();
			sb.r[me][k] = lw_read_once(theirs[k]);
		}
		lw_store_release(&sb.done[me], n);
	}
	return 0;
}

static int run_sb(void)
{
	stress_thread t[2];
	unsigned long rounds = iterations / 64 + 1;
	for (int k = 0; k < SB_BATCH; k++)
		sb.x[k] = sb.y[k] = 0;
	sb.round = sb.forbidden = 0;
	sb.done[0] = sb.done[1] = 0;
	stress_start(&t[0], sb_side, (void *)0L);
	stress_start(&t[1], sb_side, (void *)1L);
	for (unsigned long n = 1; n <= rounds; n++) {
		unsigned spins = 0;
		lw_store_release(&sb.round, n);
		while (lw_load_acquire(&sb.done[0]) != n || lw_load_acquire(&sb.done[1]) != n)
			spin_step(&spins);
		/* Each side wrote n before its mb; seeing neither store is the forbidden outcome. */
		for (int k = 0; k < SB_BATCH; k++)
			if (sb.r[0][k] < n && sb.r[1][k] < n)
				sb.forbidden++;
	}
	stress_join(&t[0]);
	stress_join(&t[1]);
	stress_report("sb-mb", "forbidden outcomes", sb.forbidden, 0);
	return sb.forbidden == 0;
}

/* ---- bakery lock ------------------------------------------------------------ */

static struct {
	unsigned long choosing[STRESS_THREADS];
	unsigned long number[STRESS_THREADS];
	unsigned long counter; /* plain: only the lock protects it */
} bakery;

static void bakery_lock(int me)
{
	lw_write_once(bakery.choosing[me], 1);
	lw_mb();
	unsigned long max = 0;
	for (int j = 0; j < STRESS_THREADS; j++) {
		unsigned long n = lw_read_once(bakery.number[j]);
		if (n > max)
			max = n;
	}
	lw_write_once(bakery.number[me], max + 1);
	lw_mb();
	lw_write_once(bakery.choosing[me], 0);
	lw_mb();
	for (int j = 0; j < STRESS_THREADS; j++) {
		if (j == me)
			continue;
		while (lw_read_once(bakery.choosing[j]))
			stress_yield();
		for (;;) {
			unsigned long n = lw_read_once(bakery.number[j]);
			if (n == 0 || n > max + 1 || (n == max + 1 && j > me))
				break;
			stress_yield();
		}
	}
	lw_mb();
}

static void bakery_unlock(int me) { lw_store_release(&bakery.number[me], 0); }

static void *bakery_worker(void *arg)
{
	int me = (int)(long)arg;
	unsigned long rounds = iterations / 4;
	for (unsigned long i = 0; i < rounds; i++) {
		bakery_lock(me);
		bakery.counter = bakery.counter + 1;
		bakery_unlock(me);
	}
	return 0;
}

static int run_bakery(void)
{
	bakery.counter = 0;
	stress_run_threads(STRESS_THREADS, bakery_worker);
	unsigned long expected = (unsigned long)STRESS_THREADS * (iterations / 4);
	stress_report("bakery", "counter", bakery.counter, expected);
	return bakery.counter == expected;
}

/* ---- atomic RMW with mb before/after ---------------------------------------- */

static struct {
	unsigned long total;
	unsigned long published; /* plain data published through the RMW */
	unsigned long errors;
} at;

static void *atomic_worker(void *arg)
{
	(void)arg;
	for (unsigned long i = 0; i < iterations; i++) {
		lw_mb_before_atomic();
		__atomic_fetch_add(&at.total, 1, __ATOMIC_RELAXED);
		lw_mb_after_atomic();
	}
	return 0;
}

static int run_atomic(void)
{
	at.total = 0;
	stress_run_threads(STRESS_THREADS, atomic_worker);
	unsigned long expected = (unsigned long)STRESS_THREADS * iterations;
	stress_report("atomic", "total", at.total, expected);
	return at.total == expected;
}

/* ---- acquire loads of read-only objects ----------------------------------- */

static const uint8_t ro_u8 = 0x5a;
static const uint16_t ro_u16 = 0x5a5a;
static const uint32_t ro_u32 = 0x5a5a5a5au;
#if __SIZEOF_POINTER__ == 8
static const uint64_t ro_u64 = 0x5a5a5a5a5a5a5a5aull;
#endif

static int run_rodata(void)
{
	unsigned long right = 0, expected = 3;
	right += lw_load_acquire(&ro_u8) == 0x5a;
	right += lw_load_acquire(&ro_u16) == 0x5a5a;
	right += lw_load_acquire(&ro_u32) == 0x5a5a5a5au;
#if __SIZEOF_POINTER__ == 8
	right += lw_load_acquire(&ro_u64) == 0x5a5a5a5a5a5a5a5aull;
	expected++;
#endif
	stress_report("rodata", "acquire loads right", right, expected);
	return right == expected;
}

int stress_main(int argc, char **argv)
{
	if (argc > 1)
		iterations = stress_parse(argv[1]);
	int ok = 1;
	ok &= run_mp(MP_WMB_RMB, "mp-wmb-rmb");
	ok &= run_mp(MP_ACQ_REL, "mp-acq-rel");
	ok &= run_mp(MP_CTRL_DEP, "mp-ctrl-dep");
	ok &= run_sb();
	ok &= run_bakery();
	ok &= run_atomic();
	ok &= run_rodata();
	stress_print(ok ? "stress: all passed\n" : "stress: FAILED\n");
	return ok ? 0 : 1;
}
