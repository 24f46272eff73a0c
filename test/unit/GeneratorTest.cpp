#include "FileIO.h"
#include "emit/Generator.h"
#include "emit/TemplateRenderer.h"

#include "TestUtil.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

using namespace lockwright;
using lockwright::test::ScratchDir;

namespace {

ResolvedSpec resolved(const std::string &Arch, const std::string &Cpu = "") {
  SpecRepository Repo({LOCKWRIGHT_TEST_SPEC_DIR});
  DiagnosticList Diags;
  auto Spec = Repo.resolve(Arch, Cpu, Diags);
  EXPECT_TRUE(Spec) << Diags.str();
  return *Spec;
}

const GeneratedFile *find(const std::vector<GeneratedFile> &Files, const std::string &Name) {
  for (const GeneratedFile &F : Files)
    if (F.Name == Name)
      return &F;
  return nullptr;
}

/// One generated file's text for Arch, with the default options.
std::string generatedText(const std::string &Arch, const std::string &File) {
  TemplateSet Templates(LOCKWRIGHT_TEST_TEMPLATE_DIR);
  DiagnosticList Diags;
  auto Files = generate(resolved(Arch), Templates, GenOptions(), Diags);
  EXPECT_TRUE(Files) << Diags.str();
  const GeneratedFile *F = Files ? find(*Files, File) : nullptr;
  EXPECT_TRUE(F) << File;
  return F ? F->Text : std::string();
}

} // namespace

TEST(Generator, EmitsBothHeadersWithBannerAndPrefix) {
  TemplateSet Templates(LOCKWRIGHT_TEST_TEMPLATE_DIR);
  GenOptions Options;
  Options.Prefix = "kx";
  Options.Invocation = "lockwright gen --arch aarch64 --prefix kx";
  DiagnosticList Diags;
  ResolvedSpec Spec = resolved("aarch64");
  auto Files = generate(Spec, Templates, Options, Diags);
  ASSERT_TRUE(Files) << Diags.str();
  std::vector<std::string> Names;
  for (const GeneratedFile &F : *Files)
    Names.push_back(F.Name);
  EXPECT_EQ(Names, (std::vector<std::string>{"kx_cache.h", "kx_barrier.h", "kx_cond_wait.h", "kx_spinlock.h",
                                             "kx_spinlock.hpp", "kx_lockhash.h", "kx_counter.h",
                                             "kx_spinlock_asm.h", "kx_spinlock_aarch64.S"}));
  const GeneratedFile *Barrier = find(*Files, "kx_barrier.h");
  const GeneratedFile *Cache = find(*Files, "kx_cache.h");
  ASSERT_TRUE(Barrier && Cache);
  EXPECT_NE(Barrier->Text.find("spec hash " + Spec.hash()), std::string::npos);
  EXPECT_NE(Barrier->Text.find("#define kx_mb() __asm__ __volatile__(\"dmb ish\" ::: \"memory\")"), std::string::npos);
  EXPECT_NE(Barrier->Text.find("ldar %w[op_val], [%[op_addr]]"), std::string::npos);
  EXPECT_NE(Barrier->Text.find("ldar %x[op_val], [%[op_addr]]"), std::string::npos);
  EXPECT_NE(Cache->Text.find("#define KX_L1_CACHE_BYTES 64\n"), std::string::npos);
  EXPECT_NE(Cache->Text.find("namespace kx {"), std::string::npos);
  EXPECT_EQ(Barrier->Text.back(), '\n');
}

TEST(Generator, OutputIsDeterministic) {
  TemplateSet Templates(LOCKWRIGHT_TEST_TEMPLATE_DIR);
  GenOptions Options;
  DiagnosticList Diags;
  auto A = generate(resolved("ppc64le"), Templates, Options, Diags);
  auto B = generate(resolved("ppc64le"), Templates, Options, Diags);
  ASSERT_TRUE(A && B);
  for (size_t I = 0; I < A->size(); ++I)
    EXPECT_EQ((*A)[I].Text, (*B)[I].Text);
}

TEST(Generator, EscapesPercentAndMapsAliases) {
  std::string Text = generatedText("x86_64", "lw_barrier.h");
  EXPECT_NE(Text.find("\"lock; addl $0,-4(%%rsp)\" ::: \"memory\", \"cc\""), std::string::npos);
  // acquire_after_ctrl_dep is inherited from generic as an alias of read (a compiler barrier here).
  EXPECT_NE(Text.find("#define lw_acquire_after_ctrl_dep() __asm__ __volatile__(\"\" ::: \"memory\")"),
            std::string::npos);
  EXPECT_NE(Text.find("Same as read."), std::string::npos);
}

