/* A record whose 'rcvbuf' is written only on the configuration path, which starts at a
   setsockopt handler (a configuration entry point the kernel spec names) two files away from
   the writer; 'drops' is reset there too, and counted on the data path. */
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
struct endpoint {
	unsigned long rcvbuf;
	unsigned long queued;
	unsigned long drops;
};
void ep_set_rcvbuf(struct endpoint *e, unsigned long v); /* set.c */
void ep_reset_drops(struct endpoint *e);                 /* set.c */
void ep_apply(struct endpoint *e, int opt, unsigned long v); /* apply.c */
