#include <atomic>
#include <mutex>

namespace app {
struct stats {
  std::atomic<long> hits; // hit(): every request
  std::mutex lock;        // report(): taken through lock_guard when a monitor asks
  long total = 0;
};

void hit(stats &s) { s.hits.fetch_add(1); }
long report(stats &s) {
  std::lock_guard<std::mutex> guard(s.lock);
  return s.total;
}
} // namespace app
