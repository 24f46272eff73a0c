// layout-false-sharing: two synchronisation objects of one record that are
// written independently (no function touches both) and can fall in one
// destructive-interference window of the target.
#include "layout/FalseSharingCheck.h"

#include "CheckContext.h"
#include "analysis/SharingPairs.h"
#include "StringList.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace lockwright {

FalseSharingCheck::FalseSharingCheck(std::string Name, CheckContext &Context)
    : Check(Name, Context), Builder(Context, Name) {}

void FalseSharingCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(recordDecl(isDefinition(), unless(isImplicit())).bind("record"), this);
}

void FalseSharingCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *R = Result.Nodes.getNodeAs<RecordDecl>("record");
  if (!context().inUserCode(R->getLocation()) || R->isDependentType() || R->isInvalidDecl())
    return;
  Builder.addRecord(R);
}

void FalseSharingCheck::endOfTranslationUnit() { Builder.finish(); }

void FalseSharingCheck::judgeProgram(const ProgramSummary &Program, Finding::Level Severity,
                                     std::vector<Finding> &Out, unsigned &Suppressed) {
  // A record only ever inside per-CPU records is per CPU too.
  std::set<std::string> PerCpu = perCpuRecords(Program.Records);
  // Instantiations of one template (Ring<char, 3>, Ring<long, 5>) declare the same pair at the
  // same place: one finding, naming them. By (target, first field, second field): the finding's
  // index in Out and the records named so far.
  std::map<std::tuple<std::string, SourcePoint, SourcePoint>, std::pair<size_t, std::vector<std::string>>> SamePair;
  for (const auto &[Label, R] : Program.Records) {
    if (PerCpu.count(R.Key))
      continue;
    const TargetSummary &T = Program.Targets.at(Label);
    for (const SharingPair &P : falseSharingPairs(R, Program.Fields, T.Destructive)) {
        const SharedObject &A = *P.First, &B = *P.Second;
        if (!B.Reportable)
          continue;
        if (B.Suppressed) {
          ++Suppressed;
          continue;
        }
        Finding F;
        F.Check = "layout-false-sharing";
        F.Severity = Severity;
        F.At = B.At;
        std::string Pair = "'" + B.Path + "' (" + syncKindName(kindOf(B, Program.Fields)) + ") and '" + A.Path +
                           "' (" + syncKindName(kindOf(A, Program.Fields)) + ") of ";
        std::string Verdict = " can share a " + std::to_string(T.Destructive) +
                              "-byte destructive-interference window on " + T.Label +
                              "; they are written independently, so they false-share";
        auto [Same, FirstOfPair] =
            SamePair.try_emplace({T.Label, A.At, B.At}, Out.size(), std::vector<std::string>{R.Label});
        if (!FirstOfPair) {
          std::vector<std::string> &Names = Same->second.second;
          Names.push_back(R.Label);
          std::vector<std::string> Others(Names.begin() + 1, Names.begin() + std::min<size_t>(Names.size(), 4));
          if (Names.size() > 4)
            Others.push_back(std::to_string(Names.size() - 4) + " more");
          Out[Same->second.first].Message = Pair + Names.front() + " (and " + joinList(Others, ", ") + ")" + Verdict;
          continue;
        }
        F.Message = Pair + R.Label + Verdict;
        F.Notes.push_back({A.At, "'" + A.Path + "' is at offset " + std::to_string(A.Offset) + " (" +
                                     std::to_string(A.Size) + " bytes); '" + B.Path + "' is at offset " +
                                     std::to_string(B.Offset) + ", " + std::to_string(B.Offset - A.Offset) +
                                     " bytes after its start",
                           {}});
        F.Notes.push_back({B.At,
                           "the destructive interference size of " + T.Label + " is " +
                               std::to_string(T.Destructive) + " bytes",
                           {},
                           T.DestructiveSource});
        // Which rule made each a sync object, and who writes them.
        for (const SharedObject *O : {&A, &B})
          if (std::string Why = reasonFor(*O, Program.Fields); !Why.empty())
            F.Notes.push_back({O->At, Why, {}});
        F.Notes.push_back({B.At, writersNote(A, B, Program.Fields), {}});
        if (B.AlignAt) {
          F.Fixes.push_back(*B.AlignAt);
          if (R.NewBeforeCxx17)
            F.Notes.push_back({R.At, R.Label + " is allocated with 'new', which before C++17 does not honour "
                                               "alignment above alignof(std::max_align_t)",
                               {}});
        }
        if (!T.LayoutNote.empty())
          F.Notes.push_back({R.At, T.LayoutNote, {}});
        Out.push_back(std::move(F));
      }
  }
}

} // namespace lockwright
