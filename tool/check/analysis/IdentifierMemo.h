// What the API tables say about a macro name, remembered per identifier: the preprocessor
// callbacks ask at every #define and every expansion of every header, and names repeat, so
// a pointer lookup replaces a std::string, two hash lookups and a pattern scan.
#ifndef LOCKWRIGHT_CHECK_ANALYSIS_IDENTIFIERMEMO_H
#define LOCKWRIGHT_CHECK_ANALYSIS_IDENTIFIERMEMO_H

#include "clang/Basic/IdentifierTable.h"
#include "llvm/ADT/DenseMap.h"

#include <string>

namespace lockwright {

template <class T> class IdentifierMemo {
public:
  /// Compute(name) the first time II is asked about, the remembered answer after.
  template <class Lookup> const T &get(const clang::IdentifierInfo *II, Lookup &&Compute) {
    auto [It, Inserted] = Memo.try_emplace(II);
    if (Inserted)
      It->second = Compute(II->getName().str());
    return It->second;
  }

private:
  llvm::DenseMap<const clang::IdentifierInfo *, T> Memo;
};

} // namespace lockwright

#endif
