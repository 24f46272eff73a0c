/* Records on which `check` (layout-split-atomic) and `layout` must agree about straddling. */
#include <stdatomic.h>
#include <stdint.h>

/* Packed: the base can be anywhere, so the 8-byte counter at offset 3 can cross a line. */
struct __attribute__((packed)) pk {
	uint8_t kind;
	uint16_t len;
	_Atomic uint64_t seq;
};

/* Packed but 4-aligned: a word at offset 2 can sit across a boundary at 62..65. */
struct __attribute__((packed, aligned(4))) p4 {
	char pad[2];
	_Atomic uint32_t w;
};

/* An array of atomics at an odd offset: some element can cross a line. */
struct __attribute__((packed)) arr {
	char c;
	_Atomic uint32_t v[4];
};

/* Natural alignment: nothing can straddle, wherever the record sits. */
struct ok {
	uint32_t a;
	_Atomic uint64_t seq;
	_Atomic uint32_t v[20];
};

/* A line-aligned record whose atomic lies wholly inside its line at a fixed offset. */
struct __attribute__((aligned(64))) inside {
	char pad[56];
	_Atomic uint64_t seq;
};

void touch(struct pk *a, struct p4 *b, struct arr *c, struct ok *d, struct inside *e)
{
	atomic_fetch_add(&a->seq, 1);
	atomic_fetch_add(&b->w, 1);
	atomic_fetch_add(&c->v[1], 1);
	atomic_fetch_add(&d->seq, 1);
	atomic_fetch_add(&e->seq, 1);
}
