// The one place checks are registered, by name (as clang-tidy's modules do).
#include "CheckRegistry.h"

#include "barrier/MisplacedReadBarrierCheck.h"
#include "barrier/MisplacedWriteBarrierCheck.h"
#include "barrier/MissingAcquireCheck.h"
#include "barrier/MissingReleaseCheck.h"
#include "barrier/RedundantBarrierCheck.h"
#include "layout/FalseSharingCheck.h"
#include "layout/HardcodedLineSizeCheck.h"
#include "layout/LockAlignmentCheck.h"
#include "layout/SplitAtomicCheck.h"
#include "layout/UnpaddedArrayCheck.h"
#include "wait/WaitChecks.h"

#include "Glob.h"
#include "StringList.h"

#include <algorithm>

namespace lockwright {

namespace {

template <class T> CheckInfo entry(const char *Name, const char *Summary, std::vector<std::string> Options = {}) {
  return {Name, Summary, [Name](CheckContext &C) { return std::unique_ptr<Check>(new T(Name, C)); }, std::move(Options)};
}

/// A check judged on the whole program's summaries as well (T::judgeProgram).
template <class T> CheckInfo wholeProgramEntry(const char *Name, const char *Summary) {
  CheckInfo Info = entry<T>(Name, Summary);
  Info.JudgeProgram = &T::judgeProgram;
  return Info;
}

} // namespace

const char *const DefaultChecks = "*,-barrier-missing-*,-barrier-misplaced-*,-wait-*";

const std::vector<CheckInfo> &allChecks() {
  static const std::vector<CheckInfo> Checks = {
      entry<MisplacedReadBarrierCheck>("barrier-misplaced-read-barrier",
                                       "a read barrier or acquire fence outside the guarding load and the loads it guards"),
      entry<MisplacedWriteBarrierCheck>("barrier-misplaced-write-barrier",
                                        "a write barrier or release fence outside the data stores and the store that publishes them"),
      wholeProgramEntry<MissingAcquireCheck>("barrier-missing-acquire",
                                 "a flag, pointer or index load guarding paired data loads with no acquire ordering"),
      entry<MissingReleaseCheck>("barrier-missing-release",
                                 "a store publishing paired data stores with no release ordering"),
      entry<RedundantBarrierCheck>("barrier-redundant",
                                   "a barrier already implied where it stands on the target"),
      wholeProgramEntry<FalseSharingCheck>("layout-false-sharing",
                                           "independently written locks and atomics within one "
                                           "destructive-interference window"),
      entry<HardcodedLineSizeCheck>("layout-hardcoded-line-size",
                                    "alignment or padding below the target's destructive interference size",
                                    {"ReportOverPadding", "PaddingConstant"}),
      entry<LockAlignmentCheck>("layout-lock-alignment",
                                "lock words aligned below what the target (or their type) requires"),
      entry<SplitAtomicCheck>("layout-split-atomic", "atomics and lock words that can straddle a cache line"),
      entry<UnpaddedArrayCheck>("layout-unpadded-array",
                                "arrays of locks, atomics or per-thread slots packed closer than the destructive size"),
      entry<AcquireInLoopCheck>("wait-acquire-in-loop",
                                "a polling loop that pays an acquire on every pass instead of once after the exit"),
      entry<MissingRelaxCheck>("wait-missing-relax", "a busy-wait loop with no cpu_relax-like hint"),
      entry<PlainVariableWaitCheck>("wait-plain-variable",
                                    "a loop waiting on a plain variable the compiler may read only once"),
  };
  return Checks;
}

CheckFilter::CheckFilter(const std::string &List) {
  for (const std::string &Item : splitList(List)) {
    bool Positive = Item[0] != '-';
    Globs.emplace_back(Positive, Positive ? Item : Item.substr(1));
  }
}

std::optional<bool> CheckFilter::verdict(const std::string &CheckName) const {
  std::optional<bool> On;
  for (const auto &[Positive, Glob] : Globs)
    if (globMatches(Glob, CheckName))
      On = Positive;
  return On;
}

std::vector<std::string> CheckFilter::unmatched() const {
  std::vector<std::string> Out;
  for (const auto &[Positive, Glob] : Globs)
    if (std::none_of(allChecks().begin(), allChecks().end(),
                     [&](const CheckInfo &C) { return globMatches(Glob, C.Name); }))
      Out.push_back(Glob);
  return Out;
}

} // namespace lockwright
