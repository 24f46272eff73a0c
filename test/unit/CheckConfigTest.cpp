// .lockwright.yaml: parsing with located errors, layering, and what --dump-config and
// --explain-config read from the merged result.
#include "CheckConfig.h"
#include "output/ArchMerge.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace lockwright;

namespace {

ConfigLayer layer(const std::string &Text, const std::string &Origin = "test.yaml") {
  DiagnosticList Diags;
  std::optional<ConfigLayer> L = parseConfig(Text, Origin, Origin, Diags);
  EXPECT_TRUE(L) << Diags.str();
  return L.value_or(ConfigLayer{});
}

ConfigLayer defaults() {
  ConfigLayer D;
  D.Origin = "the default";
  D.Checks = "*,-barrier-*";
  return D;
}

} // namespace

TEST(CheckConfig, ChecksAsStringOrList) {
  EXPECT_EQ(*layer("Checks: '-*, layout-*'").Checks, "-*,layout-*");
  EXPECT_EQ(*layer("Checks:\n  - -*\n  - layout-false-sharing\n").Checks, "-*,layout-false-sharing");
  EXPECT_EQ(*layer("Checks: |\n  -*\n  wait-*\n").Checks, "-*,wait-*");
}

TEST(CheckConfig, CheckOptionsAsMapOrKeyValueList) {
  EXPECT_EQ(layer("CheckOptions:\n  a.B: x\n").CheckOptions.at("a.B"), "x");
  EXPECT_EQ(layer("CheckOptions:\n  - key: a.B\n    value: y\n").CheckOptions.at("a.B"), "y");
}

TEST(CheckConfig, ErrorsAreLocatedWithDidYouMean) {
  DiagnosticList Diags;
  EXPECT_FALSE(parseConfig("Checks: x\nHeaderFiltreRegex: y\n", "f.yaml", "f.yaml", Diags));
  ASSERT_EQ(Diags.errorCount(), 1u);
  EXPECT_EQ(Diags.all()[0].format(),
            "f.yaml:2:1: error: HeaderFiltreRegex: unknown setting; did you mean 'HeaderFilterRegex'?");
  DiagnosticList Syntax;
  EXPECT_FALSE(parseConfig("Checks: [", "f.yaml", "f.yaml", Syntax));
  EXPECT_EQ(Syntax.all().at(0).Loc.Line, 1u);
  DiagnosticList NotBool;
  EXPECT_FALSE(parseConfig("SystemHeaders: maybe", "f.yaml", "f.yaml", NotBool));
  EXPECT_NE(NotBool.str().find("expected true or false"), std::string::npos);
}

TEST(CheckConfig, LayersAppendListsAndReplaceValues) {
  namespace fs = std::filesystem;
  fs::path Root = fs::temp_directory_path() / "lw-config-unit";
  fs::remove_all(Root);
  fs::create_directories(Root / "a" / "b");
  std::ofstream(Root / ".lockwright.yaml") << "Checks: '-*,layout-*'\nArch: ppc64\nWarningsAsErrors: layout-a\n";
  std::ofstream(Root / "a" / "b" / ".lockwright.yaml")
      << "InheritParentConfig: true\nChecks: wait-*\nWarningsAsErrors: wait-b\nArch: s390x\n";
  ConfigLayer CommandLine;
  CommandLine.Origin = "the command line";
  CommandLine.Checks = "-layout-split-atomic";
  ConfigResolver Resolver(defaults(), CommandLine, std::nullopt);
  DiagnosticList Diags;
  std::optional<EffectiveConfig> C = Resolver.forFile((Root / "a" / "b" / "x.c").string(), Diags);
  ASSERT_TRUE(C) << Diags.str();
  // The defaults' globs are overridden by the root's '-*': dropped, so a dump loads back alike.
  EXPECT_EQ(C->Checks, "-*,layout-*,wait-*,-layout-split-atomic");
  EXPECT_EQ(C->WarningsAsErrors, "layout-a,wait-b");
  EXPECT_EQ(C->Arch, "s390x");
  EXPECT_EQ(C->OriginOf.at("Arch"), (Root / "a" / "b" / ".lockwright.yaml").string());
  auto Explained = C->explainChecks({"layout-false-sharing", "layout-split-atomic", "wait-missing-relax"});
  ASSERT_EQ(Explained.size(), 2u);
  EXPECT_EQ(Explained[0].second, (Root / ".lockwright.yaml").string());
  EXPECT_EQ(Explained[1].first, "wait-missing-relax");
  // Without InheritParentConfig the nearest file alone applies; a directory without one, its parent's.
  std::ofstream(Root / "a" / "b" / ".lockwright.yaml") << "Checks: wait-*\n";
  ConfigResolver Fresh(defaults(), ConfigLayer{}, std::nullopt);
  EXPECT_EQ(Fresh.forFile((Root / "a" / "b" / "x.c").string(), Diags)->Checks, "*,-barrier-*,wait-*");
  EXPECT_EQ(Fresh.forFile((Root / "a" / "y.c").string(), Diags)->Checks, "-*,layout-*");
  fs::remove_all(Root);
}

