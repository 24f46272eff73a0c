#include "FixApplier.h"

#include "FileIO.h"

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>
#include <tuple>

using namespace clang;

namespace lockwright {

int applyFixes(const std::vector<tooling::Replacement> &All) {
  std::map<std::string, std::vector<tooling::Replacement>> ByFile;
  for (const tooling::Replacement &R : All)
    ByFile[R.getFilePath().str()].push_back(R);
  int Failures = 0;
  for (auto &[File, List] : ByFile) {
    tooling::Replacements Merged;
    bool Conflict = false;
    std::set<std::tuple<unsigned, unsigned, std::string>> Unique;
    std::map<unsigned, std::string> Insertions;
    for (const tooling::Replacement &R : List) {
      if (!Unique.insert({R.getOffset(), R.getLength(), R.getReplacementText().str()}).second)
        continue;
      // Two different insertions at one point (alignas(64) and alignas(128) from two
      // architectures) would both land: for us that is a conflict, not a merge.
      if (R.getLength() == 0) {
        auto [It, New] = Insertions.emplace(R.getOffset(), R.getReplacementText().str());
        if (!New && It->second != R.getReplacementText()) {
          Conflict = true;
          break;
        }
      }
      if (llvm::Error E = Merged.add(R)) {
        llvm::consumeError(std::move(E));
        Conflict = true;
        break;
      }
    }
    if (Conflict) {
      llvm::errs() << "lockwright: fixes for " << File << " conflict; none applied\n";
      ++Failures;
      continue;
    }
    auto Buffer = llvm::MemoryBuffer::getFile(File);
    if (!Buffer) {
      llvm::errs() << "lockwright: cannot read " << File << "\n";
      ++Failures;
      continue;
    }
    llvm::Expected<std::string> Fixed = tooling::applyAllReplacements((*Buffer)->getBuffer(), Merged);
    if (!Fixed) {
      llvm::errs() << "lockwright: cannot apply fixes to " << File << ": " << llvm::toString(Fixed.takeError())
                   << "\n";
      ++Failures;
      continue;
    }
    std::string Error;
    if (writeFileIfChanged(File, *Fixed, Error) == WriteOutcome::Failed) {
      llvm::errs() << "lockwright: " << Error << "\n";
      ++Failures;
      continue;
    }
    llvm::errs() << "lockwright: applied " << Merged.size() << " fix" << (Merged.size() == 1 ? "" : "es") << " to "
                 << File << "\n";
  }
  return Failures;
}

} // namespace lockwright
