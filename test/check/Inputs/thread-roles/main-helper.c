/* The start is in a helper main calls once: still one thread (with START_TWICE, main calls it
   twice: two grace-period threads). */
#include <pthread.h>
#include "gp.h"
struct gp gp;
static pthread_t start_gp(void) {
	pthread_t t;
	pthread_create(&t, 0, &gp_thread, &gp);
	return t;
}
int main(void) {
	pthread_t c;
	start_gp();
#ifdef START_TWICE
	start_gp();
#endif
	pthread_create(&c, 0, client, &gp);
	pthread_join(c, 0);
	return 0;
}
