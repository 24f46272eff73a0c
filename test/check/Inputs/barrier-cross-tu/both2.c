#include "msg.h"

int use_inline_again(struct msg *m) { return receive_inline(m); }
