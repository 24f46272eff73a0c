#include "spec/PrebuiltSpecs.h"

namespace lockwright {

namespace {

const PrebuiltFile *Registered = nullptr;
size_t RegisteredCount = 0;

/// Builds the node at Nodes[Next] and its subtree, advancing Next past them.
SpecNode build(const PrebuiltNode *Nodes, size_t &Next, const std::string &File) {
  const PrebuiltNode &P = Nodes[Next++];
  SourceLoc Loc{File, P.Line, P.Col};
  SpecNode N;
  switch (static_cast<SpecNode::Kind>(P.Kind)) {
  case SpecNode::Kind::Null:
    N = SpecNode::null(std::move(Loc));
    break;
  case SpecNode::Kind::Scalar:
    N = SpecNode::scalar(P.Value, std::move(Loc));
    break;
  case SpecNode::Kind::Sequence:
    N = SpecNode::sequence(std::move(Loc));
    N.items().reserve(P.Children);
    for (unsigned I = 0; I < P.Children; ++I)
      N.push(build(Nodes, Next, File));
    break;
  case SpecNode::Kind::Map:
    N = SpecNode::map(std::move(Loc));
    N.fields().reserve(P.Children);
    for (unsigned I = 0; I < P.Children; ++I) {
      const char *Key = Nodes[Next].Key;
      N.fields().emplace_back(Key, build(Nodes, Next, File));
    }
    break;
  }
  if (P.KeyLine)
    N.setKeyLoc({File, P.KeyLine, P.KeyCol});
  return N;
}

/// Advances Next past the node at Nodes[Next] and its subtree.
void skip(const PrebuiltNode *Nodes, size_t &Next) {
  unsigned Children = Nodes[Next++].Children;
  for (unsigned I = 0; I < Children; ++I)
    skip(Nodes, Next);
}

} // namespace

void registerPrebuiltSpecs(const PrebuiltFile *Files, size_t Count) {
  Registered = Files;
  RegisteredCount = Count;
}

namespace {

/// The prebuilt file whose text is Text byte for byte, if any.
const PrebuiltFile *prebuiltFile(std::string_view Text) {
  for (size_t I = 0; I < RegisteredCount; ++I) {
    const PrebuiltFile &F = Registered[I];
    if (F.Size == Text.size() && Text == std::string_view(F.Text, F.Size))
      return &F;
  }
  return nullptr;
}

} // namespace

std::optional<PrebuiltApi> prebuiltApi(std::string_view Text) {
  const PrebuiltFile *F = prebuiltFile(Text);
  if (!F || !F->ValidApi)
    return std::nullopt;
  return PrebuiltApi{F->Dialect, F->ApiNames, F->ApiNameCount};
}

std::optional<SpecNode> prebuiltTree(std::string_view Text, const std::string &FileName,
                                     std::string_view OnlyTopLevelKey) {
  const PrebuiltFile *Found = prebuiltFile(Text);
  if (!Found || Found->NodeCount == 0)
    return std::nullopt;
  const PrebuiltFile &F = *Found;
  size_t Next = 0;
  const PrebuiltNode &Root = F.Nodes[Next];
  if (OnlyTopLevelKey.empty() || static_cast<SpecNode::Kind>(Root.Kind) != SpecNode::Kind::Map)
    return build(F.Nodes, Next, FileName);
  SpecNode Map = SpecNode::map({FileName, Root.Line, Root.Col});
  ++Next;
  for (unsigned Child = 0; Child < Root.Children && Map.fields().empty(); ++Child) {
    const char *Key = F.Nodes[Next].Key;
    if (Key == OnlyTopLevelKey)
      Map.fields().emplace_back(Key, build(F.Nodes, Next, FileName));
    else
      skip(F.Nodes, Next);
  }
  return Map;
}

} // namespace lockwright
