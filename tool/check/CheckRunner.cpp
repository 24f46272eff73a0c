#include "CheckRunner.h"

#include "Check.h"
#include "CheckRegistry.h"
#include "ParseTarget.h"
#include "api/ApiNames.h"
#include "analysis/OrderingModel.h"
#include "analysis/SyncModel.h"
#include "summary/FromClang.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <functional>
#include <map>

using namespace clang;
using namespace clang::tooling;

namespace lockwright {

TargetFacts factsFor(const ResolvedSpec &Spec) {
  TargetFacts F;
  F.Spec = &Spec;
  F.Arch = Spec.Arch;
  F.Cpu = Spec.Cpu;
  const ArchModel &M = Spec.model();
  F.L1Line = M.Cache.L1Line.Value;
  F.SmpLine = M.Cache.SmpLine.Value;
  F.Destructive = M.Cache.Destructive.Value;
  F.DestructiveSource = M.Cache.Destructive.Source;
  F.LockWordAlign = M.LockWord.Align;
  F.LockWordSize = M.LockWord.Size;
  F.LockWordSource = M.LockWord.Source;
  return F;
}


void printProfile(const RunState &State, double TotalWall) {
  std::vector<std::pair<std::string, double>> Rows;
  double Ours = State.ModelTime.getWallTime() + State.MatchTime.getWallTime() + State.OrderingTime.getWallTime();
  double InChecks = 0;
  // A check's time: its matchers' and its end-of-TU judgement's.
  std::map<std::string, double> PerCheck;
  for (const auto &Entry : State.CheckTimes) {
    PerCheck[Entry.getKey().str()] += Entry.getValue().getWallTime();
    InChecks += Entry.getValue().getWallTime();
  }
  for (const auto &[Name, Time] : State.EndTimes) {
    PerCheck[Name] += Time.getWallTime();
    Ours += Time.getWallTime();
  }
  for (const auto &[Name, Seconds] : PerCheck)
    Rows.push_back({"check " + Name, Seconds});
  Rows.push_back({"sync-object model (uses per function, macro arguments)", State.ModelTime.getWallTime()});
  Rows.push_back({"ordering model (events per function from the CFG, pairs)", State.OrderingTime.getWallTime()});
  Rows.push_back({"AST traversal outside the checks' matchers", std::max(0.0, State.MatchTime.getWallTime() - InChecks)});
  Rows.push_back({"compiler front end (preprocess, parse, sema) and driver", std::max(0.0, TotalWall - Ours)});
  std::sort(Rows.begin(), Rows.end(), [](const auto &A, const auto &B) { return A.second > B.second; });
  llvm::errs() << "===------------------------------------------------------------===\n"
               << "  lockwright check profile: " << llvm::format("%.3f", TotalWall) << " s wall\n"
               << "===------------------------------------------------------------===\n";
  for (const auto &[Name, Seconds] : Rows)
    llvm::errs() << llvm::format("  %8.4f s  %5.1f%%  ", Seconds, TotalWall > 0 ? 100 * Seconds / TotalWall : 0)
                 << Name << "\n";
}

namespace {

/// The declarations a decl-only matcher walk needs, in place of Scope: each function gives
/// the declarations made in its body (local records and variables, those of blocks within),
/// not its statements. The functions themselves go to Functions, to be matched as single nodes.
std::vector<Decl *> declarationsOnly(llvm::ArrayRef<Decl *> Scope, std::vector<FunctionDecl *> &Functions) {
  std::vector<Decl *> Out;
  std::function<void(DeclContext *)> Locals = [&](DeclContext *DC) {
    for (Decl *D : DC->decls()) {
      if (isa<ParmVarDecl>(D))
        continue;
      if (auto *Nested = dyn_cast<BlockDecl>(D))
        Locals(Nested);
      else if (auto *Captured = dyn_cast<CapturedDecl>(D))
        Locals(Captured);
      else
        Out.push_back(D);
    }
  };
  for (Decl *D : Scope) {
    auto *FD = dyn_cast<FunctionDecl>(D);
    if (FD && !FD->isTemplated()) {
      Functions.push_back(FD);
      Locals(FD);
    } else
      Out.push_back(D);
  }
  return Out;
}

/// Whether any expression under S is one the compiler could not build (a RecoveryExpr, or
/// anything built on one).
bool containsErrors(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *E = dyn_cast<Expr>(S); E && E->containsErrors())
    return true;
  return std::any_of(S->child_begin(), S->child_end(), [](const Stmt *C) { return containsErrors(C); });
}

/// Whether D, a top-level declaration of a TU with errors, compiled whole: valid, and (for a
/// function, or a namespace's or record's members) without broken expressions or members.
bool compiled(const Decl *D) {
  if (D->isInvalidDecl())
    return false;
  if (const auto *FD = dyn_cast<FunctionDecl>(D))
    return !containsErrors(FD->getBody());
  if (const auto *VD = dyn_cast<VarDecl>(D))
    return !containsErrors(VD->getInit());
  if (const auto *DC = dyn_cast<DeclContext>(D))
    return std::all_of(DC->decls_begin(), DC->decls_end(), [](const Decl *Member) { return compiled(Member); });
  return true;
}

class CheckConsumer : public ASTConsumer {
public:
  CheckConsumer(std::unique_ptr<SyncModel> Model, std::unique_ptr<OrderingModel> Ordering,
                std::unique_ptr<TargetFacts> Target,
                std::unique_ptr<CheckContext> Ctx, std::vector<std::unique_ptr<Check>> Checks,
                std::unique_ptr<ast_matchers::MatchFinder> Finder, RunState &State, TuSummary &Out)
      : Model(std::move(Model)), Ordering(std::move(Ordering)), Target(std::move(Target)), Ctx(std::move(Ctx)), Checks(std::move(Checks)),
        Finder(std::move(Finder)), State(State), Out(Out) {}

