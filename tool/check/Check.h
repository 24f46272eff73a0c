// The base of every check, after clang-tidy's ClangTidyCheck: a check is a
// class with a name that registers AST matchers (and preprocessor callbacks
// where macros matter) and reports through its context.
#ifndef LOCKWRIGHT_TOOL_CHECK_CHECK_H
#define LOCKWRIGHT_TOOL_CHECK_CHECK_H

#include "CheckContext.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace clang {
class LangOptions;
class Preprocessor;
} // namespace clang

namespace lockwright {

class Check : public clang::ast_matchers::MatchFinder::MatchCallback {
public:
  Check(std::string Name, CheckContext &Context) : Name(std::move(Name)), Context(Context) {}
  ~Check() override = default;

  const std::string &name() const { return Name; }
  /// The name profiling records (--enable-check-profile) are kept under.
  llvm::StringRef getID() const override { return Name; }

  /// Whether the check runs on a TU with these language options (clang-tidy's hook); the
  /// runner leaves the check out of the others.
  virtual bool isLanguageVersionSupported(const clang::LangOptions &LangOpts) const { return true; }
  virtual void registerMatchers(clang::ast_matchers::MatchFinder &Finder) = 0;
  /// Whether the matchers registered match statements or expressions. When no enabled check's
  /// do, the matcher walk visits declarations only (those inside functions included) and skips
  /// the statements of function bodies, a third of its time.
  virtual bool matchesStatements() const { return false; }
  void run(const clang::ast_matchers::MatchFinder::MatchResult &Result) override { check(Result); }
  virtual void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) = 0;
  virtual void registerPPCallbacks(clang::Preprocessor &) {}
  /// Called once the whole translation unit has been matched, by the runner once the models
  /// are set up.
  virtual void endOfTranslationUnit() {}
  /// MatchFinder's own end-of-TU call, which comes before the runner sets the ordering model
  /// up: the runner calls endOfTranslationUnit instead (both ran before, judging each TU twice).
  void onEndOfTranslationUnit() final {}
  /// How much of the ordering model the check reads (built once per TU, on first use): none,
  /// the functions that write a barrier (enough for barrier-redundant), or every function and
  /// the writer/reader pairs.
  enum class OrderingUse { None, FencesWritten, Everything };
  virtual OrderingUse orderingUse() const { return OrderingUse::None; }

protected:
  CheckContext &context() { return Context; }
  /// Reports under this check's name, Format's %0, %1, ... replaced by Args (clang-tidy's
  /// diag() << Arg); the context adds NOLINT, the filters and the layout note.
  void report(clang::SourceLocation Loc, llvm::StringRef Format, llvm::ArrayRef<std::string> Args,
              const std::vector<CheckContext::Note> &Notes = {}, const std::vector<clang::FixItHint> &Fixes = {},
              clang::SourceLocation LayoutAt = {}) {
    Context.report(Name, Loc, formatMessage(Format, Args), Notes, Fixes, LayoutAt);
  }

private:
  std::string Name;
  CheckContext &Context;
};

} // namespace lockwright

#endif
