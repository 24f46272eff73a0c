// The specs lockwright ships, parsed when lockwright is built (TableGen's split: the YAML is
// the data, SpecTableGen the backend that writes it as C++ tables).
//
// Under CMake's CMAKE_<LANG>_CLANG_TIDY or a Bazel aspect the checker runs once per source
// file, and yaml-cpp took a quarter of a small file's check to parse the 90 KB of shipped
// specs again each time. A file is taken from these tables only when its text equals the
// text it was built from, byte for byte, and the tree is the one parseYamlText builds from
// that text (locations included), so nothing a user can observe changes; an edited or
// user-written spec is parsed as before.
#ifndef LOCKWRIGHT_MODEL_SPEC_PREBUILTSPECS_H
#define LOCKWRIGHT_MODEL_SPEC_PREBUILTSPECS_H

#include "api/ApiNameEntry.h"
#include "spec/SpecTree.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace lockwright {

/// One node of a tree in pre-order; a map's or sequence's children follow it.
struct PrebuiltNode {
  unsigned char Kind; // SpecNode::Kind
  unsigned Children;
  const char *Key; // the field name in the parent map; null elsewhere
  const char *Value;
  unsigned Line, Col, KeyLine, KeyCol;
};

struct PrebuiltFile {
  const char *Text;
  size_t Size;
  const PrebuiltNode *Nodes;
  size_t NodeCount;
  bool ValidApi; // an API spec that passed apiSpecSchema when the tables were generated
  // A valid API spec's `dialect:` and `names:` entries (apiNameEntries), else null and 0.
  const char *Dialect;
  const ApiNameEntry *ApiNames;
  size_t ApiNameCount;
};

/// A shipped API spec as the name tables read it.
struct PrebuiltApi {
  std::string_view Dialect;
  const ApiNameEntry *Names;
  size_t Count;
};

/// Makes Files (static tables that outlive the process's use of them) the prebuilt specs.
void registerPrebuiltSpecs(const PrebuiltFile *Files, size_t Count);

/// Registers the specs lockwright was built with (defined in the generated ShippedSpecs.cpp,
/// library lockwright_shipped_specs).
void registerShippedSpecs();

/// The tree parseYamlText would build from Text for FileName, when Text is a prebuilt file's;
/// with OnlyTopLevelKey, a root map holding only that field (the arch lookup reads `target:`
/// of every arch spec and needs nothing else).
std::optional<SpecNode> prebuiltTree(std::string_view Text, const std::string &FileName,
                                     std::string_view OnlyTopLevelKey = {});

/// The dialect and entries of Text when it is a prebuilt API spec that validated at build time:
/// validating it and building its tree again would only repeat the same answer on every run.
std::optional<PrebuiltApi> prebuiltApi(std::string_view Text);

} // namespace lockwright

#endif
