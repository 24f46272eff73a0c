// clh_lock's nodes at thread exit: a thread_local whose destructor runs after the header's
// per-thread free list is gone still locks and unlocks a clh_lock. The node that unlock hands
// back must be freed, not pushed onto the destroyed list (ASan's leak check fails otherwise),
// and is_locked() must not read a node a finished thread freed.
#include <cstdio>
#include <thread>

void lockFromDestructor(void *Lock);
struct LateUser {
  void *Lock = nullptr;
  ~LateUser() {
    if (Lock)
      lockFromDestructor(Lock);
  }
};
// Constructed before the header's thread_locals are first used, so destroyed after them.
thread_local LateUser Late;

#include "lw_spinlock.hpp"

void lockFromDestructor(void *Lock) {
  auto *L = static_cast<lw::clh_lock *>(Lock);
  L->lock();
  L->unlock();
}

int main() {
  bool Ok = true;
  {
    lw::clh_lock L;
    std::thread([&] {
      Late.Lock = &L;
      L.lock();
      L.unlock();
    }).join();
    // The node the thread left at the tail was freed with the thread; is_locked looks at the
    // holder, not at that node.
    Ok &= !L.is_locked();
    L.lock();
    Ok &= L.is_locked();
    L.unlock();
  }
  std::printf("clh thread exit: %s\n", Ok ? "ok" : "FAILED");
  return Ok ? 0 : 1;
}
