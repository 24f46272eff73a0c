/* A small stand-in for the kernel's barrier, ONCE and atomic headers, written the way
 * include/asm-generic/barrier.h and include/linux/compiler.h define them (arm64 flavour):
 * the checker must recognise the macros at their expansion sites, never from their bodies. */
#ifndef TEST_KERNEL_BARRIER_H
#define TEST_KERNEL_BARRIER_H

#define barrier() __asm__ __volatile__("" : : : "memory")
#define __smp_mb() __asm__ __volatile__("dmb ish" : : : "memory")
#define __smp_rmb() __asm__ __volatile__("dmb ishld" : : : "memory")
#define __smp_wmb() __asm__ __volatile__("dmb ishst" : : : "memory")
#define smp_mb() do { __smp_mb(); } while (0)
#define smp_rmb() do { __smp_rmb(); } while (0)
#define smp_wmb() do { __smp_wmb(); } while (0)

#define __READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define READ_ONCE(x) ({ __READ_ONCE(x); })
#define WRITE_ONCE(x, val) do { *(volatile __typeof__(x) *)&(x) = (val); } while (0)

#define smp_store_release(p, v) do { barrier(); __atomic_store_n(p, v, __ATOMIC_RELEASE); } while (0)
#define smp_load_acquire(p) __atomic_load_n(p, __ATOMIC_ACQUIRE)
#define smp_mb__before_atomic() barrier()
#define smp_mb__after_atomic() barrier()

static inline void cpu_relax(void) { __asm__ __volatile__("yield" : : : "memory"); }
#define smp_cond_load_relaxed(ptr, cond_expr) ({ \
	__typeof__(ptr) __PTR = (ptr); \
	__typeof__(*ptr) VAL; \
	for (;;) { \
		VAL = READ_ONCE(*__PTR); \
		if (cond_expr) \
			break; \
		cpu_relax(); \
	} \
	VAL; \
})
#define smp_cond_load_acquire(ptr, cond_expr) ({ \
	__typeof__(*ptr) _val = smp_cond_load_relaxed(ptr, cond_expr); \
	__atomic_thread_fence(__ATOMIC_ACQUIRE); \
	_val; \
})

#define rcu_assign_pointer(p, v) smp_store_release(&(p), v)
#define rcu_dereference(p) READ_ONCE(p)

typedef struct { int counter; } atomic_t;
static inline int atomic_read(const atomic_t *v) { return __READ_ONCE(v->counter); }
static inline void atomic_inc(atomic_t *v) { __atomic_fetch_add(&v->counter, 1, __ATOMIC_RELAXED); }
static inline int atomic_inc_return(atomic_t *v) { return __atomic_add_fetch(&v->counter, 1, __ATOMIC_SEQ_CST); }

typedef struct { int locked; } spinlock_t;
void spin_lock(spinlock_t *l);
void spin_unlock(spinlock_t *l);

void *kmalloc(unsigned long size, int flags);
void *kzalloc(unsigned long size, int flags);
#define lockdep_assert_held(l) do { (void)(l); } while (0)
int _printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define pr_info(fmt, ...) _printk(fmt, ##__VA_ARGS__)
#endif
