#include "./local.h"
#include "../shared.h"
int one(void) { return 1; }
