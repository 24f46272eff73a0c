#include "./local.h"
#include "shared.h"
int two(void) { return 2; }
