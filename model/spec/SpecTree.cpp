#include "spec/SpecTree.h"

#include "spec/PrebuiltSpecs.h"

#include "FileIO.h"

#include <algorithm>
#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <sys/stat.h>

namespace lockwright {

SpecNode SpecNode::scalar(std::string Value, SourceLoc Loc) {
  SpecNode N;
  N.K = Kind::Scalar;
  N.Scalar = std::move(Value);
  N.Loc = std::move(Loc);
  return N;
}

SpecNode SpecNode::null(SourceLoc Loc) {
  SpecNode N;
  N.Loc = std::move(Loc);
  return N;
}

SpecNode SpecNode::map(SourceLoc Loc) {
  SpecNode N;
  N.K = Kind::Map;
  N.Loc = std::move(Loc);
  return N;
}

SpecNode SpecNode::sequence(SourceLoc Loc) {
  SpecNode N;
  N.K = Kind::Sequence;
  N.Loc = std::move(Loc);
  return N;
}

const char *SpecNode::kindName(Kind K) {
  switch (K) {
  case Kind::Null:
    return "nothing";
  case Kind::Scalar:
    return "a scalar";
  case Kind::Sequence:
    return "a list";
  case Kind::Map:
    return "a map";
  }
  return "?";
}

std::optional<int64_t> SpecNode::asInt() const {
  if (K != Kind::Scalar || Scalar.empty())
    return std::nullopt;
  const char *Begin = Scalar.c_str();
  char *End = nullptr;
  errno = 0;
  long long V = std::strtoll(Begin, &End, 0); // accepts 64, 0x40, 0100
  if (errno != 0 || *End != '\0' || End == Begin)
    return std::nullopt;
  return static_cast<int64_t>(V);
}

std::optional<bool> SpecNode::asBool() const {
  if (K != Kind::Scalar)
    return std::nullopt;
  if (Scalar == "true")
    return true;
  if (Scalar == "false")
    return false;
  return std::nullopt;
}

const SpecNode *SpecNode::get(const std::string &Key) const {
  for (const auto &F : Fields)
    if (F.first == Key)
      return &F.second;
  return nullptr;
}

SpecNode *SpecNode::get(const std::string &Key) {
  for (auto &F : Fields)
    if (F.first == Key)
      return &F.second;
  return nullptr;
}

const SpecNode *SpecNode::at(const std::string &DottedPath) const {
  const SpecNode *N = this;
  size_t Start = 0;
  while (N && Start <= DottedPath.size()) {
    size_t Dot = DottedPath.find('.', Start);
    std::string Step = DottedPath.substr(Start, Dot == std::string::npos ? std::string::npos : Dot - Start);
    N = N->isMap() ? N->get(Step) : nullptr;
    if (Dot == std::string::npos)
      break;
    Start = Dot + 1;
  }
  return N;
}

void SpecNode::set(const std::string &Key, SpecNode Value) {
  if (SpecNode *Existing = get(Key)) {
    *Existing = std::move(Value);
    return;
  }
  Fields.emplace_back(Key, std::move(Value));
}

bool SpecNode::erase(const std::string &Key) {
  for (auto It = Fields.begin(); It != Fields.end(); ++It)
    if (It->first == Key) {
      Fields.erase(It);
      return true;
    }
  return false;
}

static bool allScalars(const std::vector<SpecNode> &Items) {
  for (const SpecNode &I : Items)
    if (!I.isScalar())
      return false;
  return true;
}

static void emitNode(YAML::Emitter &Out, const SpecNode &N) {
  switch (N.kind()) {
  case SpecNode::Kind::Null:
    Out << YAML::Null;
    break;
  case SpecNode::Kind::Scalar:
    Out << N.value();
    break;
  case SpecNode::Kind::Sequence:
    if (allScalars(N.items()))
      Out << YAML::Flow;
    Out << YAML::BeginSeq;
    for (const SpecNode &I : N.items())
      emitNode(Out, I);
    Out << YAML::EndSeq;
    break;
  case SpecNode::Kind::Map:
    Out << YAML::BeginMap;
    for (const auto &F : N.fields()) {
      Out << YAML::Key << F.first << YAML::Value;
      emitNode(Out, F.second);
    }
    Out << YAML::EndMap;
    break;
  }
}

std::string SpecNode::toYaml() const {
  YAML::Emitter Out;
  emitNode(Out, *this);
  std::string Text = Out.c_str();
  if (Text.empty() || Text.back() != '\n')
    Text += '\n';
  return Text;
}

namespace {

SourceLoc locOf(const YAML::Mark &M, const std::string &File) {
  if (M.is_null())
    return {File, 0, 0};
  return {File, static_cast<unsigned>(M.line + 1), static_cast<unsigned>(M.column + 1)};
}

/// Limits on what one spec may expand to. yaml-cpp shares an aliased node, and converting copies
/// it each time: seven levels of nine aliases ("billion laughs") were 4 GB. A real spec is a few
/// thousand nodes, a few levels deep, tens of kilobytes.
constexpr size_t MaxSpecBytes = 4u << 20;
constexpr size_t MaxSpecNodes = 200000;

struct ConvertBudget {
  size_t Nodes = 0;
  bool Exhausted = false;
};

SpecNode convert(const YAML::Node &Y, const std::string &File, const std::string &Path, DiagnosticList &Diags,
                 ConvertBudget &Budget, unsigned Depth = 0) {
  SourceLoc Loc = locOf(Y.Mark(), File);
  if (Budget.Exhausted)
    return SpecNode::null(Loc);
  if (++Budget.Nodes > MaxSpecNodes || Depth > MaxYamlDepth) {
    Budget.Exhausted = true;
    Diags.error(Loc, Path,
                Depth > MaxYamlDepth
                    ? "nested more than " + std::to_string(MaxYamlDepth) + " levels deep"
                    : "expands to more than " + std::to_string(MaxSpecNodes) +
                          " nodes (aliases repeated inside aliases?); a spec is far smaller");
    return SpecNode::null(Loc);
  }
  switch (Y.Type()) {
  case YAML::NodeType::Undefined:
  case YAML::NodeType::Null:
    return SpecNode::null(Loc);
  case YAML::NodeType::Scalar:
    return SpecNode::scalar(Y.Scalar(), Loc);
  case YAML::NodeType::Sequence: {
    SpecNode N = SpecNode::sequence(Loc);
    unsigned Index = 0;
    for (const YAML::Node &Item : Y)
      N.push(convert(Item, File, Path + "[" + std::to_string(Index++) + "]", Diags, Budget, Depth + 1));
    return N;
  }
  case YAML::NodeType::Map: {
    SpecNode N = SpecNode::map(Loc);
    std::set<std::string> Seen;
    for (const auto &KV : Y) {
      SourceLoc KeyLoc = locOf(KV.first.Mark(), File);
      if (!KV.first.IsScalar()) {
        Diags.error(KeyLoc, Path, "map keys must be plain names");
        continue;
      }
      std::string Key = KV.first.Scalar();
      std::string ChildPath = Path.empty() ? Key : Path + "." + Key;
      if (!Seen.insert(Key).second) {
        Diags.error(KeyLoc, ChildPath, "duplicate key");
        continue;
      }
      SpecNode Child = convert(KV.second, File, ChildPath, Diags, Budget, Depth + 1);
      Child.setKeyLoc(KeyLoc);
      N.fields().emplace_back(Key, std::move(Child));
    }
    return N;
  }
  }
  return SpecNode();
}

} // namespace

bool flowNestedTooDeep(const std::string &Text, const std::string &Where, DiagnosticList &Diags) {
  unsigned Open = 0, Deepest = 0;
  for (char C : Text) {
    if (C == '[' || C == '{')
      Deepest = std::max(Deepest, ++Open);
    else if ((C == ']' || C == '}') && Open > 0)
      --Open;
  }
  if (Deepest <= MaxYamlDepth)
    return false;
  Diags.error({Where, 0, 0}, "", "brackets nested more than " + std::to_string(MaxYamlDepth) + " levels deep");
  return true;
}

std::optional<SpecNode> parseYamlText(const std::string &Text, const std::string &FileName,
                                      DiagnosticList &Diags) {
  if (std::optional<SpecNode> Shipped = prebuiltTree(Text, FileName))
    return Shipped;
  if (Text.size() > MaxSpecBytes) {
    Diags.error({FileName, 0, 0}, "", "a spec of " + std::to_string(Text.size()) + " bytes; specs are at most " +
                                          std::to_string(MaxSpecBytes) + " bytes");
    return std::nullopt;
  }
  if (flowNestedTooDeep(Text, FileName, Diags))
    return std::nullopt;
  YAML::Node Root;
  try {
    Root = YAML::Load(Text);
  } catch (const YAML::Exception &E) {
    Diags.error(locOf(E.mark, FileName), "", "invalid YAML: " + E.msg);
    return std::nullopt;
  }
  unsigned Before = Diags.errorCount();
  ConvertBudget Budget;
  SpecNode Tree = convert(Root, FileName, "", Diags, Budget);
  if (Diags.errorCount() != Before)
    return std::nullopt;
  return Tree;
}

std::optional<std::string> readSpecFile(const std::string &Path, DiagnosticList &Diags) {
  // Asked before reading: /dev/zero would be read until memory runs out, a FIFO would block,
  // and a 50 MB file would be read whole only to be refused.
  struct stat Status;
  if (::stat(Path.c_str(), &Status) != 0) {
    Diags.error({Path, 0, 0}, "", std::string("cannot open: ") + std::strerror(errno));
    return std::nullopt;
  }
  if (S_ISDIR(Status.st_mode)) {
    Diags.error({Path, 0, 0}, "", "is a directory, not a spec file (a spec directory goes to --spec-dir)");
    return std::nullopt;
  }
  if (!S_ISREG(Status.st_mode)) {
    Diags.error({Path, 0, 0}, "", "is not a regular file (a device, FIFO or socket); a spec is read from a file");
    return std::nullopt;
  }
  if (static_cast<uint64_t>(Status.st_size) > MaxSpecBytes) {
    Diags.error({Path, 0, 0}, "", "a spec of " + std::to_string(Status.st_size) + " bytes; specs are at most " +
                                      std::to_string(MaxSpecBytes) + " bytes");
    return std::nullopt;
  }
  std::optional<std::string> Read = readFile(Path);
  if (!Read)
    Diags.error({Path, 0, 0}, "", std::string("cannot open: ") + std::strerror(errno));
  return Read;
}

std::optional<SpecNode> parseYamlFile(const std::string &Path, DiagnosticList &Diags, std::string *Text) {
  std::optional<std::string> Read = readSpecFile(Path, Diags);
  if (!Read)
    return std::nullopt;
  std::optional<SpecNode> Tree = parseYamlText(*Read, Path, Diags);
  if (Text)
    *Text = std::move(*Read);
  return Tree;
}

} // namespace lockwright
