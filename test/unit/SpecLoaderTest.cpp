#include "spec/SpecLoader.h"
#include "spec/PrebuiltSpecs.h"
#include "spec/Schema.h"

#include "FileIO.h"

#include "TestUtil.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <regex>

using namespace lockwright;
using lockwright::test::ScratchDir;

namespace {

const char *MinimalChild = R"(name: child
inherits: generic
target:
  triples: ["child-*"]
  bits: "64"
  endian: little
cache:
  l1_line:
    value: 128
    source: "child manual"
  destructive:
    value: 128
    source: "child manual"
barriers:
  full:
    asm: ["fence"]
    orders: [load-load, load-store, store-load, store-store]
    source: "child manual"
)";

SpecRepository repoWith(const ScratchDir &Dir) {
  return SpecRepository({Dir.path(), LOCKWRIGHT_TEST_SPEC_DIR});
}

/// MinimalChild written into Dir and resolved.
std::optional<ResolvedSpec> resolveMinimalChild(const ScratchDir &Dir, DiagnosticList &Diags) {
  Dir.write("arch/child.yaml", MinimalChild);
  SpecRepository Repo = repoWith(Dir);
  return Repo.resolve("child", "", Diags);
}

} // namespace

TEST(SpecLoader, EveryShippedArchitectureAndCpuResolves) {
  SpecRepository Repo({LOCKWRIGHT_TEST_SPEC_DIR});
  std::vector<std::string> Names = Repo.archNames();
  ASSERT_EQ(Names.size(), 12u) << "generic + 11 architectures";
  for (const std::string &Arch : Names) {
    DiagnosticList Diags;
    auto Spec = Repo.resolve(Arch, "", Diags);
    ASSERT_TRUE(Spec) << Arch << "\n" << Diags.str();
    for (const SpecNode &Cpu : Spec->Tree.get("cpus")->items()) {
      auto Variant = Repo.resolve(Arch, Cpu.value(), Diags);
      EXPECT_TRUE(Variant) << Arch << "/" << Cpu.value() << "\n" << Diags.str();
    }
  }
}

TEST(SpecLoader, ChildOverridesOneFactAndInheritsTheRest) {
  ScratchDir Dir;
  DiagnosticList Diags;
  auto Spec = resolveMinimalChild(Dir, Diags);
  ASSERT_TRUE(Spec) << Diags.str();
  const ArchModel &M = Spec->model();
  EXPECT_EQ(M.Cache.L1Line.Value, 128);
  EXPECT_EQ(M.Cache.L1Line.Source, "child manual");
  // Inherited from generic, untouched.
  EXPECT_EQ(M.Cache.Constructive.Value, 64);
  EXPECT_EQ(M.barrier("read").Kind, Fence::Form::C11);
  EXPECT_EQ(M.barrier("read").C11Order, "acquire");
  EXPECT_EQ(M.barrier("full").Asm, (std::vector<std::string>{"fence"}));
  // A barrier is replaced whole: generic's `c11:` does not survive beside the child's `asm:`.
  EXPECT_EQ(Spec->Tree.at("barriers.full.c11"), nullptr);
  EXPECT_EQ(Spec->Tree.at("barriers.full.asm")->items()[0].value(), "fence");
  EXPECT_EQ(Spec->Tree.get("inherits"), nullptr);
  EXPECT_EQ(Spec->Chain, (std::vector<std::string>{"child", "generic"}));
}

TEST(ArchModel, AFactTheModelNeedsAndTheTreeLacksIsALocatedError) {
  ScratchDir Dir;
  DiagnosticList Diags;
  auto Spec = resolveMinimalChild(Dir, Diags);
  ASSERT_TRUE(Spec) << Diags.str();
  // The schema refuses such specs; a tree that got past it anyway (a schema bug) must not give a
  // silent 0, "" or false. The error is at the nearest node the merged spec has (its cache: map,
  // which generic.yaml opened) and names the key path.
  SpecNode Lacking = Spec->Tree;
  ASSERT_TRUE(Lacking.get("cache")->erase("destructive"));
  DiagnosticList Missing;
  EXPECT_FALSE(buildArchModel(Lacking, "child", "", Missing));
  EXPECT_TRUE(std::regex_search(Missing.str(), std::regex("\\.yaml:[0-9]+:[0-9]+: error: cache.destructive.value: spec "
                                                          "'child' has no such fact, which lockwright needs \\(an integer\\)")))
      << Missing.str();
  // Present, but of another type: located at the node itself.
  SpecNode Mistyped = Spec->Tree;
  Mistyped.get("cache")->get("l1_line")->set("value", SpecNode::scalar("big", Spec->Tree.at("cache.l1_line.value")->loc()));
  DiagnosticList Wrong;
  EXPECT_FALSE(buildArchModel(Mistyped, "child", "", Wrong));
  EXPECT_TRUE(std::regex_search(Wrong.str(), std::regex("child.yaml:[0-9]+:[0-9]+: error: cache.l1_line.value: spec 'child' "
                                                        "holds this fact, but not as an integer")))
      << Wrong.str();
  // The toolchain's facts may be left out.
  EXPECT_EQ(Spec->model().Toolchain.LayoutProxyTarget, std::nullopt);
}

