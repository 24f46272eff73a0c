/* One out-of-line function per lock operation, so the per-architecture tests
 * can FileCheck each one's disassembly. Built as C11 and as C++17. */
#include "lw_counter.h"
#include "lw_lockhash.h"
#include "lw_spinlock.h"

#ifdef __cplusplus
#include "lw_spinlock.hpp"
#define PROBE extern "C" __attribute__((__noinline__, __used__))
#else
#define PROBE __attribute__((__noinline__, __used__))
#endif

/* The lock word's alignment, when the test states it (PA-RISC ldcw: 16). */
#ifdef EXPECT_LOCK_ALIGN
#ifdef __cplusplus
static_assert(alignof(lw_tas_lock_t) == EXPECT_LOCK_ALIGN, "TAS lock word alignment");
static_assert(sizeof(lw_tas_lock_t) == EXPECT_LOCK_ALIGN, "TAS lock word padded to its alignment");
#else
_Static_assert(_Alignof(lw_tas_lock_t) == EXPECT_LOCK_ALIGN, "TAS lock word alignment");
_Static_assert(sizeof(lw_tas_lock_t) == EXPECT_LOCK_ALIGN, "TAS lock word padded to its alignment");
#endif
#endif

/* Waits */
PROBE uint32_t probe_cond_load_acquire_4(volatile uint32_t *p) { return lw_cond_load_acquire(p, VAL != 0); }
PROBE uint32_t probe_cond_load_relaxed_4(volatile uint32_t *p) { return lw_cond_load_relaxed(p, VAL == 7); }
/* Signed narrow values: the wait sequence must compare them zero-extended. */
PROBE int8_t probe_cond_load_relaxed_s1(volatile int8_t *p) { return lw_cond_load_relaxed(p, VAL == 5); }
PROBE int16_t probe_cond_load_relaxed_s2(volatile int16_t *p) { return lw_cond_load_relaxed(p, VAL == 5); }

/* Test-and-set */
PROBE void probe_tas_lock(lw_tas_lock_t *l) { lw_tas_lock(l); }
PROBE int probe_tas_trylock(lw_tas_lock_t *l) { return lw_tas_trylock(l); }
PROBE void probe_tas_unlock(lw_tas_lock_t *l) { lw_tas_unlock(l); }

/* Ticket */
PROBE void probe_ticket_lock(lw_ticket_lock_t *l) { lw_ticket_lock(l); }
PROBE int probe_ticket_trylock(lw_ticket_lock_t *l) { return lw_ticket_trylock(l); }
PROBE void probe_ticket_unlock(lw_ticket_lock_t *l) { lw_ticket_unlock(l); }

/* MCS */
PROBE void probe_mcs_lock(lw_mcs_lock_t *l, lw_mcs_node_t *n) { lw_mcs_lock(l, n); }
PROBE int probe_mcs_trylock(lw_mcs_lock_t *l, lw_mcs_node_t *n) { return lw_mcs_trylock(l, n); }
PROBE void probe_mcs_unlock(lw_mcs_lock_t *l, lw_mcs_node_t *n) { lw_mcs_unlock(l, n); }

/* CLH: the caller's node goes in, its predecessor's comes back out. */
PROBE void probe_clh_lock(lw_clh_lock_t *l, lw_clh_node_t *n) { lw_clh_lock(l, n); }
PROBE void probe_clh_unlock(lw_clh_node_t **n) { lw_clh_unlock(n); }

/* Reader-writer */
PROBE void probe_read_lock(lw_rwlock_t *l) { lw_read_lock(l); }
PROBE void probe_read_unlock(lw_rwlock_t *l) { lw_read_unlock(l); }
PROBE int probe_write_trylock(lw_rwlock_t *l) { return lw_write_trylock(l); }
PROBE void probe_write_lock(lw_rwlock_t *l) { lw_write_lock(l); }
PROBE void probe_write_unlock(lw_rwlock_t *l) { lw_write_unlock(l); }

/* The default spinlock, the hashed table and the counters */
PROBE void probe_spin_lock(lw_spinlock_t *l) { lw_spin_lock(l); }
PROBE void probe_spin_unlock(lw_spinlock_t *l) { lw_spin_unlock(l); }
PROBE lw_spinlock_t *probe_lock_hash(lw_lockhash_t *t, const void *addr) { return lw_lock_hash(t, addr); }
PROBE void probe_counter_inc(lw_counter_t *c) { lw_counter_inc(c); }
PROBE unsigned long probe_counter_read(lw_counter_t *c) { return lw_counter_read(c); }

#ifdef __cplusplus
#if defined(__has_include) && __has_include(<mutex>)
#include <mutex>
#include <shared_mutex>
static lw::spinlock probe_default_lock;
static lw::rw_lock probe_rw;
static lw::tas_lock probe_tas_a, probe_tas_b;
PROBE int probe_cxx_lockables(int x)
{
	{
		std::lock_guard<lw::spinlock> guard(probe_default_lock);
		x++;
	}
	{
		std::scoped_lock both(probe_tas_a, probe_tas_b);
		x++;
	}
	{
		std::shared_lock<lw::rw_lock> reader(probe_rw);
		x++;
	}
	std::unique_lock<lw::rw_lock> writer(probe_rw, std::try_to_lock);
	return x + (writer.owns_lock() ? 1 : 0);
}
#endif
#if defined(__has_include) && __has_include(<atomic>)
#include <atomic>
PROBE unsigned probe_cxx_cond_load_atomic(const std::atomic<unsigned> *a)
{
	return lw::cond_load_acquire(*a, [](unsigned v) { return v > 3; });
}
#endif
#endif
