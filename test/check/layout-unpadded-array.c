// RUN: %lockwright check --quiet --checks=-*,layout-unpadded-array %s -- -std=gnu11 | FileCheck %s --implicit-check-not="warning:"
// RUN: %lockwright check --quiet --checks=-*,layout-unpadded-array --arch parisc --cpu pa8800 %s -- -std=gnu11 | FileCheck %s --check-prefix=PA8800 --implicit-check-not="of the host"
// RUN: cp %s %t.c && %lockwright check --quiet --checks=-*,layout-unpadded-array --fix %t.c -- -std=gnu11 > /dev/null
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t.c

#include <pthread.h>
#include <stdatomic.h>

typedef struct { volatile unsigned int lock[4]; } arch_spinlock_t;

/* The PA-RISC __atomic_hash: a hashed table of small locks, unpadded. */
arch_spinlock_t __atomic_hash[4];
// CHECK: :[[@LINE-1]]:17: warning: '__atomic_hash' is an array of locks with a 16-byte stride: each 64-byte destructive-interference window on x86_64 holds 4 elements [layout-unpadded-array]
// CHECK: note: wrap each 'arch_spinlock_t' in a type aligned to 64 bytes
// PA8800: warning: '__atomic_hash' is an array of locks with a 16-byte stride: each 128-byte destructive-interference window on parisc (cpu pa8800) holds 8 elements

/* The seed's 16 AO_t-style counters hammered by 32 threads: per-thread slots written as a[i]. */
typedef unsigned long counter_t;
counter_t counters[16];
// CHECK: :[[@LINE-1]]:11: warning: 'counters' is an array of per-thread slots (written as counters[i]) with a 8-byte stride
void *worker(void *arg) { long id = (long)arg; for (int i = 0; i < 1000; i++) counters[id % 16]++; return 0; }
void start_workers(pthread_t *t) { for (long i = 0; i < 32; i++) pthread_create(&t[i], 0, worker, (void *)i); }
/* Slots picked by the running thread or CPU: the kernel's smp_processor_id(), a thread-local, the
   C library's sched_getcpu(). */
int sched_getcpu(void);
#define raw_smp_processor_id() (sched_getcpu() & 7)
#define smp_processor_id() raw_smp_processor_id()
unsigned long cpu_events[8];
// CHECK: :[[@LINE-1]]:15: warning: 'cpu_events' is an array of per-thread slots (written as cpu_events[i]) with a 8-byte stride
void cpu_event_hit(void) { int cpu = smp_processor_id(); cpu_events[cpu] += 1; }
__thread int my_slot;
unsigned long slot_hits[8];
// CHECK: :[[@LINE-1]]:15: warning: 'slot_hits' is an array of per-thread slots (written as slot_hits[i]) with a 8-byte stride
void slot_hit(void) { slot_hits[my_slot & 7]++; }
/* Negative: slots picked by data, not by the thread (a histogram bucket, a counter's kind, a
   nesting depth): whoever counts updates whichever slot the data names. */
unsigned long length_histogram[16];
void count_length(unsigned int len) { length_histogram[len % 16]++; }
struct rss { int count[4]; };
void add_rss(struct rss *r, int member, int v) { r->count[member] += v; }

/* A record holding a lock and its data, defined here: the fix aligns the record. */
struct bucket {
	pthread_spinlock_t lock;
	int value;
};
// FIXED: struct __attribute__((aligned(64))) bucket {
struct bucket buckets[32];
// CHECK: :[[@LINE-1]]:15: warning: 'buckets' is an array of records holding locks with a 8-byte stride
// CHECK: note: aligning struct bucket to 64 bytes gives every element a window of its own

struct table {
	atomic_int slots[8];
};
// CHECK: :[[@LINE-2]]:13: warning: 'slots' is an array of atomics with a 4-byte stride: each 64-byte destructive-interference window on x86_64 holds 16 elements

/* Negative: padded elements, plain data, a single element. */
struct __attribute__((aligned(64))) padded_lock { pthread_spinlock_t lock; };
struct padded_lock padded_locks[8];
int plain_data[64];
pthread_mutex_t just_one[1];
int sum(void) { int s = 0; for (int i = 0; i < 64; i++) s += plain_data[i]; return s; }
/* Negative: per-thread units padded to a window (liburcu's DEFINE_PER_THREAD): each thread owns
   its whole inner array of counters. */
struct per_thread_counts { long long v[8] __attribute__((aligned(64))); } per_thread_counts[16];
void count_stage(int thread, int stage) { per_thread_counts[thread].v[stage]++; }
/* Negative: a function's own buffer written as buf[i] is no table of per-thread slots. */
int parse(const char *in) {
	char line[512];
	long prevs[16];
	for (int i = 0; i < 16 && in[i]; i++) {
		line[i] = in[i];
		prevs[i] = i;
	}
	return line[0] + (int)prevs[0];
}

