#ifndef LOCKWRIGHT_TOOL_CHECK_BARRIER_REDUNDANT_BARRIER_CHECK_H
#define LOCKWRIGHT_TOOL_CHECK_BARRIER_REDUNDANT_BARRIER_CHECK_H

#include "barrier/BarrierSupport.h"

namespace lockwright {

/// See docs/checks/barrier-redundant.md.
class RedundantBarrierCheck : public OrderingCheck {
public:
  using OrderingCheck::OrderingCheck;

  /// It judges barriers where they are written: functions without one need no events.
  OrderingUse orderingUse() const override { return OrderingUse::FencesWritten; }

protected:
  void judge(OrderingModel &Model) override;
};

} // namespace lockwright

#endif
