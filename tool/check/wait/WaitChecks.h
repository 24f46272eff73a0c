// The wait checks (docs/checks/wait-*.md): polling loops that pay an acquire on every pass,
// spin on a variable the compiler may read once, or spin without a relax hint. Each judges
// the loops of WaitLoops.h once the TU is parsed.
#ifndef LOCKWRIGHT_TOOL_CHECK_WAIT_WAITCHECKS_H
#define LOCKWRIGHT_TOOL_CHECK_WAIT_WAITCHECKS_H

#include "barrier/BarrierSupport.h"

namespace lockwright {

/// See docs/checks/wait-acquire-in-loop.md.
class AcquireInLoopCheck : public OrderingCheck {
public:
  using OrderingCheck::OrderingCheck;

protected:
  void judge(OrderingModel &Model) override;
};

/// See docs/checks/wait-plain-variable.md.
class PlainVariableWaitCheck : public OrderingCheck {
public:
  using OrderingCheck::OrderingCheck;

protected:
  void judge(OrderingModel &Model) override;
};

/// See docs/checks/wait-missing-relax.md.
class MissingRelaxCheck : public OrderingCheck {
public:
  using OrderingCheck::OrderingCheck;

protected:
  void judge(OrderingModel &Model) override;
};

} // namespace lockwright

#endif