  void HandleTranslationUnit(ASTContext &AST) override {
    recordInputs(AST.getSourceManager());
    llvm::TimeRecord Start = llvm::TimeRecord::getCurrentTime(true);
    // Walk only what the user wrote: nothing in a system header is reported (unless
    // --system-headers), and libc's and libstdc++'s declarations were a fifth of the run on ck.
    // Beside compiler errors, as clang-tidy, the declarations that compiled are still checked;
    // one the compiler gave up on (an invalid declaration, a body with an expression it could
    // not build) is left out: its layout or orderings would be guesses.
    const SourceManager &SM = AST.getSourceManager();
    bool Errors = AST.getDiagnostics().hasErrorOccurred();
    std::vector<Decl *> UserDecls;
    for (Decl *D : AST.getTranslationUnitDecl()->decls())
      if ((State.Options->SystemHeaders || !SM.isInSystemHeader(SM.getFileLoc(D->getLocation()))) &&
          (!Errors || compiled(D)))
        UserDecls.push_back(D);
    AST.setTraversalScope(UserDecls);
    Model->collect();
    llvm::TimeRecord Collected = llvm::TimeRecord::getCurrentTime(true);
    bool Statements = std::any_of(Checks.begin(), Checks.end(), [](const auto &C) { return C->matchesStatements(); });
    if (Statements) {
      Finder->matchAST(AST);
    } else {
      std::vector<FunctionDecl *> Functions;
      AST.setTraversalScope(declarationsOnly(UserDecls, Functions));
      Finder->matchAST(AST);
      AST.setTraversalScope(UserDecls);
      for (FunctionDecl *FD : Functions)
        Finder->match(*FD, AST);
    }
    llvm::TimeRecord Matched = llvm::TimeRecord::getCurrentTime(false);
    if (State.Profiling) {
      Collected -= Start;
      State.ModelTime += Collected;
      Matched -= Start;
      Matched -= Collected;
      State.MatchTime += Matched;
    }
    // The ordering model covers what its most demanding check reads; it is built on first
    // use, or here when profiling, so that its time is its own bucket.
    Check::OrderingUse Use = State.DumpOrdering ? Check::OrderingUse::Everything : Check::OrderingUse::None;
    for (const auto &C : Checks)
      Use = std::max(Use, C->orderingUse());
    Ordering->setFencesOnly(Use == Check::OrderingUse::FencesWritten);
    if (State.Profiling && Use != Check::OrderingUse::None) {
      llvm::TimeRecord Before = llvm::TimeRecord::getCurrentTime(true);
      Ordering->pairs();
      llvm::TimeRecord Built = llvm::TimeRecord::getCurrentTime(false);
      Built -= Before;
      State.OrderingTime += Built;
    }
    for (auto &C : Checks) {
      llvm::TimeRecord Before = llvm::TimeRecord::getCurrentTime(true);
      C->endOfTranslationUnit();
      if (State.Profiling) {
        llvm::TimeRecord Judged = llvm::TimeRecord::getCurrentTime(false);
        Judged -= Before;
        State.EndTimes[C->name()] += Judged;
      }
    }
    Ctx->reportNolintErrors();
    if (State.DumpOrdering)
      Ordering->dump(llvm::outs());
  }

private:
  /// Every file the TU read and a hash of its content: what a cached summary depends on.
  void recordInputs(const SourceManager &SM) {
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
      std::optional<llvm::MemoryBufferRef> Buffer = It->second->getBufferIfLoaded();
      if (!Buffer)
        continue;
      std::string Hash = State.HashInputs ? contentHash(std::string_view(Buffer->getBuffer().data(), Buffer->getBufferSize())) : "";
      Out.Inputs.push_back({filePath(SM.getFileManager(), It->first), std::move(Hash)});
    }
    std::sort(Out.Inputs.begin(), Out.Inputs.end());
    Out.Inputs.erase(std::unique(Out.Inputs.begin(), Out.Inputs.end()), Out.Inputs.end());
  }

