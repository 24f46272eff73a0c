// The lock algorithms lockwright generates, one row each (as Concurrency Kit keeps
// one header per algorithm). The row says what the rest of the tool needs to know
// about an algorithm; its code lives in its template partials,
// arch-templates/common/partials/lock_<name>.h.mustache (C) and
// lock_<name>.hpp.mustache (C++), and, where HasAsmRoutines, in each
// architecture's spinlock.S.mustache.
#ifndef LOCKWRIGHT_MODEL_SPEC_LOCKALGORITHMS_H
#define LOCKWRIGHT_MODEL_SPEC_LOCKALGORITHMS_H

#include <string>
#include <vector>

namespace lockwright {

struct LockAlgorithm {
  /// The --locks name, and the C names' infix (<prefix>_<Name>_lock_t, <prefix>_<Name>_lock())
  /// except the rwlock's, which follow Linux (<prefix>_rwlock_t, <prefix>_read_lock()).
  const char *Name;
  /// A few words for the generated headers' lists of algorithms.
  const char *Title;
  /// Can be an architecture's default_lock, behind <prefix>_spinlock_t: lock, trylock,
  /// unlock and is_locked on the lock object alone.
  bool MayBeDefault;
  /// Has a non-blocking trylock (C) and try_lock (C++: Lockable rather than BasicLockable).
  bool HasTrylock;
  /// lock and unlock take a queue node the caller owns.
  bool NeedsQueueNode;
  /// The per-architecture .S implements it (<prefix>_asm_<Name>_lock, _trylock, _unlock).
  bool HasAsmRoutines;
  /// The class in <prefix>_spinlock.hpp.
  const char *CxxClass;
};

/// Every algorithm, in the order the headers define them.
const std::vector<LockAlgorithm> &lockAlgorithms();

/// The names of the algorithms that may be a default lock, in table order.
std::vector<std::string> defaultLockNames();

} // namespace lockwright

#endif