TEST(Generator, SizesWithoutAnOrderedAccessAreLeftOut) {
  std::string Text = generatedText("parisc", "lw_barrier.h");
  EXPECT_NE(Text.find("lw__load_acquire_4"), std::string::npos);
  EXPECT_EQ(Text.find("lw__load_acquire_8"), std::string::npos);
  EXPECT_NE(Text.find("parisc has acquire loads of 1, 2, 4 bytes only"), std::string::npos);
}

TEST(Generator, LockSelectionDecidesTheFiles) {
  TemplateSet Templates(LOCKWRIGHT_TEST_TEMPLATE_DIR);
  GenOptions Options;
  Options.Locks = {"counter"};
  DiagnosticList Diags;
  auto Files = generate(resolved("riscv64"), Templates, Options, Diags);
  ASSERT_TRUE(Files) << Diags.str();
  std::vector<std::string> Names;
  for (const GeneratedFile &F : *Files)
    Names.push_back(F.Name);
  EXPECT_EQ(Names, (std::vector<std::string>{"lw_cache.h", "lw_barrier.h", "lw_cond_wait.h", "lw_counter.h"}));

  Options.Locks = {"tas", "hash"};
  Diags = DiagnosticList();
  EXPECT_FALSE(generate(resolved("riscv64"), Templates, Options, Diags));
  EXPECT_NE(Diags.str().find("--locks leaves out 'ticket', the default lock of riscv64"), std::string::npos)
      << Diags.str();
  Options.DefaultLock = "tas";
  Diags = DiagnosticList();
  EXPECT_TRUE(generate(resolved("riscv64"), Templates, Options, Diags)) << Diags.str();
}

TEST(Generator, AssemblyOnlyWhereTheArchitectureHasATemplate) {
  TemplateSet Templates(LOCKWRIGHT_TEST_TEMPLATE_DIR);
  DiagnosticList Diags;
  auto Generic = generate(resolved("generic"), Templates, GenOptions(), Diags);
  ASSERT_TRUE(Generic) << Diags.str();
  for (const GeneratedFile &F : *Generic)
    EXPECT_EQ(F.Name.find(".S"), std::string::npos) << F.Name;
  // ppc64 has no template of its own: it inherits ppc64le's, which handles ELFv1.
  auto Ppc64 = generate(resolved("ppc64"), Templates, GenOptions(), Diags);
  ASSERT_TRUE(Ppc64) << Diags.str();
  const GeneratedFile *S = find(*Ppc64, "lw_spinlock_ppc64.S");
  ASSERT_TRUE(S);
  EXPECT_NE(S->Text.find(".quad .L.name, .TOC.@tocbase, 0"), std::string::npos);
  GenOptions AskForIt;
  AskForIt.Artifacts = {"spinlock_asm"};
  EXPECT_FALSE(generate(resolved("generic"), Templates, AskForIt, Diags));
  EXPECT_NE(Diags.str().find("no spinlock.S.mustache for generic"), std::string::npos) << Diags.str();
}

TEST(Generator, LockOptionsAreChecked) {
  TemplateSet Templates(LOCKWRIGHT_TEST_TEMPLATE_DIR);
  GenOptions Options;
  Options.Locks = {"tiket"};
  Options.HashSize = 48;
  Options.HashDivisor = "l2";
  DiagnosticList Diags;
  EXPECT_FALSE(generate(resolved("arm"), Templates, Options, Diags));
  EXPECT_NE(Diags.str().find("unknown lock 'tiket'; did you mean 'ticket'?"), std::string::npos) << Diags.str();
  EXPECT_NE(Diags.str().find("--hash-size 48 is not a power of two"), std::string::npos);
  EXPECT_NE(Diags.str().find("--hash-divisor must be l1 or smp, not 'l2'"), std::string::npos);
}

TEST(Generator, UnknownArtifactIsAnError) {
  TemplateSet Templates(LOCKWRIGHT_TEST_TEMPLATE_DIR);
  GenOptions Options;
  Options.Artifacts = {"barier"};
  DiagnosticList Diags;
  EXPECT_FALSE(generate(resolved("arm"), Templates, Options, Diags));
  EXPECT_NE(Diags.str().find("unknown artifact 'barier'; did you mean 'barrier'?"), std::string::npos);
}

