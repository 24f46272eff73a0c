/* Layout of the generated hashed lock table: slot stride and the address-to-lock map. */
#include "lw_lockhash.h"

#include <stdint.h>
#include <stdio.h>

_Static_assert(sizeof(lw_lockhash_slot_t) == EXPECT_STRIDE, "slot stride");
_Static_assert(sizeof(lw_lockhash_t) == LW_LOCKHASH_SIZE * EXPECT_STRIDE, "table size");

static lw_lockhash_t table;

static const void *at(uintptr_t offset) { return (const void *)(0x100000 + offset); }

int main(void)
{
	/* Objects one divisor apart map to neighbouring locks; LW_LOCKHASH_SIZE divisors wrap around. */
	int ok = 1;
	for (int i = 0; i < LW_LOCKHASH_SIZE; i++)
		ok &= lw_lock_hash(&table, at((uintptr_t)i * LW_LOCKHASH_DIVISOR)) == &table.slot[i].lock;
	ok &= lw_lock_hash(&table, at(LW_LOCKHASH_SIZE * LW_LOCKHASH_DIVISOR)) == &table.slot[0].lock;
	ok &= lw_lock_hash(&table, at(LW_LOCKHASH_DIVISOR - 1)) == &table.slot[0].lock;
	printf("lock_hash map: %s\n", ok ? "as expected" : "WRONG");
	return !ok;
}
