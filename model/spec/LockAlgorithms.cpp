#include "spec/LockAlgorithms.h"

namespace lockwright {

const std::vector<LockAlgorithm> &lockAlgorithms() {
  static const std::vector<LockAlgorithm> Table = {
      // Name   Title                                  default trylock node   .S     C++ class
      {"tas", "test-and-test-and-set lock", true, true, false, true, "tas_lock"},
      {"ticket", "ticket lock, FIFO", true, true, false, true, "ticket_lock"},
      {"mcs", "MCS queue lock, caller-owned nodes", true, true, true, false, "mcs_lock"},
      // No trylock: a non-blocking one would need an abortable queue (a node seen free at
      // the tail may be recycled and relocked before the CAS), so it cannot be a default.
      {"clh", "CLH queue lock, nodes passed along", false, false, true, false, "clh_lock"},
      {"rwlock", "reader-writer lock", false, true, false, false, "rw_lock"},
  };
  return Table;
}

std::vector<std::string> defaultLockNames() {
  std::vector<std::string> Names;
  for (const LockAlgorithm &A : lockAlgorithms())
    if (A.MayBeDefault)
      Names.push_back(A.Name);
  return Names;
}

} // namespace lockwright
