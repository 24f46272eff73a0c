// Specs mutated through their structure, then rendered: the custom mutator parses the input as
// YAML, changes one node (a scalar's bytes, a number to an edge value, an entry dropped or
// duplicated) and prints it back, so most inputs stay specs the loader accepts and the
// backends and templates see values no shipped spec has. Seeds: specs/arch/*.yaml.
#include "FuzzSupport.h"
#include "emit/Generator.h"
#include "emit/TemplateRenderer.h"
#include "spec/SpecLoader.h"

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <cstring>
#include <random>

using namespace lockwright;

extern "C" size_t LLVMFuzzerMutate(uint8_t *Data, size_t Size, size_t MaxSize);

namespace {

/// Every node of a document, parents before children.
void collect(YAML::Node Node, std::vector<YAML::Node> &Out) {
  Out.push_back(Node);
  if (Node.IsMap())
    for (auto It = Node.begin(); It != Node.end(); ++It)
      collect(It->second, Out);
  else if (Node.IsSequence())
    for (auto It = Node.begin(); It != Node.end(); ++It)
      collect(*It, Out);
}

const char *const EdgeValues[] = {"0", "1", "-1", "3", "7", "4096", "65536", "4294967296", "9223372036854775807",
                                  "true", "false", "", "~", "{{", "}}", "{{#x}}", "x86_64", "generic", ".S"};

/// One structural change to the document in Text, or nothing when Text is not YAML.
std::optional<std::string> mutateStructure(const std::string &Text, unsigned Seed) {
  YAML::Node Root;
  try {
    Root = YAML::Load(Text);
  } catch (const YAML::Exception &) {
    return std::nullopt;
  }
  std::vector<YAML::Node> Nodes;
  collect(Root, Nodes);
  std::minstd_rand Random(Seed);
  YAML::Node Target = Nodes[Random() % Nodes.size()];
  switch (Random() % 4) {
  case 0: // a scalar's bytes, mutated by libFuzzer
    if (Target.IsScalar()) {
      std::string Value = Target.Scalar();
      Value.resize(Value.size() + 16);
      Value.resize(LLVMFuzzerMutate(reinterpret_cast<uint8_t *>(Value.data()), Value.size() - 16, Value.size()));
      Target = Value;
    }
    break;
  case 1: // a scalar replaced by an edge value
    if (Target.IsScalar())
      Target = EdgeValues[Random() % std::size(EdgeValues)];
    break;
  case 2: // a map entry dropped
    if (Target.IsMap() && Target.size()) {
      unsigned Skip = Random() % Target.size();
      auto It = Target.begin();
      std::advance(It, Skip);
      Target.remove(It->first.Scalar());
    }
    break;
  case 3: // a sequence item duplicated
    if (Target.IsSequence() && Target.size())
      Target.push_back(YAML::Clone(Target[Random() % Target.size()]));
    break;
  }
  YAML::Emitter Out;
  Out << Root;
  return std::string(Out.c_str());
}

} // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *Data, size_t Size, size_t MaxSize, unsigned Seed) {
  std::optional<std::string> Mutated = mutateStructure(std::string(reinterpret_cast<char *>(Data), Size), Seed);
  if (!Mutated || Mutated->size() > MaxSize || Seed % 8 == 0)
    return LLVMFuzzerMutate(Data, Size, MaxSize); // now and then raw bytes, as the loader sees them
  std::memcpy(Data, Mutated->data(), Mutated->size());
  return Mutated->size();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static const TemplateSet Templates(LOCKWRIGHT_FUZZ_TEMPLATE_DIR);
  fuzz::FreshFile Input(Data, Size);
  SpecRepository &Repo = fuzz::sharedRepository();
  const std::string &File = Input.path();
  DiagnosticList Diags;
  std::optional<ResolvedSpec> Spec = Repo.resolveFile(File, "", Diags);
  if (!Spec)
    return 0;
  GenOptions Options;
  Options.Invocation = "fuzz";
  (void)generate(*Spec, Templates, Options, Diags);
  // The ticket lock as the default, a small unpadded table and few stripes: other shapes.
  Options.DefaultLock = "ticket";
  Options.HashSize = 2;
  Options.HashPadded = false;
  Options.CounterStripes = 1;
  (void)generate(*Spec, Templates, Options, Diags);
  return 0;
}
