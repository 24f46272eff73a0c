#include "spec/SpecTree.h"

#include <gtest/gtest.h>

using namespace lockwright;

TEST(SpecTree, KeepsFileLineAndColumnOfEveryNode) {
  DiagnosticList Diags;
  auto Tree = parseYamlText("name: x\ncache:\n  l1_line:\n    value: 64\n", "t.yaml", Diags);
  ASSERT_TRUE(Tree);
  const SpecNode *V = Tree->at("cache.l1_line.value");
  ASSERT_NE(V, nullptr);
  EXPECT_EQ(V->loc().File, "t.yaml");
  EXPECT_EQ(V->loc().Line, 4u);
  EXPECT_EQ(V->loc().Col, 12u);
  EXPECT_EQ(Tree->get("cache")->keyLoc().Line, 2u);
  EXPECT_EQ(Tree->get("cache")->keyLoc().Col, 1u);
}

TEST(SpecTree, KeepsKeyOrder) {
  DiagnosticList Diags;
  auto Tree = parseYamlText("b: 1\na: 2\nc: 3\n", "t.yaml", Diags);
  ASSERT_TRUE(Tree);
  ASSERT_EQ(Tree->fields().size(), 3u);
  EXPECT_EQ(Tree->fields()[0].first, "b");
  EXPECT_EQ(Tree->fields()[1].first, "a");
  EXPECT_EQ(Tree->fields()[2].first, "c");
}

TEST(SpecTree, ReportsSyntaxErrorsWithLocation) {
  DiagnosticList Diags;
  auto Tree = parseYamlText("a: [1, 2\nb: 3\n", "bad.yaml", Diags);
  EXPECT_FALSE(Tree);
  ASSERT_EQ(Diags.errorCount(), 1u);
  EXPECT_EQ(Diags.all()[0].Loc.File, "bad.yaml");
  EXPECT_GT(Diags.all()[0].Loc.Line, 0u);
  EXPECT_NE(Diags.all()[0].Message.find("invalid YAML"), std::string::npos);
}

TEST(SpecTree, RejectsDuplicateKeys) {
  DiagnosticList Diags;
  auto Tree = parseYamlText("cache:\n  l1: 1\n  l1: 2\n", "dup.yaml", Diags);
  EXPECT_FALSE(Tree);
  ASSERT_EQ(Diags.errorCount(), 1u);
  EXPECT_EQ(Diags.all()[0].format(), "dup.yaml:3:3: error: cache.l1: duplicate key");
}

TEST(SpecTree, ParsesIntegersAndBooleansStrictly) {
  EXPECT_EQ(SpecNode::scalar("64").asInt(), 64);
  EXPECT_EQ(SpecNode::scalar("0x40").asInt(), 64);
  EXPECT_EQ(SpecNode::scalar("-3").asInt(), -3);
  EXPECT_FALSE(SpecNode::scalar("64k").asInt());
  EXPECT_FALSE(SpecNode::scalar("").asInt());
  EXPECT_EQ(SpecNode::scalar("true").asBool(), true);
  EXPECT_EQ(SpecNode::scalar("false").asBool(), false);
  EXPECT_FALSE(SpecNode::scalar("yes").asBool());
}

TEST(SpecTree, YamlOutputParsesBackToTheSameTree) {
  DiagnosticList Diags;
  const char *Text = "name: x\nlist: [a, \"b: c\", \"%rsp\"]\nmap:\n  k: v\n  n:\n    - {a: 1}\n";
  auto Tree = parseYamlText(Text, "t.yaml", Diags);
  ASSERT_TRUE(Tree);
  auto Again = parseYamlText(Tree->toYaml(), "again.yaml", Diags);
  ASSERT_TRUE(Again) << Diags.str();
  EXPECT_EQ(Again->toYaml(), Tree->toYaml());
  EXPECT_EQ(Again->at("list")->items()[1].value(), "b: c");
  EXPECT_EQ(Again->at("list")->items()[2].value(), "%rsp");
}

TEST(SpecTree, SetReplacesAndEraseRemoves) {
  SpecNode M = SpecNode::map();
  M.set("a", SpecNode::scalar("1"));
  M.set("a", SpecNode::scalar("2"));
  EXPECT_EQ(M.fields().size(), 1u);
  EXPECT_EQ(M.get("a")->value(), "2");
  EXPECT_TRUE(M.erase("a"));
  EXPECT_FALSE(M.erase("a"));
  EXPECT_EQ(M.at("a.b"), nullptr);
}
