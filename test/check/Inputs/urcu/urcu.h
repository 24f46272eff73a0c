/* A stand-in for liburcu's urcu/arch/generic.h, urcu/system.h and urcu/pointer.h macros. */
#ifndef TEST_URCU_H
#define TEST_URCU_H
#define cmm_barrier() __asm__ __volatile__("" : : : "memory")
#define caa_cpu_relax() __asm__ __volatile__("rep; nop" : : : "memory")
#define cmm_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define cmm_rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define cmm_wmb() __atomic_thread_fence(__ATOMIC_RELEASE)
#define cmm_smp_mb() cmm_mb()
#define cmm_smp_rmb() cmm_rmb()
#define cmm_smp_wmb() cmm_wmb()
#define CMM_ACCESS_ONCE(x) (*(__volatile__ __typeof__(x) *)&(x))
#define CMM_LOAD_SHARED(p) ({ cmm_barrier(); CMM_ACCESS_ONCE(p); })
#define CMM_STORE_SHARED(x, v) ({ __typeof__(x) _v = (v); CMM_ACCESS_ONCE(x) = _v; })
#define rcu_dereference(p) CMM_LOAD_SHARED(p)
#define rcu_assign_pointer(p, v) do { cmm_wmb(); CMM_STORE_SHARED(p, v); } while (0)
#define uatomic_load(addr, mo) __atomic_load_n(addr, mo)
#define uatomic_store(addr, v, mo) __atomic_store_n(addr, v, mo)
#define CMM_RELAXED __ATOMIC_RELAXED
#define CMM_ACQUIRE __ATOMIC_ACQUIRE
#define CMM_RELEASE __ATOMIC_RELEASE
#define CMM_SEQ_CST __ATOMIC_SEQ_CST
#endif
