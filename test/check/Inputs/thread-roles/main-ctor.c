/* The start is in a constructor, which runs before main, and main calls it too: two threads. */
#include <pthread.h>
#include "gp.h"
struct gp gp;
__attribute__((constructor)) void start_gp(void) {
	pthread_t t;
	pthread_create(&t, 0, gp_thread, &gp);
}
int main(void) {
	pthread_t c;
	start_gp();
	pthread_create(&c, 0, client, &gp);
	pthread_join(c, 0);
	return 0;
}
