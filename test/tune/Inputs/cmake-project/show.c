#include <stdio.h>
#include "lw_cache.h"

int main(void)
{
	printf("destructive %d\n", (int)LW_DESTRUCTIVE_SIZE);
	return 0;
}
