// A TU's part of the whole-program summary, from its AST: the records whose sync objects the
// use-dependent checks judge after every TU is in, and how this TU uses their fields. Keys name
// a declaration alike in every TU: its canonical name and where it is declared.
#ifndef LOCKWRIGHT_TOOL_CHECK_SUMMARY_SUMMARYBUILDER_H
#define LOCKWRIGHT_TOOL_CHECK_SUMMARY_SUMMARYBUILDER_H

#include "summary/Summary.h"

#include <map>
#include <set>
#include <string>

namespace clang {
class FieldDecl;
class FunctionDecl;
class RecordDecl;
class SourceLocation;
class ValueDecl;
} // namespace clang

namespace lockwright {

class CheckContext;
struct ObjectUse;

class SummaryBuilder {
public:
  /// Check: the check whose NOLINT comments and filters decide where its findings may go.
  SummaryBuilder(CheckContext &Ctx, std::string Check);

  /// Adds R to the summary when it holds an object that is, or another TU could make, a sync
  /// object. R's definition, outside system headers.
  void addRecord(const clang::RecordDecl *R);
  /// Adds the uses of every field the added records name; call once, after the TU is walked.
  void finish();

  std::string recordKey(const clang::RecordDecl *R);
  std::string fieldKey(const clang::ValueDecl *D);
  std::string functionKey(const clang::FunctionDecl *F);

private:
  std::string where(const clang::SourceLocation &Loc);
  FieldFacts factsOf(const ObjectUse &U);
  /// Adds the TU's calls, with the functions among them that are cold or have their address
  /// taken (TuSummary::Callers).
  void addCalls();

  CheckContext &Ctx;
  std::string Check;
  std::map<std::string, const clang::ValueDecl *> Mentioned; // field key -> the field
  std::map<std::string, std::vector<const clang::FieldDecl *>> MentionedPaths; // path key -> its members
  std::map<const clang::RecordDecl *, std::string> RecordKeys; // recordKey's answers (every field asks)
};

} // namespace lockwright

#endif
