/* A grace-period record: 'seq' and 'state' are written only on the thread gp_thread runs, which
   main starts once; 'requests' by every client thread. */
#include <stdatomic.h>
struct gp {
	atomic_long seq;
	atomic_int state;
	atomic_long requests;
};
extern struct gp gp;
void *gp_thread(void *arg);       /* thread.c */
void gp_advance(struct gp *g);    /* advance.c */
void gp_request(struct gp *g);    /* request.c */
void *client(void *arg);          /* client.c */
