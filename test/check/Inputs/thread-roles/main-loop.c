/* Two grace-period threads, started in a loop: they write 'seq' and 'state' at once. */
#include <pthread.h>
#include "gp.h"
struct gp gp;
int main(void) {
	pthread_t t[2], c;
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], 0, gp_thread, &gp);
	pthread_create(&c, 0, client, &gp);
	pthread_join(c, 0);
	return 0;
}