  std::unique_ptr<SyncModel> Model;
  std::unique_ptr<OrderingModel> Ordering;
  std::unique_ptr<TargetFacts> Target;
  std::unique_ptr<CheckContext> Ctx;
  std::vector<std::unique_ptr<Check>> Checks;
  std::unique_ptr<ast_matchers::MatchFinder> Finder;
  RunState &State;
  TuSummary &Out;
};

class CheckAction : public ASTFrontendAction {
public:
  CheckAction(RunState &State, TuSummary &Out) : State(State), Out(Out) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef) override {
    const ResolvedSpec *Spec = State.Forced;
    std::string LayoutNoteText = State.LayoutNote;
    if (!Spec) {
      std::string Triple = CI.getTarget().getTriple().str();
      auto It = State.ByTriple.find(Triple);
      if (It == State.ByTriple.end()) {
        DiagnosticList Diags;
        std::optional<TripleSpec> Resolved = specForTriple(*State.Repo, Triple, Diags);
        if (!Resolved) {
          if (!State.SpecDiags.hasErrors()) // the same for every TU of this run
            State.SpecDiags.append(Diags);
          return std::make_unique<ASTConsumer>();
        }
        It = State.ByTriple.emplace(Triple, std::move(*Resolved)).first;
      }
      Spec = &It->second.Spec;
      LayoutNoteText = It->second.Note;
    }
    // The compiler's warnings are never shown (only its errors are), so none is computed:
    // Sema's CFG-based warnings alone were 6% of a ck TU. Errors by default
    // (-Wimplicit-function-declaration) stay errors; -Werror no longer stops a TU being judged.
    CI.getDiagnostics().setIgnoreAllWarnings(true);
    auto Target = std::make_unique<TargetFacts>(factsFor(*Spec));
    Target->LayoutNote = LayoutNoteText;
    auto Model = std::make_unique<SyncModel>(*State.Names, CI.getASTContext());
    Preprocessor &PP = CI.getPreprocessor();
    PP.addPPCallbacks(Model->macroRecorder(PP));
    auto Ordering = std::make_unique<OrderingModel>(*State.Names, *Model, CI.getASTContext());
    PP.addPPCallbacks(Ordering->expansionRecorder(PP));
    Out.Target.Label = Target->label();
    Out.Target.Destructive = Target->Destructive;
    Out.Target.DestructiveSource = Target->DestructiveSource;
    Out.Target.LayoutNote = Target->LayoutNote;
    auto Ctx = std::make_unique<CheckContext>(CI.getASTContext(), *Model, *Target, *State.Options, Out, Ordering.get());
    Ctx->setWholeProgram(State.WholeProgram);
    ast_matchers::MatchFinder::MatchFinderOptions FinderOptions;
    if (State.Profiling)
      FinderOptions.CheckProfiling.emplace(State.CheckTimes);
    auto Finder = std::make_unique<ast_matchers::MatchFinder>(std::move(FinderOptions));
    std::vector<std::unique_ptr<Check>> Checks;
    CheckFilter Filter(State.Options->Checks);
    for (const CheckInfo &Info : allChecks()) {
      if (!Filter.enabled(Info.Name))
        continue;
      Checks.push_back(Info.Create(*Ctx));
      if (!Checks.back()->isLanguageVersionSupported(CI.getLangOpts())) {
        Checks.pop_back();
        continue;
      }
      Checks.back()->registerMatchers(*Finder);
      Checks.back()->registerPPCallbacks(PP);
    }
    return std::make_unique<CheckConsumer>(std::move(Model), std::move(Ordering), std::move(Target), std::move(Ctx), std::move(Checks),
                                           std::move(Finder), State, Out);
  }

private:
  RunState &State;
  TuSummary &Out;
};

class CheckActionFactory : public FrontendActionFactory {
public:
  CheckActionFactory(RunState &State, TuSummary &Out) : State(State), Out(Out) {}
  std::unique_ptr<FrontendAction> create() override { return std::make_unique<CheckAction>(State, Out); }

private:
  RunState &State;
  TuSummary &Out;
};

} // namespace

std::unique_ptr<FrontendActionFactory> makeCheckActionFactory(RunState &State, TuSummary &Out) {
  return std::make_unique<CheckActionFactory>(State, Out);
}

} // namespace lockwright