TEST(ArchModel, AliasesAreResolvedOnceWithTheirTargetsOrders) {
  SpecRepository Repo({LOCKWRIGHT_TEST_SPEC_DIR});
  DiagnosticList Diags;
  auto Spec = Repo.resolve("x86_64", "", Diags);
  ASSERT_TRUE(Spec) << Diags.str();
  for (const std::string &Kind : fenceKinds()) {
    const Fence &F = Spec->model().barrier(Kind);
    const SpecNode *Alias = Spec->Tree.at("barriers." + Kind + ".same_as");
    EXPECT_EQ(F.AliasOf, Alias ? Alias->value() : "") << Kind;
    if (Alias) // an alias orders what its target orders, and keeps its own citation
      EXPECT_EQ(F.Orders, Spec->model().barrier(F.AliasOf).Orders) << Kind;
    EXPECT_EQ(F.Source, Spec->Tree.at("barriers." + Kind + ".source")->value()) << Kind;
  }
}

TEST(ArchModel, OneBarrierDoesDifferentThingsPerArchitecture) {
  SpecRepository Repo({LOCKWRIGHT_TEST_SPEC_DIR});
  DiagnosticList Diags;
  auto X86 = Repo.resolve("x86_64", "", Diags), Arm64 = Repo.resolve("aarch64", "", Diags),
       Generic = Repo.resolve("generic", "", Diags);
  ASSERT_TRUE(X86 && Arm64 && Generic) << Diags.str();
  // smp_rmb(): free on x86 (TSO keeps loads in order), an instruction on arm64; both order load-load.
  auto X86Read = X86->model().barrierEffect("read"), ArmRead = Arm64->model().barrierEffect("read");
  ASSERT_TRUE(X86Read && ArmRead);
  EXPECT_EQ(X86Read->Implementation, "a compiler barrier");
  EXPECT_EQ(ArmRead->Implementation, "dmb ishld");
  EXPECT_NE(std::find(ArmRead->Orders.begin(), ArmRead->Orders.end(), "load-load"), ArmRead->Orders.end());
  EXPECT_NE(std::find(X86Read->Orders.begin(), X86Read->Orders.end(), "load-load"), X86Read->Orders.end());
  // An acquire load is one instruction on arm64 and the C11 builtin in generic.
  EXPECT_EQ(Arm64->model().barrierEffect("acquire_load")->Implementation.substr(0, 4), "ldar");
  EXPECT_EQ(Generic->model().barrierEffect("acquire_load")->Implementation, "the C11 acquire load");
  EXPECT_EQ(Generic->model().barrierEffect("full")->Implementation, "a C11 seq_cst fence");
  EXPECT_FALSE(X86->model().barrierEffect("cpu_relax"));
}

TEST(SpecLoader, UnknownParentIsLocatedWithSuggestion) {
  ScratchDir Dir;
  std::string Text = MinimalChild;
  Text.replace(Text.find("inherits: generic"), 17, "inherits: generc");
  std::string Path = Dir.write("arch/child.yaml", Text);
  SpecRepository Repo = repoWith(Dir);
  DiagnosticList Diags;
  EXPECT_FALSE(Repo.resolve("child", "", Diags));
  EXPECT_EQ(Diags.str(), Path + ":2:11: error: inherits: unknown parent spec 'generc'; did you mean 'generic'?\n");
}

