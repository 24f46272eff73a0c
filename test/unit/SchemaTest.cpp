#include "spec/Schema.h"
#include "spec/AsmSyntax.h"

#include <gtest/gtest.h>

using namespace lockwright;

namespace {

std::string validate(const SchemaRef &Schema, const std::string &Text, bool Partial = false) {
  DiagnosticList Diags;
  auto Tree = parseYamlText(Text, "s.yaml", Diags);
  if (!Tree)
    return Diags.str();
  ValidationContext Ctx{Diags, Partial};
  Schema->validate(*Tree, "", Ctx);
  return Diags.str();
}

SchemaRef sample() {
  return recordType("sample",
                    {{"size", intType(1, 4096, true), true},
                     {"name", stringType(), true},
                     {"mode", enumType({"poll", "monitor-wfe", "zawrs"})},
                     {"flag", boolType()},
                     {"items", listType(intType(0, 9), 1)}},
                    MergePolicy::KeyByKey);
}

} // namespace

TEST(Schema, AcceptsAValidRecord) {
  EXPECT_EQ(validate(sample(), "size: 64\nname: x\nmode: poll\nflag: true\nitems: [1, 2]\n"), "");
}

TEST(Schema, UnknownKeyGetsDidYouMean) {
  EXPECT_EQ(validate(sample(), "size: 64\nname: x\nmdoe: poll\n"),
            "s.yaml:3:1: error: mdoe: unknown key; did you mean 'mode'?\n");
}

TEST(Schema, UnknownKeyFarFromAnyListsTheKeys) {
  EXPECT_EQ(validate(sample(), "size: 64\nname: x\nzzzzzzzz: 1\n"),
            "s.yaml:3:1: error: zzzzzzzz: unknown key; expected one of size, name, mode, flag, items\n");
}

TEST(Schema, WrongTypesAreNamed) {
  EXPECT_EQ(validate(sample(), "size: big\nname: x\n"),
            "s.yaml:1:7: error: size: expected a power-of-two integer, found 'big'\n");
  EXPECT_EQ(validate(sample(), "size: 48\nname: x\n"), "s.yaml:1:7: error: size: value 48 is not a power of two\n");
  EXPECT_EQ(validate(sample(), "size: 8192\nname: x\n"),
            "s.yaml:1:7: error: size: value 8192 is out of range [1, 4096]\n");
  EXPECT_EQ(validate(sample(), "size: 64\nname: [a]\n"), "s.yaml:2:7: error: name: expected a string, found a list\n");
  EXPECT_EQ(validate(sample(), "size: 64\nname: x\nflag: yes\n"),
            "s.yaml:3:7: error: flag: expected true or false, found 'yes'\n");
  EXPECT_EQ(validate(sample(), "size: 64\nname: x\nmode: pol\n"),
            "s.yaml:3:7: error: mode: unknown value 'pol'; did you mean 'poll'?\n");
  EXPECT_EQ(validate(sample(), "size: 64\nname: x\nitems: []\n"),
            "s.yaml:3:8: error: items: expected at least 1 item\n");
  EXPECT_EQ(validate(sample(), "size: 64\nname: x\nitems: [1, 12]\n"),
            "s.yaml:3:12: error: items[1]: value 12 is out of range [0, 9]\n");
}

TEST(Schema, RequiredKeysWaitForTheResolvedSpecWhenMergedKeyByKey) {
  EXPECT_EQ(validate(sample(), "name: x\n", /*Partial=*/true), "");
  EXPECT_EQ(validate(sample(), "name: x\n", /*Partial=*/false), "s.yaml:1:1: error: size: missing required key\n");
}

TEST(Schema, ReplacedRecordsMustBeWholeInEveryFile) {
  SchemaRef Fact = recordType("fact", {{"value", intType(0, 10), true}, {"source", stringType(), true}},
                              MergePolicy::Replace);
  EXPECT_EQ(validate(Fact, "value: 3\n", /*Partial=*/true), "s.yaml:1:1: error: source: missing required key\n");
}

TEST(Schema, ExactlyOneOf) {
  SchemaRef Fence = recordType("fence", {{"asm", listType(stringType())}, {"c11", stringType()}},
                               MergePolicy::Replace, {exactlyOneOf({"asm", "c11"})});
  EXPECT_EQ(validate(Fence, "c11: seq_cst\n"), "");
  EXPECT_EQ(validate(Fence, "{}\n"), "s.yaml:1:1: error: needs one of asm, c11\n");
  EXPECT_EQ(validate(Fence, "asm: [sync]\nc11: seq_cst\n"),
            "s.yaml:2:1: error: c11: 'asm' and 'c11' cannot be combined; give exactly one of asm, c11\n");
}

