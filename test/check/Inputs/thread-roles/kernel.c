/* Kernel style: the grace-period kthread is started once, by an initcall (unless
   NO_INITCALL: then nobody is seen running rcu_spawn_gp_kthread, which may run any number of
   times). 'gp_seq' and 'gp_state' are written only on that thread; 'gp_wake_seq' by whoever
   wakes it. */
#define NULL ((void *)0)
#define __init __attribute__((__section__(".init.text")))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
struct task_struct;
struct task_struct *kthread_create_on_node(int (*threadfn)(void *data), void *data, int node,
					   const char namefmt[], ...);
#define kthread_create(threadfn, data, namefmt, arg...) \
	kthread_create_on_node(threadfn, data, -1, namefmt, ##arg)
#define kthread_run(threadfn, data, namefmt, ...) \
	({ struct task_struct *__k = kthread_create(threadfn, data, namefmt, ##__VA_ARGS__); __k; })
#define ___ADDRESSABLE(sym) static void *__attribute__((used)) __addressable_##sym = (void *)&sym;
#define early_initcall(fn) ___ADDRESSABLE(fn)

struct rcu_state {
	unsigned long gp_seq;
	short gp_state;
	unsigned long gp_wake_seq;
};
static struct rcu_state rcu_state;

static void rcu_gp_advance(void) { WRITE_ONCE(rcu_state.gp_seq, rcu_state.gp_seq + 1); }

static int rcu_gp_kthread(void *unused) {
	for (;;) {
		WRITE_ONCE(rcu_state.gp_state, 1);
		rcu_gp_advance();
		WRITE_ONCE(rcu_state.gp_state, 0);
	}
	return 0;
}

void rcu_gp_kthread_wake(void) { WRITE_ONCE(rcu_state.gp_wake_seq, READ_ONCE(rcu_state.gp_seq)); }

static int __init rcu_spawn_gp_kthread(void) {
	kthread_run(rcu_gp_kthread, NULL, "rcu_gp");
	return 0;
}
#ifndef NO_INITCALL
early_initcall(rcu_spawn_gp_kthread);
#endif
