// C and C++ sources, mutated from the lit tests' (test/check/*.c, *.cpp): parsed and checked with
// every check against x86_64, the TU's summary written and read back (it must round-trip), and
// the whole-program judgement run on it. Half-written code is what the checker meets in an
// editor: it must report, not crash.
#include "CheckDiagnostics.h"
#include "CheckRunner.h"
#include "FuzzSupport.h"
#include "ProgramRun.h"
#include "api/ApiNames.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"

#include <cstdint>

using namespace lockwright;

namespace {

struct Checker {
  SpecRepository Repo{{LOCKWRIGHT_FUZZ_SPEC_DIR}};
  DiagnosticList Diags;
  std::vector<ApiSpec> Apis = Repo.loadApis(Diags);
  ApiNames Names = ApiNames::fromSpecs(Apis);
  std::optional<ResolvedSpec> Spec = Repo.resolve("x86_64", "", Diags);
  CheckOptions Options;
  RunState State;

  Checker() {
    if (!Spec || Diags.hasErrors()) {
      Diags.print(stderr);
      std::abort();
    }
    Options.Checks = "*";
    State.Names = &Names;
    State.Options = &Options;
    State.Repo = &Repo;
    State.Forced = &*Spec;
    State.HashInputs = true;
    State.WholeProgram = true;
  }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static Checker C;
  std::string Code(reinterpret_cast<const char *>(Data), Size);
  // One corpus holds both languages: C++ is what names C++ (the seeds' RUN lines would not
  // survive mutation).
  bool Cxx = Code.find("std::") != std::string::npos || Code.find("template") != std::string::npos ||
             Code.find("class ") != std::string::npos;
  std::string File = fuzz::scratchDir() + (Cxx ? "/input.cpp" : "/input.c");
  clang::tooling::FixedCompilationDatabase Database(
      fuzz::scratchDir(), {"-fsyntax-only", "--target=x86_64-linux-gnu", Cxx ? "-std=c++17" : "-std=c11"});
  clang::tooling::ClangTool Tool(Database, {File});
  Tool.mapVirtualFile(File, Code);
  TuSummary Summary;
  Summary.File = File;
  FindingCollector Collector(Summary);
  Tool.setDiagnosticConsumer(&Collector);
  std::unique_ptr<clang::tooling::FrontendActionFactory> Factory = makeCheckActionFactory(C.State, Summary);
  Tool.run(Factory.get());

  std::string Written = writeSummary(Summary);
  std::string Error;
  std::optional<TuSummary> Read = readSummary(Written, Error);
  if (!Read || writeSummary(*Read) != Written) {
    fprintf(stderr, "summary does not round-trip: %s\n", Error.c_str());
    std::abort();
  }
  unsigned Suppressed = 0;
  (void)reduceProgram({&Summary}, Suppressed);
  return 0;
}
