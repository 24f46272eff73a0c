#include "gp.h"
void *client(void *arg) {
	for (int i = 0; i < 1000; i++)
		gp_request(arg);
	return 0;
}
