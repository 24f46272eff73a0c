// RUN: %lockwright check --quiet --checks=-*,wait-plain-variable %s -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck | FileCheck %s --implicit-check-not="warning:"
// RUN: cp %s %t.c && %lockwright check --quiet --checks=-*,wait-plain-variable --fix %t.c -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck > /dev/null
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t.c
// RUN: clang-19 -fsyntax-only -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck %t.c
// RUN: %lockwright check --quiet --checks=-*,wait-plain-variable %t.c -- -std=gnu11 -I %S/Inputs/kernel -I %S/Inputs/ck | FileCheck %s --check-prefix=REFIX --allow-empty --implicit-check-not="warning:"
// REFIX-NOT: warning:

#include "kernel-barrier.h"
#include "ck_pr.h"

/* Kernel-style code (READ_ONCE is defined): the flag, read plainly, may be read once. */
int done;
struct work { int state; } work;
void wait_done(void) {
	while (!done)
		;
}
// CHECK: :[[@LINE-3]]:10: warning: the loop waits on 'done', a plain load the compiler may perform once: nothing in the loop writes it or hides a write (a call, a barrier), so the loop may never see another thread's store [wait-plain-variable]
// FIXED: while (!READ_ONCE(done))
void wait_state(struct work *w) {
	int s;
	do {
		s = w->state;
	} while (s != 2);
}
// CHECK: :[[@LINE-3]]:7: warning: the loop waits on 'work.state', a plain load
// FIXED: s = READ_ONCE(w->state);

/* Negatives. */
/* Marked loads, and a plain bound compared with a marked one (ck's start barriers). */
unsigned int barrier_count, n_threads;
void marked(void) {
	while (!READ_ONCE(done))
		;
	while (ck_pr_load_uint(&barrier_count) < n_threads)
		;
}
/* A call or a barrier in the loop makes the compiler load again; so does a relax hint. */
int poll_once(void);
void with_call(void) {
	while (!done)
		poll_once();
}
void with_barrier(void) {
	while (!done)
		barrier();
}
void with_relax(void) {
	while (!done)
		cpu_relax();
}
/* Loops that make progress of their own, and locals. */
int sum(struct work *w, int n) {
	int total = 0;
	for (int i = 0; i < n && w->state; i++)
		total += i;
	return total;
}
void local_wait(void) {
	int ready = 0;
	while (!ready)
		ready = 1;
}
