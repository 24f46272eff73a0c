#ifndef LOCKWRIGHT_TOOL_CHECK_BARRIER_MISPLACED_READ_BARRIER_CHECK_H
#define LOCKWRIGHT_TOOL_CHECK_BARRIER_MISPLACED_READ_BARRIER_CHECK_H

#include "barrier/BarrierSupport.h"

namespace lockwright {

/// See docs/checks/barrier-misplaced-read-barrier.md.
class MisplacedReadBarrierCheck : public OrderingCheck {
public:
  using OrderingCheck::OrderingCheck;

protected:
  void judge(OrderingModel &Model) override;
};

} // namespace lockwright

#endif
