/* A stand-in for Concurrency Kit's ck_pr.h (include/gcc/ck_pr.h): inline functions, as ck defines them. */
#ifndef TEST_CK_PR_H
#define TEST_CK_PR_H
#define CK_CC_INLINE inline __attribute__((unused))
static CK_CC_INLINE void ck_pr_barrier(void) { __asm__ __volatile__("" ::: "memory"); }
static CK_CC_INLINE void ck_pr_fence_store(void) { __atomic_thread_fence(__ATOMIC_RELEASE); }
static CK_CC_INLINE void ck_pr_fence_load(void) { __atomic_thread_fence(__ATOMIC_ACQUIRE); }
static CK_CC_INLINE void ck_pr_fence_memory(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static CK_CC_INLINE void ck_pr_fence_release(void) { __atomic_thread_fence(__ATOMIC_RELEASE); }
static CK_CC_INLINE void ck_pr_fence_acquire(void) { __atomic_thread_fence(__ATOMIC_ACQUIRE); }
static CK_CC_INLINE void ck_pr_stall(void) { __asm__ __volatile__("pause" ::: "memory"); }
static CK_CC_INLINE int ck_pr_load_int(const int *p) { return *(const volatile int *)p; }
static CK_CC_INLINE unsigned int ck_pr_load_uint(const unsigned int *p) { return *(const volatile unsigned int *)p; }
static CK_CC_INLINE void ck_pr_store_int(int *p, int v) { *(volatile int *)p = v; }
static CK_CC_INLINE void *ck_pr_load_ptr(const void *p) { return *(void *const volatile *)p; }
static CK_CC_INLINE void ck_pr_store_ptr(void *p, const void *v) { *(const void *volatile *)p = v; }
static CK_CC_INLINE unsigned int ck_pr_faa_uint(unsigned int *p, unsigned int d) { return __sync_fetch_and_add(p, d); }
static CK_CC_INLINE void ck_pr_inc_uint(unsigned int *p) { __sync_fetch_and_add(p, 1); }
static CK_CC_INLINE unsigned int ck_pr_fas_uint(unsigned int *p, unsigned int v) { return __atomic_exchange_n(p, v, __ATOMIC_RELAXED); }
#endif
