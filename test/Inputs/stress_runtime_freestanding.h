/* A libc-free runtime for barrier_stress.c on targets whose Debian toolchain
 * ships no C library (loongarch64 in bookworm): raw Linux syscalls, threads
 * made with clone(CLONE_VM | CLONE_THREAD | ...) on static stacks, joined
 * through CLONE_CHILD_CLEARTID as pthread_join does, and a _start. */
#ifndef STRESS_RUNTIME_FREESTANDING_H
#define STRESS_RUNTIME_FREESTANDING_H

#include <stddef.h>

#if !defined(__loongarch__) || __loongarch_grlen != 64
#error "stress_runtime_freestanding.h implements the Linux syscall ABI of loongarch64 only"
#endif

enum {
	SYS_write = 64,
	SYS_exit = 93,
	SYS_exit_group = 94,
	SYS_sched_yield = 124,
	SYS_clone = 220,
};

static long sys3(long nr, long a0, long a1, long a2)
{
	register long r_a0 __asm__("$a0") = a0;
	register long r_a1 __asm__("$a1") = a1;
	register long r_a2 __asm__("$a2") = a2;
	register long r_a7 __asm__("$a7") = nr;
	__asm__ __volatile__("syscall 0"
			     : "+r"(r_a0)
			     : "r"(r_a1), "r"(r_a2), "r"(r_a7)
			     : "$t0", "$t1", "$t2", "$t3", "$t4", "$t5", "$t6", "$t7", "$t8", "memory");
	return r_a0;
}

typedef struct stress_thread {
	void *(*fn)(void *);
	void *arg;
	volatile int tid; /* set by the kernel at clone, cleared when the thread exits */
	unsigned char stack[64 * 1024] __attribute__((aligned(16)));
} stress_thread;

/* The new thread starts here, on its own stack, with the thread block in $a0. */
static void stress_thread_entry(stress_thread *t)
{
	t->fn(t->arg);
}

static void stress_start(stress_thread *t, void *(*fn)(void *), void *arg)
{
	const long flags = 0x100 | 0x200 | 0x400 | 0x800 | 0x10000 | 0x40000 | 0x100000 | 0x200000;
	/* CLONE_VM|FS|FILES|SIGHAND|THREAD|SYSVSEM|PARENT_SETTID|CHILD_CLEARTID */
	t->fn = fn;
	t->arg = arg;
	t->tid = 0;
	register long r_a0 __asm__("$a0") = flags;
	register long r_a1 __asm__("$a1") = (long)(t->stack + sizeof t->stack);
	register long r_a2 __asm__("$a2") = (long)&t->tid; /* parent_tid */
	register long r_a3 __asm__("$a3") = (long)&t->tid; /* child_tid */
	register long r_a4 __asm__("$a4") = 0;             /* tls (generic clone argument order) */
	register long r_a7 __asm__("$a7") = SYS_clone;
	register long r_s0 __asm__("$s0") = (long)stress_thread_entry;
	register long r_s1 __asm__("$s1") = (long)t;
	__asm__ __volatile__("syscall 0\n\t"
			     "bnez $a0, 1f\n\t"
			     /* child: run the entry on the new stack, then end this thread only */
			     "move $a0, $s1\n\t"
			     "jirl $ra, $s0, 0\n\t"
			     "li.w $a0, 0\n\t"
			     "li.w $a7, 93\n\t"
			     "syscall 0\n"
			     "1:"
			     : "+r"(r_a0)
			     : "r"(r_a1), "r"(r_a2), "r"(r_a3), "r"(r_a4), "r"(r_a7), "r"(r_s0), "r"(r_s1)
			     : "$ra", "$t0", "$t1", "$t2", "$t3", "$t4", "$t5", "$t6", "$t7", "$t8", "memory");
	if (r_a0 < 0) {
		sys3(SYS_write, 2, (long)"clone failed\n", 13);
		sys3(SYS_exit_group, 2, 0, 0);
	}
}

static void stress_yield(void) { sys3(SYS_sched_yield, 0, 0, 0); }

static void stress_join(stress_thread *t)
{
	while (__atomic_load_n(&t->tid, __ATOMIC_ACQUIRE) != 0)
		stress_yield();
}

static void stress_print(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	sys3(SYS_write, 1, (long)s, (long)n);
}

static unsigned long stress_parse(const char *s)
{
	unsigned long v = 0;
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (unsigned long)(*s++ - '0');
	return v;
}

static void stress_print_number(unsigned long v)
{
	char buf[24];
	int i = sizeof buf - 1;
	buf[i] = 0;
	do {
		buf[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	stress_print(buf + i);
}

static void stress_report(const char *test, const char *what, unsigned long got, unsigned long want)
{
	stress_print(test);
	stress_print(": ");
	stress_print(what);
	stress_print(" ");
	stress_print_number(got);
	stress_print(" (expected ");
	stress_print_number(want);
	stress_print(")\n");
}

/* The compiler may emit calls to these for block copies and clears. */
void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = (unsigned char *)dst;
	const unsigned char *s = (const unsigned char *)src;
	while (n--)
		*d++ = *s++;
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = (unsigned char *)dst;
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

int stress_main(int argc, char **argv);

void stress_start_c(long *sp) __attribute__((used));
void stress_start_c(long *sp)
{
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1);
	sys3(SYS_exit_group, stress_main(argc, argv), 0, 0);
}

__asm__(".text\n"
	".globl _start\n"
	"_start:\n\t"
	"move $a0, $sp\n\t"
	"bl stress_start_c\n");

#endif
