/* The helper runs twice: two grace-period threads. */
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
	start_gp();
	pthread_create(&c, 0, client, &gp);
	pthread_join(c, 0);
	return 0;
}
