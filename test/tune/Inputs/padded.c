/* Two counters padded to 64 bytes: enough where the destructive size is 64. */
struct counters {
	_Alignas(64) _Atomic long produced;
	_Alignas(64) _Atomic long consumed;
};
struct counters shared_counters;
