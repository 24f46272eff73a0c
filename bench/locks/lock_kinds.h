/* The locks the benchmarks compare, behind one C interface. Each kind's run()
 * takes and releases its lock n times, incrementing *counter inside, with the
 * lock calls inlined in its own loop: the harness pays one call per batch,
 * not per acquisition, so an inline lock is measured as users inline it. */
#ifndef LOCKWRIGHT_BENCH_LOCK_KINDS_H
#define LOCKWRIGHT_BENCH_LOCK_KINDS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Room for the largest lock (absl::Mutex, std::mutex, pthread objects). */
#define BENCH_LOCK_BYTES 128

struct lock_kind {
	const char *name;    /* "lw_ticket", "ck_mcs", "std_mutex", ... */
	const char *family;  /* "lockwright", "peer" or "floor" */
	const char *what;    /* one line for tables */
	void (*init)(void *lock);
	void (*destroy)(void *lock); /* may be NULL */
	void (*run)(void *lock, volatile unsigned long *counter, unsigned long n);
};

/* Kinds written in C (lockwright, ck, pthread, libatomic_ops, the floor). */
extern const struct lock_kind bench_c_kinds[];
extern const size_t bench_c_kind_count;
/* Kinds written in C++ (std::mutex, absl). */
extern const struct lock_kind bench_cxx_kinds[];
extern const size_t bench_cxx_kind_count;

#ifdef __cplusplus
}
#endif

#endif