TEST(SpecLoader, InheritanceCycleIsAnError) {
  ScratchDir Dir;
  std::string A = Dir.write("arch/a.yaml", "name: a\ninherits: b\n");
  Dir.write("arch/b.yaml", "name: b\ninherits: a\n");
  SpecRepository Repo({Dir.path()});
  DiagnosticList Diags;
  EXPECT_FALSE(Repo.resolve("a", "", Diags));
  EXPECT_EQ(Diags.str(), Dir.path() + "/arch/b.yaml:2:11: error: inherits: inheritance cycle: a -> b -> a\n");
}

TEST(SpecLoader, MissingFactsAreReportedOnTheResolvedSpec) {
  ScratchDir Dir;
  std::string Path = Dir.write("arch/lonely.yaml", "name: lonely\ntarget: {bits: \"64\", endian: little}\n");
  SpecRepository Repo({Dir.path()});
  DiagnosticList Diags;
  EXPECT_FALSE(Repo.resolve("lonely", "", Diags));
  EXPECT_NE(Diags.str().find(Path + ":1:1: error: cache: missing required key"), std::string::npos) << Diags.str();
  EXPECT_NE(Diags.str().find(Path + ":1:1: error: barriers: missing required key"), std::string::npos);
}

TEST(SpecLoader, CpuVariantAppliesItsOverrides) {
  SpecRepository Repo({LOCKWRIGHT_TEST_SPEC_DIR});
  DiagnosticList Diags;
  auto Base = Repo.resolve("mips64el", "", Diags);
  auto Octeon = Repo.resolve("mips64el", "octeon", Diags);
  ASSERT_TRUE(Base && Octeon) << Diags.str();
  EXPECT_EQ(Base->model().Cache.L1Line.Value, 32);
  EXPECT_EQ(Octeon->model().Cache.L1Line.Value, 128);
  EXPECT_EQ(Octeon->Tree.at("barriers.read.compiler_only")->value(), "true");
  EXPECT_EQ(Octeon->Tree.get("cpu")->value(), "octeon");
  EXPECT_EQ(Octeon->model().Cpu, "octeon");
  EXPECT_NE(Base->hash(), Octeon->hash());
}

TEST(SpecLoader, UnknownCpuSuggestsTheClosest) {
  SpecRepository Repo({LOCKWRIGHT_TEST_SPEC_DIR});
  DiagnosticList Diags;
  EXPECT_FALSE(Repo.resolve("aarch64", "a64f", Diags));
  EXPECT_NE(Diags.str().find("architecture 'aarch64' has no CPU variant 'a64f'; did you mean 'a64fx'?"),
            std::string::npos)
      << Diags.str();
}

TEST(SpecLoader, AliasCycleIsAnError) {
  ScratchDir Dir;
  std::string Text = std::string(MinimalChild) + R"(  read:
    same_as: write
    source: "x"
  write:
    same_as: read
    source: "x"
)";
  std::string Path = Dir.write("arch/child.yaml", Text);
  SpecRepository Repo = repoWith(Dir);
  DiagnosticList Diags;
  EXPECT_FALSE(Repo.resolve("child", "", Diags));
  EXPECT_NE(Diags.str().find(Path + ":20:14: error: barriers.read.same_as: alias cycle: read -> write -> read"),
            std::string::npos)
      << Diags.str();
  EXPECT_EQ(Diags.errorCount(), 1u) << Diags.str();
}

TEST(SpecLoader, HostTripleSelection) {
  SpecRepository Repo({LOCKWRIGHT_TEST_SPEC_DIR});
  DiagnosticList Diags;
  EXPECT_EQ(Repo.archForTriple("x86_64-linux-gnu", Diags), "x86_64");
  EXPECT_EQ(Repo.archForTriple("aarch64-linux-gnu", Diags), "aarch64");
  EXPECT_EQ(Repo.archForTriple("powerpc64le-linux-gnu", Diags), "ppc64le");
  EXPECT_EQ(Repo.archForTriple("powerpc64-linux-gnu", Diags), "ppc64");
  EXPECT_EQ(Repo.archForTriple("arm-linux-gnueabihf", Diags), "arm");
  EXPECT_EQ(Repo.archForTriple("hppa-linux-gnu", Diags), "parisc");
  EXPECT_EQ(Repo.archForTriple("mips64el-linux-gnuabi64", Diags), "mips64el");
  EXPECT_EQ(Repo.archForTriple("loongarch64-linux-gnu", Diags), "loongarch64");
  EXPECT_FALSE(Diags.hasErrors()) << Diags.str();
  EXPECT_FALSE(Repo.archForTriple("vax-dec-ultrix", Diags));
  EXPECT_TRUE(Diags.hasErrors());
}

