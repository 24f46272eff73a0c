// Lock kinds in C++: std::mutex and abseil's Mutex and (internal) SpinLock.
#include "lock_kinds.h"

#include <mutex>
#include <new>

#ifdef BENCH_HAVE_ABSL
#include <absl/synchronization/mutex.h>
#if __has_include(<absl/base/internal/spinlock.h>)
#include <absl/base/internal/spinlock.h>
#define BENCH_HAVE_ABSL_SPINLOCK 1
#endif
#endif

namespace {

template <class Lock> void constructLock(void *P) { new (P) Lock(); }
template <class Lock> void destroyLock(void *P) { static_cast<Lock *>(P)->~Lock(); }

template <class Lock> void runLock(void *P, volatile unsigned long *Counter, unsigned long N) {
  Lock &L = *static_cast<Lock *>(P);
  for (unsigned long I = 0; I < N; ++I) {
    L.lock();
    *Counter = *Counter + 1;
    L.unlock();
  }
}

#ifdef BENCH_HAVE_ABSL
void runAbslMutex(void *P, volatile unsigned long *Counter, unsigned long N) {
  absl::Mutex &L = *static_cast<absl::Mutex *>(P);
  for (unsigned long I = 0; I < N; ++I) {
    L.Lock();
    *Counter = *Counter + 1;
    L.Unlock();
  }
}
#endif
#ifdef BENCH_HAVE_ABSL_SPINLOCK
using AbslSpinLock = absl::base_internal::SpinLock;
void constructAbslSpinLock(void *P) { new (P) AbslSpinLock(absl::kConstInit, absl::base_internal::SCHEDULE_KERNEL_ONLY); }
void runAbslSpinLock(void *P, volatile unsigned long *Counter, unsigned long N) {
  AbslSpinLock &L = *static_cast<AbslSpinLock *>(P);
  for (unsigned long I = 0; I < N; ++I) {
    L.Lock();
    *Counter = *Counter + 1;
    L.Unlock();
  }
}
#endif

static_assert(sizeof(std::mutex) <= BENCH_LOCK_BYTES, "lock storage");

} // namespace

extern "C" {
const struct lock_kind bench_cxx_kinds[] = {
    {"std_mutex", "peer", "libstdc++ std::mutex", constructLock<std::mutex>, destroyLock<std::mutex>,
     runLock<std::mutex>},
#ifdef BENCH_HAVE_ABSL
    {"absl_mutex", "peer", "abseil absl::Mutex", constructLock<absl::Mutex>, destroyLock<absl::Mutex>, runAbslMutex},
#endif
#ifdef BENCH_HAVE_ABSL_SPINLOCK
    {"absl_spinlock", "peer", "abseil base_internal::SpinLock (internal API)", constructAbslSpinLock,
     destroyLock<AbslSpinLock>, runAbslSpinLock},
#endif
};
const size_t bench_cxx_kind_count = sizeof(bench_cxx_kinds) / sizeof(bench_cxx_kinds[0]);
}
