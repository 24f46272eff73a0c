// The one place checks are registered, by name (as clang-tidy's modules do).
#include "CheckRegistry.h"

#include "layout/FalseSharingCheck.h"
#include "layout/HardcodedLineSizeCheck.h"
#include "layout/LockAlignmentCheck.h"
#include "layout/SplitAtomicCheck.h"
#include "layout/UnpaddedArrayCheck.h"

#include <algorithm>

namespace lockwright {

namespace {

template <class T> CheckInfo entry(const char *Name, const char *Summary, std::vector<std::string> Options = {}) {
  return {Name, Summary, [Name](CheckContext &C) { return std::unique_ptr<Check>(new T(Name, C)); }, std::move(Options)};
}

} // namespace

const std::vector<CheckInfo> &allChecks() {
  static const std::vector<CheckInfo> Checks = {
      entry<FalseSharingCheck>("layout-false-sharing",
                               "independently written locks and atomics within one destructive-interference window"),
      entry<HardcodedLineSizeCheck>("layout-hardcoded-line-size",
                                    "alignment or padding below the target's destructive interference size",
                                    {"ReportOverPadding", "PaddingConstant"}),
      entry<LockAlignmentCheck>("layout-lock-alignment",
                                "lock words aligned below what the target (or their type) requires"),
      entry<SplitAtomicCheck>("layout-split-atomic", "atomics and lock words that can straddle a cache line"),
      entry<UnpaddedArrayCheck>("layout-unpadded-array",
                                "arrays of locks, atomics or per-thread slots packed closer than the destructive size"),
  };
  return Checks;
}

bool globMatches(const std::string &Glob, const std::string &Text) {
  // Iterative '*' matching with backtracking to the last star.
  size_t G = 0, T = 0, Star = std::string::npos, Mark = 0;
  while (T < Text.size()) {
    if (G < Glob.size() && Glob[G] == '*') {
      Star = G++;
      Mark = T;
    } else if (G < Glob.size() && Glob[G] == Text[T]) {
      ++G;
      ++T;
    } else if (Star != std::string::npos) {
      G = Star + 1;
      T = ++Mark;
    } else {
      return false;
    }
  }
  while (G < Glob.size() && Glob[G] == '*')
    ++G;
  return G == Glob.size();
}

CheckFilter::CheckFilter(const std::string &List) {
  size_t Start = 0;
  while (Start <= List.size()) {
    size_t Comma = List.find(',', Start);
    std::string Item = List.substr(Start, Comma == std::string::npos ? std::string::npos : Comma - Start);
    Item.erase(0, Item.find_first_not_of(" \t"));
    Item.erase(Item.find_last_not_of(" \t") + 1);
    if (!Item.empty()) {
      bool Positive = Item[0] != '-';
      Globs.emplace_back(Positive, Positive ? Item : Item.substr(1));
    }
    if (Comma == std::string::npos)
      break;
    Start = Comma + 1;
  }
}

bool CheckFilter::enabled(const std::string &CheckName) const {
  bool On = false;
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
