#include "pair.h"

struct pair shared;

void worker_a(void) { bump_a(&shared); } /* inlined: the profile shows worker_a at most */
void worker_b(void) { bump_b(&shared); }
