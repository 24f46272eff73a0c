// Three dialects, one per configuration: the fix-it reads with the ONCE macro the TU defines
// (kernel READ_ONCE, liburcu CMM_LOAD_SHARED), or GCC's relaxed builtin where it defines none.
// RUN: %lockwright check --quiet --checks=-*,wait-plain-variable %s -- -std=gnu11 -DKERNEL -I %S/Inputs/kernel -I %S/Inputs/ck | FileCheck %s --check-prefixes=CHECK,KERNEL --implicit-check-not="warning:"
// RUN: %lockwright check --quiet --checks=-*,wait-plain-variable %s -- -std=gnu11 -DURCU -I %S/Inputs/urcu | FileCheck %s --check-prefixes=CHECK,URCU --implicit-check-not="warning:"
// RUN: %lockwright check --quiet --checks=-*,wait-plain-variable %s -- -std=gnu11 | FileCheck %s --check-prefixes=CHECK,C11 --implicit-check-not="warning:"
// RUN: cp %s %t-kernel.c && %lockwright check --quiet --checks=-*,wait-plain-variable --fix %t-kernel.c -- -std=gnu11 -DKERNEL -I %S/Inputs/kernel -I %S/Inputs/ck > /dev/null
// RUN: cp %s %t-urcu.c && %lockwright check --quiet --checks=-*,wait-plain-variable --fix %t-urcu.c -- -std=gnu11 -DURCU -I %S/Inputs/urcu > /dev/null
// RUN: cp %s %t-c11.c && %lockwright check --quiet --checks=-*,wait-plain-variable --fix %t-c11.c -- -std=gnu11 > /dev/null
// RUN: FileCheck %s --check-prefix=FIXED-KERNEL --input-file=%t-kernel.c
// RUN: FileCheck %s --check-prefix=FIXED-URCU --input-file=%t-urcu.c
// RUN: FileCheck %s --check-prefix=FIXED-C11 --input-file=%t-c11.c
// RUN: clang-19 -fsyntax-only -std=gnu11 -DKERNEL -I %S/Inputs/kernel -I %S/Inputs/ck %t-kernel.c
// RUN: clang-19 -fsyntax-only -std=gnu11 -DURCU -I %S/Inputs/urcu %t-urcu.c
// RUN: clang-19 -fsyntax-only -std=gnu11 %t-c11.c
// RUN: %lockwright check --quiet --checks=-*,wait-plain-variable %t-kernel.c -- -std=gnu11 -DKERNEL -I %S/Inputs/kernel -I %S/Inputs/ck | FileCheck %s --check-prefix=REFIX --implicit-check-not="warning:"
// RUN: %lockwright check --quiet --checks=-*,wait-plain-variable %t-urcu.c -- -std=gnu11 -DURCU -I %S/Inputs/urcu | FileCheck %s --check-prefix=REFIX --implicit-check-not="warning:"
// RUN: %lockwright check --quiet --checks=-*,wait-plain-variable %t-c11.c -- -std=gnu11 | FileCheck %s --check-prefix=REFIX --implicit-check-not="warning:"

#if defined(KERNEL)
#include "kernel-barrier.h"
#include "ck_pr.h"
#elif defined(URCU)
#include "urcu.h"
#else
#include <stdatomic.h>
#endif

/* The flag, read plainly, may be read once. */
int done;
struct work { int state; struct work *next; unsigned int flags : 4; } work;
void wait_done(void) {
	while (!done)
		;
}
// CHECK: :[[@LINE-3]]:10: warning: the loop waits on 'done', a plain load the compiler may perform once: nothing in the loop writes it or hides a write (a call, a barrier), so the loop may never see another thread's store [wait-plain-variable]
// KERNEL-NOT: :[[@LINE-4]]:10: note:
// URCU-NOT: :[[@LINE-5]]:10: note:
// C11: :[[@LINE-6]]:10: note: a relaxed atomic load costs what the plain one does; where every access of it is shared, declare it _Atomic or std::atomic instead
// FIXED-KERNEL: while (!READ_ONCE(done))
// FIXED-URCU: while (!CMM_LOAD_SHARED(done))
// FIXED-C11: while (!__atomic_load_n(&done, __ATOMIC_RELAXED))
void wait_state(struct work *w) {
	int s;
	do {
		s = w->state;
	} while (s != 2);
}
// CHECK: :[[@LINE-3]]:7: warning: the loop waits on 'work.state', a plain load
// FIXED-KERNEL: s = READ_ONCE(w->state);
// FIXED-URCU: s = CMM_LOAD_SHARED(w->state);
// FIXED-C11: s = __atomic_load_n(&w->state, __ATOMIC_RELAXED);
/* A pointer is a scalar too: waiting for a list to get its first entry. */
struct work *head;
struct work *wait_first(void) {
	while (head == 0)
		;
	return head;
}
// CHECK: :[[@LINE-4]]:9: warning: the loop waits on 'head', a plain load
// FIXED-KERNEL: while (READ_ONCE(head) == 0)
// FIXED-URCU: while (CMM_LOAD_SHARED(head) == 0)
// FIXED-C11: while (__atomic_load_n(&head, __ATOMIC_RELAXED) == 0)
/* A bit-field has no address for READ_ONCE or the builtin to take: a note instead of a fix. */
void wait_flags(struct work *w) {
	while (w->flags == 0)
		;
}
// CHECK: :[[@LINE-3]]:9: warning: the loop waits on 'work.flags', a plain load
// CHECK: :[[@LINE-4]]:9: note: read it with READ_ONCE() in kernel-style code
// FIXED-KERNEL: while (w->flags == 0)
// FIXED-URCU: while (w->flags == 0)
// FIXED-C11: while (w->flags == 0)
// REFIX: :[[@LINE-8]]:9: warning: the loop waits on 'work.flags', a plain load

