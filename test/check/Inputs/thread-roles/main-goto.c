/* A loop made with goto starts two threads. */
#include <pthread.h>
#include "gp.h"
struct gp gp;
int main(void) {
	pthread_t t[2], c;
	int i = 0;
again:
	pthread_create(&t[i], 0, gp_thread, &gp);
	if (++i < 2)
		goto again;
	pthread_create(&c, 0, client, &gp);
	pthread_join(c, 0);
	return 0;
}
