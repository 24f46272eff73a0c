// Fix-its in code that uses lockwright's generated headers spell the names with the prefix the
// code's own names were generated with: the specs list them as {prefix}_store_release etc.
// RUN: rm -rf %t.gen && %lockwright gen --arch x86_64 --prefix lk -o %t.gen > /dev/null
// RUN: cp %s %t.c && %lockwright check --quiet --checks=-*,barrier-missing-release,wait-missing-relax --fix %t.c -- -std=gnu11 -I %t.gen > /dev/null
// RUN: FileCheck %s --input-file=%t.c
// RUN: clang-19 -fsyntax-only -std=gnu11 -I %t.gen %t.c

#include "lk_barrier.h"

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
