// Fix-its in code that uses lockwright's generated headers spell the names with the prefix the
// code's own names were generated with: the specs list them as {prefix}_store_release etc.
// RUN: rm -rf %t.gen && %lockwright gen --arch x86_64 --prefix lk -o %t.gen > /dev/null
// RUN: cp %s %t.c && %lockwright check --quiet --checks=-*,barrier-missing-release,wait-missing-relax,wait-acquire-in-loop --fix %t.c -- -std=gnu11 -I %t.gen > /dev/null
// RUN: FileCheck %s --input-file=%t.c
// RUN: clang-19 -fsyntax-only -std=gnu11 -I %t.gen %t.c

#include "lk_barrier.h"
#include "lk_cond_wait.h"

int data, flag, refs;

void publish(void) {
	lk_write_once(data, 1);
	lk_write_once(flag, 1);
}
// CHECK: lk_store_release(&flag, 1);

int wait_flag(void) {
	while (!lk_read_once(flag))
		;
	return lk_read_once(data);
}
// CHECK: while (!lk_read_once(flag))
// CHECK-NEXT: {{^}}		lk_cpu_relax();{{$}}

/* An acquire on every poll: the generated cond_load_acquire, with the code's prefix. */
struct csd { unsigned int flags; };
#define CSD_FLAG_LOCK 1u
void csd_wait(struct csd *csd) {
	while (lk_load_acquire(&csd->flags) & CSD_FLAG_LOCK)
		lk_cpu_relax();
}
// CHECK: {{^}}	lk_cond_load_acquire(&csd->flags, !(VAL & CSD_FLAG_LOCK));{{$}}
// CHECK-NEXT: {{^}}}{{$}}
