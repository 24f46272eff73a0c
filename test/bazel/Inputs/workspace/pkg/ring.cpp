#include "ring.hpp"

// The producer writes tail and reads head; the consumer writes head and reads tail.
bool produce(Ring &r) {
  unsigned t = r.tail.load(std::memory_order_relaxed);
  if (t - r.head.load(std::memory_order_acquire) == 16)
    return false;
  r.tail.store(t + 1, std::memory_order_release);
  return true;
}
unsigned consume(Ring &r) {
  unsigned h = r.head.load(std::memory_order_relaxed);
  if (r.tail.load(std::memory_order_acquire) != h)
    r.head.store(h + 1, std::memory_order_release);
  return h;
}
