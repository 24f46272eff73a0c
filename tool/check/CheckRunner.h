// The per-TU runner of `lockwright check`: for each translation unit, the spec of its
// target (or the one forced by --arch), the sync-object model, and the enabled checks.
#ifndef LOCKWRIGHT_TOOL_CHECK_CHECKRUNNER_H
#define LOCKWRIGHT_TOOL_CHECK_CHECKRUNNER_H

#include "CheckContext.h"
#include "ParseTarget.h"
#include "summary/Summary.h"

#include "spec/Diagnostics.h"
#include "spec/SpecLoader.h"

#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Timer.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace lockwright {

class ApiNames;

/// What the runs of one `check` invocation share and collect.
struct RunState {
  const ApiNames *Names = nullptr;
  const CheckOptions *Options = nullptr;
  SpecRepository *Repo = nullptr;
  const ResolvedSpec *Forced = nullptr; // --arch: every TU is judged against this spec
  std::string LayoutNote;           // set when --arch is parsed as the host, or freestanding
  std::map<std::string, TripleSpec> ByTriple; // the spec of each target triple met, resolved once
  DiagnosticList SpecDiags;
  // --enable-check-profile: MatchFinder's per-check records, and our own buckets.
  bool Profiling = false;
  bool DumpOrdering = false; // --dump-ordering
  bool HashInputs = false;   // the cache or a summary file keeps each input's content hash
  bool WholeProgram = false; // summaries are reduced together (several TUs, --summaries, the cache)
  llvm::StringMap<llvm::TimeRecord> CheckTimes;
  llvm::TimeRecord ModelTime, MatchTime, OrderingTime;
  std::map<std::string, llvm::TimeRecord> EndTimes; // each check's end-of-TU judgement
};

/// The facts a check reads from a spec.
TargetFacts factsFor(const ResolvedSpec &Spec);

/// The check action for one TU: its findings, records and uses go to Out (and what it read,
/// with content hashes, to Out.Inputs).
std::unique_ptr<clang::tooling::FrontendActionFactory> makeCheckActionFactory(RunState &State, TuSummary &Out);

/// clang-tidy's --enable-check-profile, for lockwright: wall time per bucket, most first.
void printProfile(const RunState &State, double TotalWall);

} // namespace lockwright

#endif
