#ifndef LOCKWRIGHT_TOOL_CHECK_BARRIER_MISSING_RELEASE_CHECK_H
#define LOCKWRIGHT_TOOL_CHECK_BARRIER_MISSING_RELEASE_CHECK_H

#include "barrier/BarrierSupport.h"

namespace lockwright {

/// See docs/checks/barrier-missing-release.md.
class MissingReleaseCheck : public OrderingCheck {
public:
  using OrderingCheck::OrderingCheck;

protected:
  void judge(OrderingModel &Model) override;
};

} // namespace lockwright

#endif
