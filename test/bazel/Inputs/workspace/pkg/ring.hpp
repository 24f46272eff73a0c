#include <atomic>

// A single-producer/single-consumer ring: each side writes its own index and reads the other's.
struct Ring {
  std::atomic<unsigned> head{0};
  std::atomic<unsigned> tail{0};
};
