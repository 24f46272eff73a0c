/* One grace-period thread, started once; clients started in a loop. */
#include <pthread.h>
#include "gp.h"
struct gp gp;
int main(void) {
	pthread_t t, c[4];
	pthread_create(&t, 0, gp_thread, &gp);
	for (int i = 0; i < 4; i++)
		pthread_create(&c[i], 0, client, &gp);
	for (int i = 0; i < 4; i++)
		pthread_join(c[i], 0);
	return 0;
}