TEST(SpecLoader, HashIsStableAndFollowsContent) {
  SpecRepository Repo({LOCKWRIGHT_TEST_SPEC_DIR});
  DiagnosticList Diags;
  auto A = Repo.resolve("s390x", "", Diags);
  auto B = Repo.resolve("s390x", "", Diags);
  ASSERT_TRUE(A && B);
  EXPECT_EQ(A->hash(), B->hash());
  EXPECT_EQ(A->hash().size(), 16u);
  SpecNode Changed = A->Tree;
  Changed.set("description", SpecNode::scalar("changed"));
  ResolvedSpec C{A->Arch, A->Cpu, Changed, A->Chain};
  EXPECT_NE(C.hash(), A->hash());
}

TEST(SpecLoader, ApiDialectsLoadAndValidate) {
  SpecRepository Repo({LOCKWRIGHT_TEST_SPEC_DIR});
  DiagnosticList Diags;
  std::vector<ApiSpec> Apis = Repo.loadApis(Diags);
  EXPECT_FALSE(Diags.hasErrors()) << Diags.str();
  std::vector<std::string> Dialects;
  for (const ApiSpec &A : Apis)
    Dialects.push_back(A.Dialect);
  for (const char *Want : {"kernel", "c11", "cxx", "gcc-builtins", "dpdk", "liburcu", "ck", "lockwright"})
    EXPECT_NE(std::find(Dialects.begin(), Dialects.end(), Want), Dialects.end()) << Want;
}

TEST(SpecLoader, ValidateFileChecksEveryCpuVariant) {
  ScratchDir Dir;
  std::string Text = std::string(MinimalChild) + R"(cpus:
  big:
    description: a variant that breaks a rule only the resolved spec can see
    overrides:
      cache:
        destructive:
          value: 64
          source: "x"
        l1_line:
          value: 256
          source: "x"
)";
  std::string Path = Dir.write("arch/child.yaml", Text);
  SpecRepository Repo = repoWith(Dir);
  DiagnosticList Diags;
  EXPECT_FALSE(Repo.validateFile(Path, Diags));
  EXPECT_NE(Diags.str().find("cache.destructive.value: destructive interference size 64 is below the L1 line (256)"),
            std::string::npos)
      << Diags.str();
}

TEST(SpecLoader, AnEditedApiSpecIsReadFromItsTextAndADuplicateDialectIsLocated) {
  registerShippedSpecs();
  ScratchDir Dir;
  std::optional<std::string> Ck = readFile(std::string(LOCKWRIGHT_TEST_SPEC_DIR) + "/api/ck.yaml");
  ASSERT_TRUE(Ck);
  std::string Edited = *Ck;
  Edited.replace(Edited.find("ck_pr_stall:"), 11, "ck_pr_nap__");
  Dir.write("api/ck.yaml", Edited);
  SpecRepository Repo({Dir.path()});
  DiagnosticList Diags;
  std::vector<ApiSpec> Apis = Repo.loadApis(Diags);
  EXPECT_FALSE(Diags.hasErrors()) << Diags.str();
  ASSERT_EQ(Apis.size(), 1u);
  auto Named = [&](std::string_view Name) {
    return std::any_of(Apis[0].Names.begin(), Apis[0].Names.end(), [&](const ApiNameEntry &E) { return E.Name == Name; });
  };
  EXPECT_TRUE(Named("ck_pr_nap__"));
  EXPECT_FALSE(Named("ck_pr_stall"));

  // The shipped ck.yaml unchanged under a second name: the same dialect twice, an error at its `dialect:`.
  Dir.write("api/zz-ck-copy.yaml", *Ck);
  DiagnosticList Twice;
  std::vector<ApiSpec> Both = SpecRepository({Dir.path()}).loadApis(Twice);
  EXPECT_EQ(Both.size(), 1u);
  EXPECT_NE(Twice.str().find("zz-ck-copy.yaml:1:"), std::string::npos) << Twice.str();
  EXPECT_NE(Twice.str().find("dialect 'ck' is already defined in"), std::string::npos) << Twice.str();
}
