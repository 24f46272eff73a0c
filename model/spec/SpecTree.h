// A YAML document as a tree that remembers where every node came from.
//
// yaml-cpp marks carry line and column but not the file, and a resolved spec
// mixes nodes from several files (generic, the arch, a CPU variant), so the
// loader copies documents into this tree, where each node keeps its own file.
#ifndef LOCKWRIGHT_MODEL_SPEC_SPECTREE_H
#define LOCKWRIGHT_MODEL_SPEC_SPECTREE_H

#include "spec/Diagnostics.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lockwright {

class SpecNode {
public:
  enum class Kind { Null, Scalar, Sequence, Map };

  SpecNode() = default;
  static SpecNode null(SourceLoc Loc = {});
  static SpecNode scalar(std::string Value, SourceLoc Loc = {});
  static SpecNode map(SourceLoc Loc = {});
  static SpecNode sequence(SourceLoc Loc = {});

  Kind kind() const { return K; }
  bool isNull() const { return K == Kind::Null; }
  bool isScalar() const { return K == Kind::Scalar; }
  bool isMap() const { return K == Kind::Map; }
  bool isSequence() const { return K == Kind::Sequence; }
  static const char *kindName(Kind K);

  const SourceLoc &loc() const { return Loc; }
  /// Where the key that names this node was written (for "unknown key" errors).
  const SourceLoc &keyLoc() const { return KeyLoc.Line ? KeyLoc : Loc; }
  void setKeyLoc(SourceLoc L) { KeyLoc = std::move(L); }

  // Scalars.
  const std::string &value() const { return Scalar; }
  std::optional<int64_t> asInt() const;
  std::optional<bool> asBool() const;

  // Maps keep their keys in document order so output is deterministic and readable.
  const std::vector<std::pair<std::string, SpecNode>> &fields() const { return Fields; }
  std::vector<std::pair<std::string, SpecNode>> &fields() { return Fields; }
  const SpecNode *get(const std::string &Key) const;
  SpecNode *get(const std::string &Key);
  /// Follows a dotted path ("cache.l1_line.value"); nullptr when any step is missing.
  const SpecNode *at(const std::string &DottedPath) const;
  void set(const std::string &Key, SpecNode Value);
  bool erase(const std::string &Key);

  // Sequences.
  const std::vector<SpecNode> &items() const { return Items; }
  std::vector<SpecNode> &items() { return Items; }
  void push(SpecNode Value) { Items.push_back(std::move(Value)); }

  /// Serialises the tree as block YAML (the form `spec show` prints).
  std::string toYaml() const;

private:
  Kind K = Kind::Null;
  std::string Scalar;
  std::vector<std::pair<std::string, SpecNode>> Fields;
  std::vector<SpecNode> Items;
  SourceLoc Loc;
  SourceLoc KeyLoc;
};

/// The deepest a spec or config may nest (flow brackets or block mappings).
inline constexpr unsigned MaxYamlDepth = 64;

/// Whether Text's [ and { nest deeper than MaxYamlDepth, said as an error at Where. yaml-cpp's
/// parser recurses once per level ("[[[[..."), so every YAML reader asks this before it parses.
bool flowNestedTooDeep(const std::string &Text, const std::string &Where, DiagnosticList &Diags);

/// Parses one YAML file (or text, for tests) into a SpecNode tree. Syntax errors
/// and duplicate keys are reported located; returns nullopt when nothing usable was read.
/// Text, when given, receives what the file held.
std::optional<SpecNode> parseYamlFile(const std::string &Path, DiagnosticList &Diags,
                                      std::string *Text = nullptr);
std::optional<SpecNode> parseYamlText(const std::string &Text, const std::string &FileName,
                                      DiagnosticList &Diags);
/// What the spec file at Path holds; an error located at the file when it cannot be read.
std::optional<std::string> readSpecFile(const std::string &Path, DiagnosticList &Diags);

} // namespace lockwright

#endif
