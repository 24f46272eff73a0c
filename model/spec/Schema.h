// The shape of spec files, declared once, checked everywhere.
//
// Like TableGen's base classes, the schema says which fields a record has,
// their types, which are required and how a child spec's record combines with
// its parent's (`inherits:`): section records merge key by key, while a fact
// (value + source) or a barrier sequence is replaced whole, so a child never
// ends up with half of its parent's instruction sequence.
#ifndef LOCKWRIGHT_MODEL_SPEC_SCHEMA_H
#define LOCKWRIGHT_MODEL_SPEC_SCHEMA_H

#include "spec/SpecTree.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace lockwright {

class SchemaType;
using SchemaRef = std::shared_ptr<const SchemaType>;

struct ValidationContext {
  DiagnosticList &Diags;
  /// True while checking one file of an inheritance chain: fields a parent may
  /// supply are not required yet. False for a resolved spec.
  bool Partial;
};

class SchemaType {
public:
  virtual ~SchemaType() = default;
  /// "an integer", "one of tas, ticket, mcs", ... (used in "expected ..." errors).
  virtual std::string describe() const = 0;
  virtual void validate(const SpecNode &N, const std::string &Path, ValidationContext &Ctx) const = 0;
  /// Applies Override on top of Base. The default replaces the whole node.
  virtual void merge(SpecNode &Base, const SpecNode &Override) const { Base = Override; }
};

/// Extra checks on a string, e.g. the placeholders an instruction template may use.
using StringCheck =
    std::function<void(const SpecNode &, const std::string &Path, DiagnosticList &)>;

SchemaRef stringType(StringCheck Check = nullptr);
SchemaRef intType(int64_t Min, int64_t Max, bool PowerOfTwo = false);
SchemaRef boolType();
SchemaRef enumType(std::vector<std::string> Values);
SchemaRef listType(SchemaRef Element, unsigned MinItems = 0);

struct FieldDecl {
  std::string Name;
  SchemaRef Type;
  bool Required = false;
};

enum class MergePolicy { KeyByKey, Replace };

/// A check across the fields of one record (exactly-one-of, conditional requirements).
using RecordCheck =
    std::function<void(const SpecNode &, const std::string &Path, ValidationContext &)>;

SchemaRef recordType(std::string Name, std::vector<FieldDecl> Fields, MergePolicy Merge,
                     std::vector<RecordCheck> Checks = {});
/// A map whose keys are free (CPU names, API names) or drawn from KeyType.
SchemaRef dictType(std::string Name, SchemaRef KeyType, SchemaRef ValueType, MergePolicy Merge);

/// Requires exactly one of Keys to be present in a record.
RecordCheck exactlyOneOf(std::vector<std::string> Keys);

/// The abstract operations shared by the API tables and the architecture specs
/// (DESIGN.md, "The shared model").
const std::vector<std::string> &abstractOperations();
/// The barrier kinds an architecture spec must describe, in output order.
const std::vector<std::string> &barrierKinds();
/// The barrier kinds that are plain fences (the others are ordered accesses).
const std::vector<std::string> &fenceKinds();
/// The ordering vocabulary for `orders:`.
const std::vector<std::string> &orderingPairs();

/// Placeholders an instruction template in an access barrier may use.
const std::vector<std::string> &accessPlaceholders();
/// Placeholders an atomic read-modify-write sequence may use.
const std::vector<std::string> &atomicPlaceholders();
/// The read-modify-write operations the generated locks are built from.
const std::vector<std::string> &atomicOps();
/// Reports unknown or malformed `{placeholder}`s in an instruction string.
void checkAsmPlaceholders(const SpecNode &N, const std::string &Path,
                          const std::vector<std::string> &Allowed, DiagnosticList &Diags);

/// Schema of specs/arch/*.yaml (and of a CPU variant's `overrides:`).
SchemaRef archSpecSchema();
/// Whether Name can be a spec's `name:` (letters, digits, '_', '-', '.', '+'; not starting with
/// '.' or '-'): it names files and others' `inherits:`.
bool isSpecName(const std::string &Name);
/// Schema of specs/api/*.yaml.
SchemaRef apiSpecSchema();

} // namespace lockwright

#endif
