// C++: one producer thread (a lambda) and one consumer thread (a function), each started once.
#include <atomic>
#include <thread>
struct Stats {
	std::atomic<long> produced;
	std::atomic<long> polls;
	std::atomic<long> consumed;
};
Stats stats;
static void produce() { stats.produced.fetch_add(1); }
static void consume_loop() {
	for (;;)
		stats.consumed.fetch_add(1);
}
int main() {
	std::thread p([] {
		for (;;) {
			produce();
			stats.polls.fetch_add(1);
		}
	});
	std::thread c(consume_loop);
	p.join();
	c.join();
}