TEST(Generator, TemplateNamingMissingDataIsAnError) {
  ScratchDir Dir;
  std::string Path = Dir.write("common/cache.h.mustache", "ok {{prefix}}\nline two {{no_such_fact}}\n");
  TemplateSet Templates(Dir.path());
  GenOptions Options;
  Options.Artifacts = {"cache"};
  DiagnosticList Diags;
  EXPECT_FALSE(generate(resolved("arm"), Templates, Options, Diags));
  EXPECT_EQ(Diags.str(), Path + ":2:1: error: template refers to 'no_such_fact', which the cache.h.mustache "
                                "backend does not provide\n");
}

TEST(Generator, PartialsComeFromThePartialsFolderAndAMissingOneIsLocated) {
  ScratchDir Dir;
  Dir.write("common/partials/banner.mustache", " * made for {{arch}}");
  Dir.write("common/a.h.mustache", "/*\n{{> banner}}\n */\n");
  std::string Bad = Dir.write("common/b.h.mustache", "one\n{{> nope}}\n");
  TemplateSet Templates(Dir.path());
  TemplateData Data;
  Data.set("arch", "arm");
  DiagnosticList Diags;
  EXPECT_EQ(Templates.render({"arm"}, "a.h.mustache", Data, Diags), std::optional<std::string>("/*\n * made for arm\n */\n"));
  EXPECT_FALSE(Templates.render({"arm"}, "b.h.mustache", Data, Diags));
  EXPECT_EQ(Diags.str(), Bad + ":2:1: error: partial 'nope' not found (partials/nope.mustache)\n");
}

TEST(Generator, ArchFolderOverridesCommonTemplate) {
  ScratchDir Dir;
  Dir.write("common/cache.h.mustache", "common\n");
  std::string Own = Dir.write("arm/cache.h.mustache", "arm's own {{arch}}\n");
  TemplateSet Templates(Dir.path());
  EXPECT_EQ(Templates.find({"arm", "generic"}, "cache.h.mustache"), Own);
  EXPECT_EQ(Templates.find({"ppc64", "ppc64le", "generic"}, "cache.h.mustache"), Dir.path() + "/common/cache.h.mustache");
  std::string Parent = Dir.write("ppc64le/cache.h.mustache", "parent's\n");
  EXPECT_EQ(Templates.find({"ppc64", "ppc64le", "generic"}, "cache.h.mustache"), Parent);
  EXPECT_FALSE(Templates.findOwn({"arm"}, "barrier.h.mustache"));
  GenOptions Options;
  Options.Artifacts = {"cache"};
  DiagnosticList Diags;
  auto Files = generate(resolved("arm"), Templates, Options, Diags);
  ASSERT_TRUE(Files);
  EXPECT_EQ((*Files)[0].Text, "arm's own arm\n");
}

TEST(FileWriter, WritesAtomicallyAndLeavesUnchangedFilesAlone) {
  ScratchDir Dir;
  std::string Path = Dir.path() + "/sub/dir/x.h";
  std::string Error;
  EXPECT_EQ(writeFileIfChanged(Path, "one\n", Error), WriteOutcome::Written);
  EXPECT_EQ(readFile(Path), "one\n");
  struct stat Before {};
  ASSERT_EQ(::stat(Path.c_str(), &Before), 0);
  EXPECT_EQ(writeFileIfChanged(Path, "one\n", Error), WriteOutcome::Unchanged);
  struct stat After {};
  ASSERT_EQ(::stat(Path.c_str(), &After), 0);
  EXPECT_EQ(Before.st_ino, After.st_ino);
  EXPECT_EQ(Before.st_mtim.tv_nsec, After.st_mtim.tv_nsec);
  EXPECT_EQ(writeFileIfChanged(Path, "two\n", Error), WriteOutcome::Written);
  EXPECT_EQ(readFile(Path), "two\n");
  EXPECT_EQ(After.st_mode & 0777, 0644u);
  // No temporary files are left behind.
  unsigned Entries = 0;
  for ([[maybe_unused]] auto &E : std::filesystem::directory_iterator(Dir.path() + "/sub/dir"))
    ++Entries;
  EXPECT_EQ(Entries, 1u);
}

TEST(FileWriter, ReportsUnwritableTargets) {
  ScratchDir Dir;
  Dir.write("file", "x");
  std::string Error;
  EXPECT_EQ(writeFileIfChanged(Dir.path() + "/file/below", "y", Error), WriteOutcome::Failed);
  EXPECT_FALSE(Error.empty());
}

TEST(Generator, PrefixMustBeAnIdentifier) {
  EXPECT_TRUE(isValidPrefix("lw"));
  EXPECT_TRUE(isValidPrefix("_my_lock2"));
  EXPECT_FALSE(isValidPrefix(""));
  EXPECT_FALSE(isValidPrefix("2x"));
  EXPECT_FALSE(isValidPrefix("a-b"));
}
