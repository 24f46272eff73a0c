// A virtual method started as a thread, which other threads also call through the base: not one
// thread's.
#include <atomic>
#include <thread>
struct Task {
	virtual void run() = 0;
	virtual ~Task() = default;
};
struct Stats {
	std::atomic<long> seq;
	std::atomic<long> state;
};
Stats stats;
static void set_state() { stats.state.store(1); }
struct Ticker : Task {
	void run() override {
		stats.seq.fetch_add(1);
		set_state();
	}
};
static void poke(Task *t) { t->run(); }
int main() {
	Ticker ticker;
	std::thread a(&Ticker::run, &ticker);
	std::thread b(poke, &ticker);
	a.join();
	b.join();
}