TEST(CheckConfig, VerifyNamesUnknownChecksAndOptions) {
  EffectiveConfig C;
  ConfigLayer L = layer("Checks: '-*,layout-flase-sharing'\nCheckOptions:\n  x.Y: 1\n");
  C.Layers.push_back(std::make_shared<ConfigLayer>(L));
  DiagnosticList Diags;
  verifyConfig(C, {"layout-false-sharing"}, {"layout-hardcoded-line-size.PaddingConstant"}, Diags);
  ASSERT_EQ(Diags.errorCount(), 2u);
  EXPECT_NE(Diags.str().find("test.yaml:1:1: error: Checks: unknown check 'layout-flase-sharing'; did you mean "
                             "'layout-false-sharing'?"),
            std::string::npos)
      << Diags.str();
}

TEST(CheckConfig, DumpedConfigLoadsBackWithLongAndOddKeys) {
  // YAML caps an implicit key at 1024 characters: a longer key is dumped in the '? ' form.
  std::string LongKey = "a.B " + std::string(1500, 'x');
  EffectiveConfig C;
  C.CheckOptions[LongKey] = "1";
  C.CheckOptions["e] "] = "it's";
  C.CheckOptions["layout-hardcoded-line-size.PaddingConstant"] = "64";
  std::string Dumped = C.toYaml();
  EXPECT_NE(Dumped.find("  ? '" + LongKey + "'\n  : '1'\n"), std::string::npos) << Dumped;
  EXPECT_NE(Dumped.find("  layout-hardcoded-line-size.PaddingConstant: '64'\n"), std::string::npos) << Dumped;
  ConfigLayer Back = layer(Dumped);
  EXPECT_EQ(Back.CheckOptions, C.CheckOptions);
}

TEST(ArchMerge, OneFindingNamesEveryArchitecture) {
  auto Finding64 = [](const std::string &Arch, unsigned Size) {
    Finding F;
    F.Check = "layout-false-sharing";
    F.At = {"/a.c", 4, 14};
    F.Message = "'b' and 'a' can share a 64-byte window on " + Arch;
    F.Notes.push_back({{"/a.c", 3, 14}, "'a' is at offset 0 (" + std::to_string(Size) + " bytes)", {}, ""});
    F.Notes.push_back({{"/a.c", 4, 14}, "the size of " + Arch + " is 64 bytes", {}, "source " + Arch});
    return F;
  };
  Finding A = Finding64("aarch64", 8), B = Finding64("arm", 4), C = Finding64("x86_64", 8);
  Finding Other = Finding64("ppc64", 8);
  Other.Message = "'b' and 'a' can share a 128-byte window on ppc64";
  std::vector<Finding> Merged =
      mergeAcrossArchitectures({&A, &B, &Other, &C}, {"aarch64", "arm", "ppc64", "x86_64"});
  ASSERT_EQ(Merged.size(), 2u);
  EXPECT_EQ(Merged[0].Message, "'b' and 'a' can share a 64-byte window on aarch64, arm and x86_64");
  ASSERT_EQ(Merged[0].Notes.size(), 3u);
  EXPECT_EQ(Merged[0].Notes[0].Message, "on aarch64 and x86_64: 'a' is at offset 0 (8 bytes)");
  EXPECT_EQ(Merged[0].Notes[1].Message, "the size of aarch64, arm and x86_64 is 64 bytes");
  EXPECT_EQ(Merged[0].Notes[1].Source, "source aarch64; source arm; source x86_64");
  EXPECT_EQ(Merged[0].Notes[2].Message, "on arm: 'a' is at offset 0 (4 bytes)");
  EXPECT_EQ(Merged[1].Message, Other.Message);
}
