/* An ops table names the entry: whoever calls through it runs gp_thread on their own thread. */
#include "gp.h"
struct ops { void *(*run)(void *); };
struct ops gp_ops = { .run = gp_thread };
