// Small operations on std::set that several analyses repeat.
#ifndef LOCKWRIGHT_SUPPORT_SETOPS_H
#define LOCKWRIGHT_SUPPORT_SETOPS_H

#include <set>

namespace lockwright {

/// Keeps in Into only what With also holds (an intersection in place).
template <class T> void keepCommon(std::set<T> &Into, const std::set<T> &With) {
  for (auto It = Into.begin(); It != Into.end();)
    It = With.count(*It) ? std::next(It) : Into.erase(It);
}

} // namespace lockwright

#endif