TEST(Schema, AsmPlaceholders) {
  auto Check = [](const std::string &Insn, std::vector<std::string> Allowed) {
    DiagnosticList Diags;
    checkAsmPlaceholders(SpecNode::scalar(Insn, {"s.yaml", 1, 1}), "insn", Allowed, Diags);
    return Diags.str();
  };
  EXPECT_EQ(Check("ldar {val}, [{addr}]", accessPlaceholders()), "");
  EXPECT_EQ(Check("literal {{braces}}", {}), "");
  EXPECT_EQ(Check("ldar {vl}, [{addr}]", accessPlaceholders()),
            "s.yaml:1:1: error: insn: unknown placeholder '{vl}'; did you mean '{val}'?\n");
  EXPECT_EQ(Check("dmb {ish}", {}),
            "s.yaml:1:1: error: insn: unknown placeholder '{ish}'; a barrier sequence takes no operands\n");
  EXPECT_EQ(Check("ldar {val", accessPlaceholders()),
            "s.yaml:1:1: error: insn: unterminated placeholder in instruction template 'ldar {val'\n");
  EXPECT_EQ(Check("ldar val}", accessPlaceholders()),
            "s.yaml:1:1: error: insn: unmatched '}' in instruction template; write '}}' for a literal brace\n");
}

TEST(Schema, DictMergesKeyByKeyAndRecordsReplaceWhole) {
  SchemaRef Fact = recordType("fact", {{"value", intType(0, 10), true}, {"source", stringType(), true}},
                              MergePolicy::Replace);
  SchemaRef Section = recordType("section", {{"a", Fact}, {"b", Fact}}, MergePolicy::KeyByKey);
  DiagnosticList Diags;
  auto Base = parseYamlText("a: {value: 1, source: base}\nb: {value: 2, source: base}\n", "b.yaml", Diags);
  auto Child = parseYamlText("b: {value: 3, source: child}\n", "c.yaml", Diags);
  ASSERT_TRUE(Base && Child);
  Section->merge(*Base, *Child);
  EXPECT_EQ(Base->at("a.value")->value(), "1");
  EXPECT_EQ(Base->at("b.value")->value(), "3");
  EXPECT_EQ(Base->at("b.source")->value(), "child");
  EXPECT_EQ(Base->at("b.value")->loc().File, "c.yaml");
}

TEST(Schema, RealSchemasKnowTheVocabulary) {
  EXPECT_EQ(barrierKinds().size(), 8u);
  EXPECT_EQ(fenceKinds().size(), 6u);
  EXPECT_NE(std::find(abstractOperations().begin(), abstractOperations().end(), "cond_load_acquire"),
            abstractOperations().end());
  EXPECT_EQ(validate(apiSpecSchema(), "dialect: d\ndescription: x\nsource: s\nlanguages: [c]\n"
                                      "names:\n  smp_mb: {op: ful, kind: macro}\n"),
            "s.yaml:6:16: error: names.smp_mb.op: unknown value 'ful'; did you mean 'full'?\n");
}

TEST(AsmSyntax, SplitsLiteralsPlaceholdersAndModifiers) {
  std::string Error;
  auto Pieces = splitAsmTemplate("ldxr {tmp:w}, [{addr}] {{x}}", Error);
  ASSERT_TRUE(Pieces) << Error;
  ASSERT_EQ(Pieces->size(), 5u);
  EXPECT_EQ((*Pieces)[0].Text, "ldxr ");
  EXPECT_TRUE((*Pieces)[1].Placeholder);
  EXPECT_EQ((*Pieces)[1].Text, "tmp");
  EXPECT_EQ((*Pieces)[1].Modifier, std::optional<std::string>("w"));
  EXPECT_EQ((*Pieces)[3].Text, "addr");
  EXPECT_FALSE((*Pieces)[3].Modifier);
  EXPECT_EQ((*Pieces)[4].Text, "] {x}");
  EXPECT_FALSE(splitAsmTemplate("add {new", Error));
  EXPECT_EQ(Error, "unterminated placeholder in instruction template 'add {new'");
  EXPECT_FALSE(splitAsmTemplate("x}", Error));
}
