/* Compile-time proof that the generated cache header has the expected
 * geometry and that its padding helpers lay objects out as promised on the
 * target's ABI. Expected values come from the test (-DEXPECT_*), not the spec. */
#include "lw_cache.h"

#include <stddef.h>

#ifdef __cplusplus
#define PROBE_ASSERT(cond) static_assert(cond, #cond)
#define PROBE_ALIGNOF(type) alignof(type)
#else
#define PROBE_ASSERT(cond) _Static_assert(cond, #cond)
#define PROBE_ALIGNOF(type) _Alignof(type)
#endif

PROBE_ASSERT(LW_L1_CACHE_BYTES == EXPECT_L1);
PROBE_ASSERT(LW_SMP_CACHE_BYTES == EXPECT_SMP);
PROBE_ASSERT(LW_DESTRUCTIVE_SIZE == EXPECT_DESTRUCTIVE);
PROBE_ASSERT(LW_CONSTRUCTIVE_SIZE == EXPECT_CONSTRUCTIVE);

/* Two hot counters, each alone in its destructive window. */
struct probe_counters {
	LW_PADDED(unsigned long, hits);
	LW_PADDED(unsigned long, misses);
};
PROBE_ASSERT(offsetof(struct probe_counters, misses) == EXPECT_DESTRUCTIVE);
PROBE_ASSERT(sizeof(struct probe_counters) == 2 * EXPECT_DESTRUCTIVE);

/* An object larger than a window takes whole windows (name arrays through a typedef). */
typedef char probe_bytes[EXPECT_DESTRUCTIVE + 1];
struct probe_big { LW_PADDED(probe_bytes, bytes); int after; };
PROBE_ASSERT(offsetof(struct probe_big, after) == 2 * EXPECT_DESTRUCTIVE);

struct probe_destructive { int x; } LW_DESTRUCTIVE_ALIGNED;
PROBE_ASSERT(PROBE_ALIGNOF(struct probe_destructive) == EXPECT_DESTRUCTIVE);
struct probe_line { int x; } LW_CACHELINE_ALIGNED;
PROBE_ASSERT(PROBE_ALIGNOF(struct probe_line) == EXPECT_SMP);

PROBE_ASSERT(LW_ROUND_UP_DESTRUCTIVE(1) == EXPECT_DESTRUCTIVE);
PROBE_ASSERT(LW_ROUND_UP_DESTRUCTIVE(EXPECT_DESTRUCTIVE) == EXPECT_DESTRUCTIVE);
PROBE_ASSERT(LW_PAD_BYTES(1) == EXPECT_DESTRUCTIVE - 1);
PROBE_ASSERT(LW_PAD_BYTES(EXPECT_DESTRUCTIVE) == 0);

#ifdef __cplusplus
struct probe_pair {
	lw::cache_padded<long> head;
	lw::cache_padded<long> tail;
};
PROBE_ASSERT(offsetof(probe_pair, tail) == EXPECT_DESTRUCTIVE);
PROBE_ASSERT(sizeof(lw::cache_padded<int>) == EXPECT_DESTRUCTIVE);
PROBE_ASSERT(lw::destructive_size == EXPECT_DESTRUCTIVE);
PROBE_ASSERT(lw::l1_cache_bytes == EXPECT_L1);

struct probe_point { int x, y; };

long probe_cxx_use(probe_pair &p, lw::cache_padded<probe_point> &q)
{
	*p.head += 1;
	*p.tail = *p.head;
	q->x = q->y;
	return *p.tail + q.value.x;
}
#endif

struct probe_counters probe_counters_instance;