/* Negative: a table of pointers published to lockless readers (rcu_assign_pointer, WRITE_ONCE)
   is updated by whoever registers an entry, not by one thread per element. */
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
struct handler;
struct handler *handlers[16];
void handler_set(int i, struct handler *h) { WRITE_ONCE(handlers[i], h); }
struct handler *handler_get(int i) { return READ_ONCE(handlers[i]); }
/* ... nor an array of records whose one word is read whole (page-table entries). */
typedef struct { unsigned long val; } entry_t;
entry_t entries[64];
unsigned long entry_get(int i) { return READ_ONCE(entries[i].val); }
/* Negative: an array of records whose word an RMW works on only through a pointer, which this
   file declares but never uses (the kernel's boot page tables): judged where it is used. */
typedef struct { unsigned long val; } pmd_t;
extern pmd_t boot_pmds[512];
unsigned long pmd_xchg(pmd_t *p, unsigned long v) { return __atomic_exchange_n(&p->val, v, __ATOMIC_SEQ_CST); }
/* Positive: the same, used here (by a function, or only by an initializer). */
extern pmd_t live_pmds[512];
unsigned long live_pmd(int i) { return live_pmds[i].val; }
// CHECK: :[[@LINE-2]]:14: warning: 'live_pmds' is an array of records holding atomics with a 8-byte stride
extern pmd_t table_pmds[512];
pmd_t *const pmd_table_base = table_pmds;
// CHECK: :[[@LINE-2]]:14: warning: 'table_pmds' is an array of records holding atomics with a 8-byte stride
/* Positive: a word an RMW works on is contended. */
long hits_by_cpu[8];
void hit(int cpu) { __atomic_fetch_add(&hits_by_cpu[cpu], 1, __ATOMIC_RELAXED); }
// CHECK: :[[@LINE-2]]:6: warning: 'hits_by_cpu' is an array of atomics with a 8-byte stride
/* Negative: one thread walking every slot in a loop is not a thread updating its own. */
unsigned int mask_words[4];
void mask_or(const unsigned int *other) { for (int i = 0; i < 4; i++) mask_words[i] |= other[i]; }
/* Negative: per CPU (DEFINE_PER_CPU's section; a record allocated per CPU): each CPU writes
   its own copy. */
__attribute__((section(".data..percpu"))) long cpu_hits[8];
__thread long thread_hits[8];
void thread_hit(int i) { __atomic_fetch_add(&thread_hits[i], 1, __ATOMIC_RELAXED); }
void cpu_hit(int i) { __atomic_fetch_add(&cpu_hits[i], 1, __ATOMIC_RELAXED); }
struct cpu_stat { long events[8]; };
void *__alloc_percpu(unsigned long size, unsigned long align);
struct cpu_stat *cpu_stats(void) { return __alloc_percpu(sizeof(struct cpu_stat), 8); }
void cpu_event(struct cpu_stat *s, int e) { __atomic_fetch_add(&s->events[e], 1, __ATOMIC_RELAXED); }
/* Negative: a variable is judged once, at its first declaration. */
extern long declared_twice[8];
long declared_twice[8];
void twice(int i) { __atomic_fetch_add(&declared_twice[i], 1, __ATOMIC_RELAXED); }
// CHECK: :[[@LINE-3]]:13: warning: 'declared_twice' is an array of atomics with a 8-byte stride
/* Negative: slots updated under a lock are written by one thread at a time (hugetlb's
   nr_huge_pages_node[nid] under hugetlb_lock), taken by the writer or by every caller of a
   static writer (eventpoll's path_count[] under epmutex). */
pthread_mutex_t pages_lock;
unsigned int pages_by_node[8];
void pages_add(void) { pthread_mutex_lock(&pages_lock); pages_by_node[smp_processor_id()]++; pthread_mutex_unlock(&pages_lock); }
unsigned int path_counts[8];
static void path_count_inc(void) { path_counts[smp_processor_id()]++; }
void path_check(void) { pthread_mutex_lock(&pages_lock); path_count_inc(); pthread_mutex_unlock(&pages_lock); }
/* Negative: slots filled at boot (an init section) or in an initialiser. */
unsigned long boot_load[8];
__attribute__((section(".init.text"))) void build_boot_load(void) { boot_load[smp_processor_id()] += 1; }
/* Positive: the same slots, also updated by a hot writer without a lock. */
unsigned long hot_load[8];
__attribute__((section(".init.text"))) void build_hot_load(void) { hot_load[smp_processor_id()] += 1; }
void hot_load_add(void) { hot_load[smp_processor_id()] += 1; }
// CHECK: :[[@LINE-3]]:15: warning: 'hot_load' is an array of per-thread slots (written as hot_load[i]) with a 8-byte stride
