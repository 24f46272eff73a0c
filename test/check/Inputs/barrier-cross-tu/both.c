#include "msg.h"

// A file that uses the header's pair: judged here, and once however many files include it.
int use_inline(struct msg *m) {
  send_inline(m, 1);
  return receive_inline(m);
}