/* A consistent snapshot of a device-written block: read the index, the data, the index again.
   Plain, the two reads may be one, and the retry never happens (DPDK's qede attention block).
   One finding for the location, fixing both reads. */
struct status_block { unsigned short sb_index; unsigned int bits; };
unsigned int snapshot(struct status_block *sb) {
	unsigned short index;
	unsigned int bits;
	do {
		index = sb->sb_index;
		bits = sb->bits;
	} while (index != sb->sb_index);
	return bits;
}
// CHECK: :[[@LINE-5]]:11: warning: the loop waits on 'status_block.sb_index', a plain load
// CHECK: :[[@LINE-4]]:20: note: the loop reads it here too
// FIXED-KERNEL: index = READ_ONCE(sb->sb_index);
// FIXED-KERNEL: } while (index != READ_ONCE(sb->sb_index));
// FIXED-URCU: index = CMM_LOAD_SHARED(sb->sb_index);
// FIXED-URCU: } while (index != CMM_LOAD_SHARED(sb->sb_index));
// FIXED-C11: index = __atomic_load_n(&sb->sb_index, __ATOMIC_RELAXED);
// FIXED-C11: } while (index != __atomic_load_n(&sb->sb_index, __ATOMIC_RELAXED));

/* Negatives. */
/* Marked loads, and a plain bound compared with a marked one (ck's start barriers). */
unsigned int barrier_count, n_threads;
void marked(void) {
#if defined(KERNEL)
	while (!READ_ONCE(done))
		;
	while (ck_pr_load_uint(&barrier_count) < n_threads)
		;
#elif defined(URCU)
	while (!CMM_LOAD_SHARED(done))
		;
	while (uatomic_load(&barrier_count, CMM_RELAXED) < n_threads)
		;
#else
	while (!__atomic_load_n(&done, __ATOMIC_RELAXED))
		;
	while (__atomic_load_n(&barrier_count, __ATOMIC_RELAXED) < n_threads)
		;
#endif
}
/* _Atomic and volatile objects are loaded on every pass. */
#if !defined(KERNEL) && !defined(URCU)
_Atomic int ready;
volatile int vready;
void atomic_and_volatile(void) {
	while (!ready)
		;
	while (!vready)
		;
}
#endif
/* A call or a barrier in the loop makes the compiler load again; so does a relax hint. */
int poll_once(void);
void with_call(void) {
	while (!done)
		poll_once();
}
void with_barrier(void) {
	while (!done)
		__asm__ __volatile__("" ::: "memory");
}
#if defined(KERNEL)
void with_relax(void) {
	while (!done)
		cpu_relax();
}
#endif
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
/* Walks: each pass reads through a pointer or index the loop moves, so it reads another
   location each time (DPDK's mbuf chains and descriptor rings, device-tree parents). */
struct work *last_before(struct work *w, struct work *end) {
	while (w->next != end)
		w = w->next;
	return w;
}
struct work *root_of(struct work *w) {
	while ((w = w->next))
		if (w->state)
			break;
	return w;
}
struct work **find_slot(struct work **pp) {
	while (*pp)
		pp = &(*pp)->next;
	return pp;
}
struct slot { int next_id; void *mbuf; };
int next_used(struct slot *ring, int id) {
	do {
		id = ring[id].next_id;
	} while (!ring[id].mbuf);
	return id;
}
/* A helper too large to inline that writes what the loop reads (DPDK's cmdline circular
   buffer shifts until start is 0). */
struct cirbuf { unsigned int start, end, maxlen, len; char *buf; };
static void shift_left(struct cirbuf *c) {
	char first = c->buf[c->start];
	for (unsigned int i = 0; i < c->len; i++)
		c->buf[(c->start + i) % c->maxlen] = c->buf[(c->start + i + 1) % c->maxlen];
	c->buf[(c->start - 1 + c->maxlen) % c->maxlen] = first;
	c->start += c->maxlen - 1;
	c->start %= c->maxlen;
	c->end += c->maxlen - 1;
	c->end %= c->maxlen;
}
void align_left(struct cirbuf *c) {
	while (c->start != 0)
		shift_left(c);
}
/* A volatile read through a helper polls; the plain load is its address (MMIO waits). */
static inline unsigned long read64(const volatile void *addr) { return *(const volatile unsigned long *)addr; }
struct hws { unsigned long base; };
void head_wait(struct hws *ws) {
	while (!(read64((void *)(ws->base + 8)) & (1UL << 35)))
		;
}
/* `do { } while (0)` is a statement, not a loop: the for loop around it counts. */
void fail(void) __attribute__((noreturn));
#define VERIFY(e) do { if (!(e)) fail(); } while (0)
void verify(struct work *w) {
	for (int n = 0; n != 4; n++)
		VERIFY(w->state == 0);
}
