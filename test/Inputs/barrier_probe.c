/* One function per barrier kind, each compiled out of line so the disassembly
 * shows exactly the sequence the generated header emits for it. Built as C11
 * and as C++17 (-x c++) by the per-architecture barrier tests. */
#include "lw_barrier.h"

#ifdef __cplusplus
#define PROBE extern "C" __attribute__((__noinline__, __used__))
#else
#define PROBE __attribute__((__noinline__, __used__))
#endif

#if UINTPTR_MAX > 0xffffffffu
#define PROBE_64BIT_ACCESS 1
#endif

PROBE void probe_mb(void) { lw_mb(); }
PROBE void probe_rmb(void) { lw_rmb(); }
PROBE void probe_wmb(void) { lw_wmb(); }
PROBE void probe_acquire_after_ctrl_dep(void) { lw_acquire_after_ctrl_dep(); }
PROBE void probe_mb_before_atomic(void) { lw_mb_before_atomic(); }
PROBE void probe_mb_after_atomic(void) { lw_mb_after_atomic(); }
PROBE void probe_cpu_relax(void) { lw_cpu_relax(); }

PROBE uint8_t probe_load_acquire_1(const uint8_t *p) { return lw_load_acquire(p); }
PROBE uint16_t probe_load_acquire_2(const uint16_t *p) { return lw_load_acquire(p); }
PROBE uint32_t probe_load_acquire_4(const uint32_t *p) { return lw_load_acquire(p); }
PROBE void probe_store_release_1(uint8_t *p, uint8_t v) { lw_store_release(p, v); }
PROBE void probe_store_release_2(uint16_t *p, uint16_t v) { lw_store_release(p, v); }
PROBE void probe_store_release_4(uint32_t *p, uint32_t v) { lw_store_release(p, v); }
#ifdef PROBE_64BIT_ACCESS
PROBE uint64_t probe_load_acquire_8(const uint64_t *p) { return lw_load_acquire(p); }
PROBE void probe_store_release_8(uint64_t *p, uint64_t v) { lw_store_release(p, v); }
#endif

/* Pointers and signed types go through the same size dispatch. */
PROBE void *probe_load_acquire_ptr(void *const *p) { return lw_load_acquire(p); }
PROBE void probe_store_release_int(volatile int *p, int v) { lw_store_release(p, v); }

PROBE int probe_read_once(int *p) { return lw_read_once(*p); }
PROBE void probe_write_once(int *p, int v) { lw_write_once(*p, v); }

#ifdef __cplusplus
PROBE uint32_t probe_cxx_load_acquire(const uint32_t *p) { return lw::load_acquire(p); }
PROBE void probe_cxx_store_release(uint32_t *p, uint32_t v) { lw::store_release(p, v); }
PROBE void probe_cxx_mb(void) { lw::mb(); }
#endif
