/* Records whose layout differs across ABIs: `layout --arch A` must give each member the offset the
 * architecture's own compiler gives it (test/layout/offsets-vs-gcc.test). Freestanding headers
 * only, so the loongarch64 clang target (no C library here) builds it too. */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct scalars { char c; long l; void *p; long long ll; double d; short s; _Atomic int ai; int i; };
struct wide { char c; long double ld; _Atomic long long all; char tail; };
struct atomics { _Atomic char a8; _Atomic short a16; _Atomic long long a64; _Atomic(void *) ap; _Atomic uint32_t arr[3]; };
struct bits { unsigned a : 3; unsigned b : 13; unsigned char c; unsigned d : 20; long long e : 40; int after; };
struct __attribute__((packed)) packed { uint8_t kind; uint16_t len; _Atomic uint64_t seq; uint32_t crc; };
struct overaligned { char c; int x __attribute__((aligned(32))); _Atomic long counter __attribute__((aligned(16))); short s; };
union word { _Atomic int a; long long b; char bytes[5]; };
struct holder { char c; union word u; struct packed p; struct bits b; double d; };
struct flex { int n; _Atomic long hits; char data[]; };
