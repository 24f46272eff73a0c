// The same mailbox in C++17: lw::cache_padded keeps head and tail in windows
// of their own; lw::load_acquire / lw::store_release order the slots.
#include "lw_barrier.h"
#include "lw_cache.h"

#include <cstdio>
#include <thread>

namespace {

constexpr unsigned long Slots = 64;
constexpr unsigned long Messages = 1000000;

struct Mailbox {
  lw::cache_padded<unsigned long> head{0ul}; // written by the producer only
  lw::cache_padded<unsigned long> tail{0ul}; // written by the consumer only
  unsigned long slot[Slots] = {};
};

Mailbox box;

} // namespace

int main() {
  unsigned long sum = 0, outOfOrder = 0;
  std::thread consumer([&] {
    for (unsigned long n = 1; n <= Messages; n++) {
      while (lw::load_acquire(&*box.head) < n)
        lw::cpu_relax();
      unsigned long v = box.slot[n % Slots];
      outOfOrder += v != n;
      sum += v;
      lw::store_release(&*box.tail, n);
    }
  });
  std::thread producer([] {
    for (unsigned long n = 1; n <= Messages; n++) {
      while (n - lw::load_acquire(&*box.tail) > Slots)
        lw::cpu_relax();
      box.slot[n % Slots] = n;
      lw::store_release(&*box.head, n);
    }
  });
  producer.join();
  consumer.join();
  const unsigned long expected = Messages * (Messages + 1) / 2;
  std::printf("C++17: sizeof(lw::cache_padded<unsigned long>) = %zu; %lu messages, sum %lu (expected %lu), "
              "%lu out of order\n",
              sizeof(lw::cache_padded<unsigned long>), Messages, sum, expected, outOfOrder);
  return sum == expected && outOfOrder == 0 ? 0 : 1;
}
