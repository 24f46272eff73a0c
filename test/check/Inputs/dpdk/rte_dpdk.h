/* The DPDK names the checks' tests use, defined as DPDK 23.11 defines them without
 * RTE_ENABLE_STDATOMIC (rte_stdatomic.h, generic/rte_atomic.h, x86 rte_pause.h). */
#ifndef TEST_RTE_DPDK_H
#define TEST_RTE_DPDK_H
#include <stdint.h>
#define rte_memory_order_relaxed __ATOMIC_RELAXED
#define rte_memory_order_acquire __ATOMIC_ACQUIRE
#define rte_memory_order_release __ATOMIC_RELEASE
#define rte_memory_order_seq_cst __ATOMIC_SEQ_CST
#define RTE_ATOMIC(type) type
#define rte_atomic_load_explicit(ptr, memorder) __atomic_load_n(ptr, memorder)
#define rte_atomic_store_explicit(ptr, val, memorder) __atomic_store_n(ptr, val, memorder)
static inline void rte_atomic_thread_fence(int memorder) { __atomic_thread_fence(memorder); }
static inline void rte_pause(void) { __asm__ __volatile__("pause" ::: "memory"); }
static inline void rte_wait_until_equal_32(volatile uint32_t *addr, uint32_t expected, int memorder)
{
	while (__atomic_load_n(addr, memorder) != expected)
		rte_pause();
}
#endif
