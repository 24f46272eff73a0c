// The shipped specs compiled into the binary must be the trees yaml-cpp builds from the same
// text, locations included, and an API spec's names the entries of that tree, or a check would
// judge (and report) differently with them.
#include "FileIO.h"
#include "spec/PrebuiltSpecs.h"
#include "spec/SpecLoader.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace lockwright;

namespace {

void expectSameTree(const SpecNode &A, const SpecNode &B, const std::string &Path) {
  ASSERT_EQ(A.kind(), B.kind()) << Path;
  EXPECT_EQ(A.value(), B.value()) << Path;
  EXPECT_EQ(A.loc().File, B.loc().File) << Path;
  EXPECT_EQ(A.loc().Line, B.loc().Line) << Path;
  EXPECT_EQ(A.loc().Col, B.loc().Col) << Path;
  EXPECT_EQ(A.keyLoc().Line, B.keyLoc().Line) << Path;
  EXPECT_EQ(A.keyLoc().Col, B.keyLoc().Col) << Path;
  ASSERT_EQ(A.fields().size(), B.fields().size()) << Path;
  for (size_t I = 0; I < A.fields().size(); ++I) {
    EXPECT_EQ(A.fields()[I].first, B.fields()[I].first) << Path;
    expectSameTree(A.fields()[I].second, B.fields()[I].second, Path + "." + A.fields()[I].first);
  }
  ASSERT_EQ(A.items().size(), B.items().size()) << Path;
  for (size_t I = 0; I < A.items().size(); ++I)
    expectSameTree(A.items()[I], B.items()[I], Path + "[" + std::to_string(I) + "]");
}

std::vector<std::string> shippedSpecFiles() {
  std::vector<std::string> Files;
  for (const char *Sub : {"arch", "api"})
    for (const auto &E : std::filesystem::directory_iterator(std::string(LOCKWRIGHT_TEST_SPEC_DIR) + "/" + Sub))
      if (E.path().extension() == ".yaml")
        Files.push_back(E.path().string());
  return Files;
}

} // namespace

TEST(PrebuiltSpecs, EveryShippedSpecIsPrebuiltAsTheTreeYamlCppBuilds) {
  std::vector<std::string> Files = shippedSpecFiles();
  ASSERT_GE(Files.size(), 20u);
  for (const std::string &File : Files) {
    std::optional<std::string> Text = readFile(File);
    ASSERT_TRUE(Text) << File;
    registerShippedSpecs();
    std::optional<SpecNode> Prebuilt = prebuiltTree(*Text, "as/named.yaml");
    ASSERT_TRUE(Prebuilt) << File << " is not among the prebuilt specs";
    registerPrebuiltSpecs(nullptr, 0);
    DiagnosticList Diags;
    std::optional<SpecNode> Parsed = parseYamlText(*Text, "as/named.yaml", Diags);
    ASSERT_TRUE(Parsed) << File;
    expectSameTree(*Prebuilt, *Parsed, File);
  }
  registerShippedSpecs();
}

TEST(PrebuiltSpecs, AnEditedSpecIsParsedNotPrebuilt) {
  registerShippedSpecs();
  std::optional<std::string> Text = readFile(std::string(LOCKWRIGHT_TEST_SPEC_DIR) + "/api/kernel.yaml");
  ASSERT_TRUE(Text);
  EXPECT_TRUE(prebuiltTree(*Text, "k.yaml"));
  std::string Edited = *Text + "# one more line\n";
  EXPECT_FALSE(prebuiltTree(Edited, "k.yaml"));
  std::string SameSize = *Text;
  SameSize[SameSize.size() - 2] = SameSize[SameSize.size() - 2] == 'x' ? 'y' : 'x';
  EXPECT_FALSE(prebuiltTree(SameSize, "k.yaml"));
  DiagnosticList Diags;
  std::optional<SpecNode> Parsed = parseYamlText(Edited, "k.yaml", Diags);
  ASSERT_TRUE(Parsed);
  EXPECT_EQ(Parsed->get("dialect")->value(), "kernel");
}

TEST(PrebuiltSpecs, OneTopLevelKeyBuildsOnlyThatField) {
  registerShippedSpecs();
  std::optional<std::string> Text = readFile(std::string(LOCKWRIGHT_TEST_SPEC_DIR) + "/arch/aarch64.yaml");
  ASSERT_TRUE(Text);
  std::optional<SpecNode> Whole = prebuiltTree(*Text, "a.yaml");
  std::optional<SpecNode> Target = prebuiltTree(*Text, "a.yaml", "target");
  ASSERT_TRUE(Whole && Target);
  ASSERT_EQ(Target->fields().size(), 1u);
  EXPECT_EQ(Target->fields()[0].first, "target");
  expectSameTree(*Target->get("target"), *Whole->get("target"), "target");
  EXPECT_TRUE(prebuiltTree(*Text, "a.yaml", "no_such_key")->fields().empty());
}

TEST(PrebuiltSpecs, EveryShippedApiSpecsNamesAreTheEntriesOfItsTree) {
  registerShippedSpecs();
  size_t ApiSpecs = 0;
  for (const std::string &File : shippedSpecFiles()) {
    std::optional<std::string> Text = readFile(File);
    ASSERT_TRUE(Text) << File;
    DiagnosticList Diags;
    std::optional<SpecNode> Parsed = parseYamlText(*Text, File, Diags);
    ASSERT_TRUE(Parsed) << File;
    std::optional<PrebuiltApi> Api = prebuiltApi(*Text);
    if (!Parsed->get("dialect")) {
      EXPECT_FALSE(Api) << File << " is an arch spec";
      continue;
    }
    ++ApiSpecs;
    ASSERT_TRUE(Api) << File << " is not among the prebuilt API specs";
    EXPECT_EQ(Api->Dialect, Parsed->get("dialect")->value()) << File;
    std::vector<ApiNameEntry> Want = apiNameEntries(*Parsed);
    ASSERT_EQ(Api->Count, Want.size()) << File;
    for (size_t I = 0; I < Want.size(); ++I) {
      const ApiNameEntry &Got = Api->Names[I];
      EXPECT_EQ(Got.Name, Want[I].Name) << File;
      EXPECT_EQ(Got.Op, Want[I].Op) << File << " " << Want[I].Name;
      EXPECT_EQ(Got.Order, Want[I].Order) << File << " " << Want[I].Name;
      EXPECT_EQ(Got.Kind, Want[I].Kind) << File << " " << Want[I].Name;
      EXPECT_EQ(Got.OrderArg, Want[I].OrderArg) << File << " " << Want[I].Name;
      EXPECT_EQ(Got.HardwareRmw, Want[I].HardwareRmw) << File << " " << Want[I].Name;
    }
  }
  EXPECT_GE(ApiSpecs, 8u);
  std::string Edited = *readFile(std::string(LOCKWRIGHT_TEST_SPEC_DIR) + "/api/ck.yaml") + "# edited\n";
  EXPECT_FALSE(prebuiltApi(Edited)) << "an edited API spec is parsed and validated";
}
