// Registration entry points the specs name (`op: register`): ck_epoch_recycle takes a record
// another thread gave back, as ck_epoch_register takes a fresh one, once per participant; its
// writes are cold, as a registration function's by name are. Without the spec entry (another
// function name) the same writes are hot.
// RUN: %lockwright check --quiet --checks=-*,layout-false-sharing %s -- -std=gnu11 -I %S/Inputs/ck | FileCheck %s --allow-empty --implicit-check-not=warning:
// RUN: %lockwright check --quiet --checks=-*,layout-false-sharing %s -- -std=gnu11 -I %S/Inputs/ck -Dck_epoch_recycle=ep_take_record | FileCheck %s --check-prefix=HOT --implicit-check-not=warning:
#include <ck_pr.h>

struct ck_epoch_record {
	unsigned int state;  /* free or in use: set when a thread takes or gives back the record */
	unsigned int epoch;  /* the owner's epoch, on every read section */
};
struct ck_epoch_record *ck_epoch_recycle(struct ck_epoch_record *r) {
	if (ck_pr_fas_uint(&r->state, 1) == 0)
		return r;
	return 0;
}
void ck_epoch_unregister(struct ck_epoch_record *r) { ck_pr_store_int((int *)&r->state, 0); }
void ck_epoch_begin(struct ck_epoch_record *r, unsigned int global) { ck_pr_fas_uint(&r->epoch, global); }
// HOT: registration.c:11:15: warning: 'epoch' (atomic) and 'state' (atomic) of struct ck_epoch_record can share
// HOT: note: no function writes both: 'epoch' by 'ck_epoch_begin'; 'state' by 'ep_take_record'; writes at init, teardown, configuration or before publication do not count ('ck_epoch_unregister' registers or unregisters)
