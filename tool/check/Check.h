// The base of every check, after clang-tidy's ClangTidyCheck: a check is a
// class with a name that registers AST matchers (and preprocessor callbacks
// where macros matter) and reports through its context.
#ifndef LOCKWRIGHT_TOOL_CHECK_CHECK_H
#define LOCKWRIGHT_TOOL_CHECK_CHECK_H

#include "clang/ASTMatchers/ASTMatchFinder.h"

#include <string>

namespace clang {
class Preprocessor;
} // namespace clang

namespace lockwright {

class CheckContext;

class Check : public clang::ast_matchers::MatchFinder::MatchCallback {
public:
  Check(std::string Name, CheckContext &Context) : Name(std::move(Name)), Context(Context) {}
  ~Check() override = default;

  const std::string &name() const { return Name; }
  /// The name profiling records (--enable-check-profile) are kept under.
  llvm::StringRef getID() const override { return Name; }

  virtual void registerMatchers(clang::ast_matchers::MatchFinder &Finder) = 0;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &Result) override { check(Result); }
  virtual void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) = 0;
  virtual void registerPPCallbacks(clang::Preprocessor &) {}
  /// Called once the whole translation unit has been matched.
  virtual void onEndOfTranslationUnit() {}

protected:
  CheckContext &context() { return Context; }

private:
  std::string Name;
  CheckContext &Context;
};

} // namespace lockwright

#endif
