#include "spec/Schema.h"
#include "StringList.h"

#include "spec/AsmSyntax.h"
#include "spec/LockAlgorithms.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>

namespace lockwright {

namespace {

std::string childPath(const std::string &Path, const std::string &Key) {
  return Path.empty() ? Key : Path + "." + Key;
}

/// Whether N is of kind Want; else reports it, describing what Type expects (only then:
/// an enum's description joins every value, and every node of every spec load is checked).
bool expectKind(const SpecNode &N, SpecNode::Kind Want, const SchemaType &Type,
                const std::string &Path, DiagnosticList &Diags) {
  if (N.kind() == Want)
    return true;
  Diags.error(N.loc(), Path, "expected " + Type.describe() + ", found " + SpecNode::kindName(N.kind()));
  return false;
}

class StringType : public SchemaType {
public:
  explicit StringType(StringCheck Check) : Check(std::move(Check)) {}
  std::string describe() const override { return "a string"; }
  void validate(const SpecNode &N, const std::string &Path, ValidationContext &Ctx) const override {
    if (!expectKind(N, SpecNode::Kind::Scalar, *this, Path, Ctx.Diags))
      return;
    if (!safeInGeneratedCode(N, Path, Ctx.Diags))
      return;
    if (Check)
      Check(N, Path, Ctx.Diags);
  }

private:
  StringCheck Check;

  /// Spec text is copied into generated C, C++ and assembly, much of it into comments: a "*/"
  /// would end a comment and let the rest of the string compile, a line break would end a "//"
  /// or "#" comment, and a control character has no business in either.
  static bool safeInGeneratedCode(const SpecNode &N, const std::string &Path, DiagnosticList &Diags) {
    const std::string &V = N.value();
    size_t End = V.find_last_not_of('\n') + 1; // a block scalar's final line break is not part of the text
    for (size_t I = 0; I < End; ++I) {
      unsigned char C = V[I];
      if (C == '\n') {
        Diags.error(N.loc(), Path, "is more than one line; spec text goes into one-line comments in generated code");
        return false;
      }
      if ((C < 0x20 && C != '\t') || C == 0x7f) {
        char Hex[8];
        std::snprintf(Hex, sizeof Hex, "0x%02x", C);
        Diags.error(N.loc(), Path, std::string("contains the control character ") + Hex);
        return false;
      }
    }
    if (V.find("*/") != std::string::npos) {
      Diags.error(N.loc(), Path, "contains '*/', which would end a comment in the generated headers");
      return false;
    }
    return true;
  }
};

class IntType : public SchemaType {
public:
  IntType(int64_t Min, int64_t Max, bool PowerOfTwo) : Min(Min), Max(Max), PowerOfTwo(PowerOfTwo) {}
  std::string describe() const override { return PowerOfTwo ? "a power-of-two integer" : "an integer"; }
  void validate(const SpecNode &N, const std::string &Path, ValidationContext &Ctx) const override {
    if (!expectKind(N, SpecNode::Kind::Scalar, *this, Path, Ctx.Diags))
      return;
    std::optional<int64_t> V = N.asInt();
    if (!V) {
      // Digits too many for 64 bits are a number out of range, not "not a number".
      const std::string &Text = N.value();
      size_t Start = !Text.empty() && (Text[0] == '-' || Text[0] == '+') ? 1 : 0;
      if (Text.size() > Start && Text.find_first_not_of("0123456789", Start) == std::string::npos)
        Ctx.Diags.error(N.loc(), Path, "value " + Text + " is out of range [" + std::to_string(Min) + ", " +
                                           std::to_string(Max) + "]");
      else
        Ctx.Diags.error(N.loc(), Path, "expected " + describe() + ", found '" + Text + "'");
      return;
    }
    if (*V < Min || *V > Max)
      Ctx.Diags.error(N.loc(), Path,
                      "value " + std::to_string(*V) + " is out of range [" + std::to_string(Min) +
                          ", " + std::to_string(Max) + "]");
    else if (PowerOfTwo && (*V <= 0 || (*V & (*V - 1)) != 0))
      Ctx.Diags.error(N.loc(), Path, "value " + std::to_string(*V) + " is not a power of two");
  }

private:
  int64_t Min, Max;
  bool PowerOfTwo;
};

class BoolType : public SchemaType {
public:
  std::string describe() const override { return "true or false"; }
  void validate(const SpecNode &N, const std::string &Path, ValidationContext &Ctx) const override {
    if (!expectKind(N, SpecNode::Kind::Scalar, *this, Path, Ctx.Diags))
      return;
    if (!N.asBool())
      Ctx.Diags.error(N.loc(), Path, "expected true or false, found '" + N.value() + "'");
  }
};

class EnumType : public SchemaType {
public:
  explicit EnumType(std::vector<std::string> Values) : Values(std::move(Values)) {}
  std::string describe() const override { return "one of " + joinList(Values, ", "); }
  void validate(const SpecNode &N, const std::string &Path, ValidationContext &Ctx) const override {
    if (!expectKind(N, SpecNode::Kind::Scalar, *this, Path, Ctx.Diags))
      return;
    if (std::find(Values.begin(), Values.end(), N.value()) != Values.end())
      return;
    std::string Message = "unknown value '" + N.value() + "'";
    Message += didYouMean(N.value(), Values, "; expected " + describe());
    Ctx.Diags.error(N.loc(), Path, Message);
  }

private:
  std::vector<std::string> Values;
};

class ListType : public SchemaType {
public:
  ListType(SchemaRef Element, unsigned MinItems) : Element(std::move(Element)), MinItems(MinItems) {}
  std::string describe() const override { return "a list"; }
  void validate(const SpecNode &N, const std::string &Path, ValidationContext &Ctx) const override {
    if (!expectKind(N, SpecNode::Kind::Sequence, *this, Path, Ctx.Diags))
      return;
    if (N.items().size() < MinItems)
      Ctx.Diags.error(N.loc(), Path,
                      "expected at least " + std::to_string(MinItems) + " item" + (MinItems == 1 ? "" : "s"));
    for (size_t I = 0; I < N.items().size(); ++I)
      Element->validate(N.items()[I], Path + "[" + std::to_string(I) + "]", Ctx);
  }

private:
  SchemaRef Element;
  unsigned MinItems;
};

class RecordType : public SchemaType {
public:
  RecordType(std::string Name, std::vector<FieldDecl> Fields, MergePolicy Merge,
             std::vector<RecordCheck> Checks)
      : Name(std::move(Name)), Fields(std::move(Fields)), Merge(Merge), Checks(std::move(Checks)) {}

  std::string describe() const override { return "a map (" + Name + ")"; }

  void validate(const SpecNode &N, const std::string &Path, ValidationContext &Ctx) const override {
    if (!expectKind(N, SpecNode::Kind::Map, *this, Path, Ctx.Diags))
      return;
    unsigned ErrorsBefore = Ctx.Diags.errorCount();
    for (const auto &[Key, Child] : N.fields()) {
      const FieldDecl *Decl = find(Key);
      if (!Decl) {
        std::string Message = "unknown key";
        Message += didYouMean(Key, fieldNames(), "; expected one of " + joinList(fieldNames(), ", "));
        Ctx.Diags.error(Child.keyLoc(), childPath(Path, Key), Message);
        continue;
      }
      Decl->Type->validate(Child, childPath(Path, Key), Ctx);
    }
    // A replaced record is whole in the file that writes it; a merged one is
    // only whole once its inheritance chain is resolved.
    bool Whole = Merge == MergePolicy::Replace || !Ctx.Partial;
    if (!Whole)
      return;
    for (const FieldDecl &F : Fields)
      if (F.Required && !N.get(F.Name))
        Ctx.Diags.error(N.keyLoc(), childPath(Path, F.Name), "missing required key");
    // Cross-field rules only make sense once each field is valid on its own.
    if (Ctx.Diags.errorCount() != ErrorsBefore)
      return;
    for (const RecordCheck &C : Checks)
      C(N, Path, Ctx);
  }

  void merge(SpecNode &Base, const SpecNode &Override) const override {
    if (Merge == MergePolicy::Replace || !Base.isMap() || !Override.isMap()) {
      Base = Override;
      return;
    }
    for (const auto &[Key, Child] : Override.fields()) {
      SpecNode *Existing = Base.get(Key);
      const FieldDecl *Decl = find(Key);
      if (Existing && Decl)
        Decl->Type->merge(*Existing, Child);
      else
        Base.set(Key, Child);
    }
  }

private:
  const FieldDecl *find(const std::string &Key) const {
    for (const FieldDecl &F : Fields)
      if (F.Name == Key)
        return &F;
    return nullptr;
  }
  std::vector<std::string> fieldNames() const {
    std::vector<std::string> Names;
    for (const FieldDecl &F : Fields)
      Names.push_back(F.Name);
    return Names;
  }

  std::string Name;
  std::vector<FieldDecl> Fields;
  MergePolicy Merge;
  std::vector<RecordCheck> Checks;
};

class DictType : public SchemaType {
public:
  DictType(std::string Name, SchemaRef KeyType, SchemaRef ValueType, MergePolicy Merge)
      : Name(std::move(Name)), KeyType(std::move(KeyType)), ValueType(std::move(ValueType)), Merge(Merge) {}

  std::string describe() const override { return "a map (" + Name + ")"; }

  void validate(const SpecNode &N, const std::string &Path, ValidationContext &Ctx) const override {
    if (!expectKind(N, SpecNode::Kind::Map, *this, Path, Ctx.Diags))
      return;
    for (const auto &[Key, Child] : N.fields()) {
      if (KeyType) {
        SpecNode KeyNode = SpecNode::scalar(Key, Child.keyLoc());
        KeyType->validate(KeyNode, childPath(Path, Key), Ctx);
      }
      ValueType->validate(Child, childPath(Path, Key), Ctx);
    }
  }

  void merge(SpecNode &Base, const SpecNode &Override) const override {
    if (Merge == MergePolicy::Replace || !Base.isMap() || !Override.isMap()) {
      Base = Override;
      return;
    }
    for (const auto &[Key, Child] : Override.fields()) {
      if (SpecNode *Existing = Base.get(Key))
        ValueType->merge(*Existing, Child);
      else
        Base.set(Key, Child);
    }
  }

private:
  std::string Name;
  SchemaRef KeyType, ValueType;
  MergePolicy Merge;
};

} // namespace

SchemaRef stringType(StringCheck Check) { return std::make_shared<StringType>(std::move(Check)); }
SchemaRef intType(int64_t Min, int64_t Max, bool PowerOfTwo) {
  return std::make_shared<IntType>(Min, Max, PowerOfTwo);
}
SchemaRef boolType() { return std::make_shared<BoolType>(); }
SchemaRef enumType(std::vector<std::string> Values) { return std::make_shared<EnumType>(std::move(Values)); }
SchemaRef listType(SchemaRef Element, unsigned MinItems) {
  return std::make_shared<ListType>(std::move(Element), MinItems);
}
SchemaRef recordType(std::string Name, std::vector<FieldDecl> Fields, MergePolicy Merge,
                     std::vector<RecordCheck> Checks) {
  return std::make_shared<RecordType>(std::move(Name), std::move(Fields), Merge, std::move(Checks));
}
SchemaRef dictType(std::string Name, SchemaRef KeyType, SchemaRef ValueType, MergePolicy Merge) {
  return std::make_shared<DictType>(std::move(Name), std::move(KeyType), std::move(ValueType), Merge);
}

RecordCheck exactlyOneOf(std::vector<std::string> Keys) {
  return [Keys](const SpecNode &N, const std::string &Path, ValidationContext &Ctx) {
    std::vector<std::string> Present;
    for (const std::string &K : Keys)
      if (N.get(K))
        Present.push_back(K);
    if (Present.size() == 1)
      return;
    if (Present.empty())
      Ctx.Diags.error(N.keyLoc(), Path, "needs one of " + joinList(Keys, ", "));
    else
      Ctx.Diags.error(N.get(Present[1])->keyLoc(), childPath(Path, Present[1]),
                      "'" + Present[0] + "' and '" + Present[1] + "' cannot be combined; give exactly one of " +
                          joinList(Keys, ", "));
  };
}

const std::vector<std::string> &abstractOperations() {
  static const std::vector<std::string> Ops = {
      // Barriers and ordered accesses (the kernel's vocabulary).
      "full", "read", "write", "acquire_load", "release_store", "acquire_after_ctrl_dep",
      "before_atomic", "after_atomic", "store_mb", "fence", "compiler_barrier", "cpu_relax",
      "read_once", "write_once", "cond_load_acquire", "cond_load_relaxed",
      // Publish/subscribe: rcu_assign_pointer (a release store of a pointer) and
      // rcu_dereference (a load whose dereferences its address dependency orders: consume).
      "publish", "subscribe",
      // The name of an ordering, as an order argument spells it (memory_order_acquire,
      // __ATOMIC_ACQUIRE, std::memory_order::acquire); its `order:` says which.
      "order_constant",
      // Atomic accesses; their ordering comes from `order:` or the `order_arg:` argument.
      "atomic_load", "atomic_store", "atomic_exchange", "atomic_cmpxchg", "atomic_rmw",
      "atomic_rmw_noreturn", "atomic_test_and_set", "atomic_clear", "atomic_init",
      // Types and objects.
      "atomic_type", "lock_type", "rwlock_type", "lock_init",
      // Lock operations.
      "lock_acquire", "lock_release", "lock_try", "lock_is_locked", "read_acquire", "read_release",
      "write_acquire", "write_release",
      // An assertion that the caller holds a lock (lockdep_assert_held): what follows runs in
      // that lock's critical section.
      "assert_held",
      // Lock tables and counters.
      "lock_table_type", "lock_hash", "lock_constant", "counter_type", "counter_add", "counter_read",
      // Memory a function allocates: an object no other thread can reach until it is published.
      // Per CPU: one copy for each CPU (__alloc_percpu), each written by its own CPU.
      "allocate", "allocate_per_cpu",
      // A configuration entry point (a socket option, a sysctl, a link setting): it runs when a
      // program or an administrator changes a setting, rarely, so its writes are cold.
      "configure",
      // A registration entry point whose name does not say so (ck_epoch_recycle takes a record
      // a thread gave back): it runs once per participant, so its writes are cold.
      "register",
      // Sections (kind: section, names may be globs): code that runs only at boot or unload
      // (the kernel's __init, __exit), and variables with one copy per CPU (DEFINE_PER_CPU).
      "init_section", "per_cpu_section",
      // Retirement: the object handed over (an rcu_head and its container) is freed once
      // readers are done; nobody writes it after, so the retiring function's writes are teardown.
      "retire",
      // Threads: what a thread did before it starts another is visible to that thread, and what
      // a joined thread did is visible after the join.
      "thread_create", "thread_join",
      // A registration that runs its function once per run (the kernel's initcalls,
      // module_init): a thread it starts is started once.
      "run_once",
      // The running thread's or CPU's identity (smp_processor_id, pthread_self): an array
      // index made from it picks the thread's own slot.
      "thread_id",
      // A branch's expected outcome (__builtin_expect(x, 0), the kernel's unlikely()): the
      // branch the code says it does not expect runs rarely, so the writes only it makes are cold.
      "branch_expect",
      // Layout.
      "cache_line_size", "cacheline_aligned", "destructive_size", "constructive_size", "cache_padded",
  };
  return Ops;
}

const std::vector<std::string> &barrierKinds() {
  static const std::vector<std::string> Kinds = {
      "full", "read", "write", "acquire_load", "release_store", "acquire_after_ctrl_dep",
      "before_atomic", "after_atomic"};
  return Kinds;
}

const std::vector<std::string> &fenceKinds() {
  static const std::vector<std::string> Kinds = {"full", "read", "write", "acquire_after_ctrl_dep",
                                                 "before_atomic", "after_atomic"};
  return Kinds;
}

const std::vector<std::string> &orderingPairs() {
  static const std::vector<std::string> Pairs = {"load-load", "load-store", "store-load", "store-store"};
  return Pairs;
}

const std::vector<std::string> &accessPlaceholders() {
  static const std::vector<std::string> Names = {"val", "addr", "tmp"};
  return Names;
}

const std::vector<std::string> &atomicPlaceholders() {
  static const std::vector<std::string> Names = {"val", "addr", "new", "old", "tmp", "tmp2"};
  return Names;
}

const std::vector<std::string> &atomicOps() {
  static const std::vector<std::string> Ops = {"tas_acquire",       "xchg_acq_rel",    "fetch_add_acquire",
                                               "fetch_add_release", "cmpxchg_acquire", "cmpxchg_release"};
  return Ops;
}

void checkAsmPlaceholders(const SpecNode &N, const std::string &Path,
                          const std::vector<std::string> &Allowed, DiagnosticList &Diags) {
  std::string Error;
  std::optional<std::vector<AsmPiece>> Pieces = splitAsmTemplate(N.value(), Error);
  if (!Pieces) {
    Diags.error(N.loc(), Path, Error);
    return;
  }
  for (const AsmPiece &P : *Pieces) {
    if (!P.Placeholder)
      continue;
    // `{name:mod}` passes an operand modifier through (`{tmp:w}` on arm64).
    if (P.Modifier && (P.Modifier->empty() || !std::all_of(P.Modifier->begin(), P.Modifier->end(), ::isalpha))) {
      Diags.error(N.loc(), Path, "operand modifier '" + *P.Modifier + "' of '{" + P.Text + "}' must be letters");
      continue;
    }
    if (std::find(Allowed.begin(), Allowed.end(), P.Text) == Allowed.end()) {
      std::string Message = "unknown placeholder '{" + P.Text + "}'";
      std::vector<std::string> Braced;
      for (const std::string &A : Allowed)
        Braced.push_back("{" + A + "}");
      Message += didYouMean(P.Text, Allowed,
                            Allowed.empty() ? "; a barrier sequence takes no operands"
                                            : "; expected one of " + joinList(Braced, ", "),
                            "'{", "}'");
      Diags.error(N.loc(), Path, Message);
    }
  }
}

namespace {

SchemaRef asmString(std::vector<std::string> Allowed) {
  return stringType([Allowed](const SpecNode &N, const std::string &Path, DiagnosticList &Diags) {
    checkAsmPlaceholders(N, Path, Allowed, Diags);
  });
}

} // namespace

bool isSpecName(const std::string &Name) {
  return !Name.empty() && Name.front() != '.' && Name.front() != '-' &&
         std::all_of(Name.begin(), Name.end(), [](unsigned char C) {
           return std::isalnum(C) || C == '_' || C == '-' || C == '.' || C == '+';
         });
}

namespace {

/// An architecture's name: it names files (lw_spinlock_<name>.S), and others' `inherits:`.
SchemaRef specName() {
  return stringType([](const SpecNode &N, const std::string &Path, DiagnosticList &Diags) {
    const std::string &V = N.value();
    if (!isSpecName(V))
      Diags.error(N.loc(), Path, "'" + V + "' is not a spec name (letters, digits, '_', '-', '.' and '+'; "
                                 "not starting with '.' or '-')");
  });
}

/// A C identifier: a member name (`member:` of an API name).
SchemaRef identifierType() {
  return stringType([](const SpecNode &N, const std::string &Path, DiagnosticList &Diags) {
    const std::string &V = N.value();
    bool Ok = !V.empty() && !std::isdigit(static_cast<unsigned char>(V.front()));
    for (char C : V)
      Ok = Ok && (std::isalnum(static_cast<unsigned char>(C)) || C == '_');
    if (!Ok)
      Diags.error(N.loc(), Path, "'" + V + "' is not a C identifier (letters, digits and '_', not starting with a digit)");
  });
}

SchemaRef sourceString() {
  return stringType([](const SpecNode &N, const std::string &Path, DiagnosticList &Diags) {
    if (N.value().find_first_not_of(" \t") == std::string::npos)
      Diags.error(N.loc(), Path, "a source must name the public origin of the fact");
  });
}

/// `{value: V, source: S}`: one fact and where it comes from.
SchemaRef fact(SchemaRef Value) {
  return recordType("fact", {{"value", std::move(Value), true}, {"source", sourceString(), true}},
                    MergePolicy::Replace);
}

SchemaRef lineSize() { return fact(intType(8, 4096, /*PowerOfTwo=*/true)); }

/// How one fence is implemented: an instruction sequence, only a compiler
/// barrier, a C11 fence (the portable fallback), or the same as another kind
/// (asm-generic's `smp_acquire__after_ctrl_dep() = smp_rmb()`).
std::vector<FieldDecl> fenceFields(bool WithOrders) {
  std::vector<FieldDecl> Fields = {
      {"asm", listType(asmString({}), 1)},
      {"compiler_only", enumType({"true"})},
      {"c11", enumType({"seq_cst", "acquire", "release", "acq_rel"})},
      {"same_as", enumType(fenceKinds())},
      {"clobbers", listType(enumType({"cc"}), 1)},
  };
  if (WithOrders)
    Fields.push_back({"orders", listType(enumType(orderingPairs()), 1)});
  return Fields;
}

RecordCheck fenceForm() { return exactlyOneOf({"asm", "compiler_only", "c11", "same_as"}); }

RecordCheck ordersUnlessAlias() {
  return [](const SpecNode &N, const std::string &Path, ValidationContext &Ctx) {
    if (!N.get("same_as") && !N.get("orders"))
      Ctx.Diags.error(N.keyLoc(), childPath(Path, "orders"),
                      "missing required key (say what the barrier orders)");
    if (N.get("same_as") && N.get("orders"))
      Ctx.Diags.error(N.get("orders")->keyLoc(), childPath(Path, "orders"),
                      "an alias ('same_as') takes its orders from the barrier it names");
  };
}

/// A barrier kind: a fence with what it orders and where that comes from.
SchemaRef barrierFence() {
  std::vector<FieldDecl> Fields = fenceFields(/*WithOrders=*/true);
  Fields.push_back({"source", sourceString(), true});
  return recordType("barrier", std::move(Fields), MergePolicy::Replace, {fenceForm(), ordersUnlessAlias()});
}

/// A fence used inside another fact (the fence after a plain load, the nudge after an unlock).
SchemaRef innerFence() {
  return recordType("fence", fenceFields(/*WithOrders=*/false), MergePolicy::Replace, {fenceForm()});
}

/// An ordered access: per-size instructions, a plain access plus a fence for
/// the sizes without one, or the C11 builtin.
SchemaRef orderedAccess(const std::string &FenceKey, const std::string &C11Order) {
  SchemaRef Sizes = enumType({"1", "2", "4", "8"});
  RecordCheck Form = [FenceKey](const SpecNode &N, const std::string &Path, ValidationContext &Ctx) {
    bool HasC11 = N.get("c11"), HasInsn = N.get("insn"), HasFence = N.get(FenceKey);
    if (HasC11 && (HasInsn || HasFence))
      Ctx.Diags.error(N.get("c11")->keyLoc(), childPath(Path, "c11"),
                      "'c11' cannot be combined with 'insn' or '" + FenceKey + "'");
    else if (!HasC11 && !HasInsn && !HasFence)
      Ctx.Diags.error(N.keyLoc(), Path, "needs 'c11', 'insn' or '" + FenceKey + "'");
  };
  return recordType("ordered access",
                    {{"insn", dictType("size to instruction", Sizes, asmString(accessPlaceholders()),
                                       MergePolicy::Replace)},
                     {FenceKey, innerFence()},
                     {"c11", enumType({C11Order})},
                     {"orders", listType(enumType(orderingPairs()), 1), true},
                     {"source", sourceString(), true}},
                    MergePolicy::Replace, {Form});
}

std::vector<FieldDecl> archBodyFields() {
  SchemaRef Barriers = recordType(
      "barriers",
      {{"full", barrierFence(), true},
       {"read", barrierFence(), true},
       {"write", barrierFence(), true},
       {"acquire_load", orderedAccess("after", "acquire"), true},
       {"release_store", orderedAccess("before", "release"), true},
       {"acquire_after_ctrl_dep", barrierFence(), true},
       {"before_atomic", barrierFence(), true},
       {"after_atomic", barrierFence(), true}},
      MergePolicy::KeyByKey);

  SchemaRef Target = recordType("target",
                                {{"triples", listType(stringType(), 1)},
                                 // "any": the generated code reads both from the compiler (generic).
                                 {"bits", enumType({"32", "64", "any"}), true},
                                 {"endian", enumType({"little", "big", "any"}), true},
                                 {"check", stringType()}},
                                MergePolicy::KeyByKey);

  // Where clang has no target: a clang target whose C layout is the architecture's (sizes,
  // alignments, endianness), parsed with the architecture's own C library headers (sysroot).
  SchemaRef LayoutProxy = recordType("layout proxy", {{"target", stringType(), true}, {"source", stringType(), true}},
                                     MergePolicy::Replace);

  SchemaRef Toolchain = recordType("toolchain",
                                   {{"gcc", stringType()},
                                    {"clang_target", stringType()},
                                    {"layout_proxy", LayoutProxy},
                                    {"qemu", stringType()},
                                    {"sysroot", stringType()},
                                    {"cflags", listType(stringType())},
                                    {"native", boolType()}},
                                   // How to build for a target is not inherited: each spec says it whole.
                                   MergePolicy::Replace);

  SchemaRef Cache = recordType("cache",
                               {{"l1_line", lineSize(), true},
                                {"smp_line", lineSize(), true},
                                {"destructive", lineSize(), true},
                                {"constructive", lineSize(), true}},
                               MergePolicy::KeyByKey);

  SchemaRef LockWord = recordType("lock word",
                                  {{"size", intType(1, 16), true},
                                   {"align", intType(1, 256, true), true},
                                   {"unlocked", intType(INT32_MIN, INT32_MAX), true},
                                   {"locked", intType(INT32_MIN, INT32_MAX), true},
                                   {"source", sourceString(), true}},
                                  MergePolicy::Replace,
                                  {[](const SpecNode &N, const std::string &Path, ValidationContext &Ctx) {
                                    const SpecNode *Locked = N.get("locked"), *Unlocked = N.get("unlocked");
                                    if (Locked && Unlocked && Locked->value() == Unlocked->value())
                                      Ctx.Diags.error(Locked->loc(), childPath(Path, "locked"),
                                                      "the locked and unlocked values must differ");
                                    const SpecNode *Size = N.get("size"), *Align = N.get("align");
                                    if (Size && Align && Size->asInt() && Align->asInt() &&
                                        *Align->asInt() < *Size->asInt() && *Size->asInt() <= 8)
                                      Ctx.Diags.error(Align->loc(), childPath(Path, "align"),
                                                      "a lock word must be at least naturally aligned (" +
                                                          Size->value() + " bytes)");
                                  }});

  SchemaRef NativeAtomic = recordType(
      "native atomic",
      {{"kind", enumType({"lock-prefix", "llsc", "cas", "amo", "llsc+amo", "ldcw", "c11"}), true},
       {"instructions", listType(stringType(), 1), true},
       {"source", sourceString(), true}},
      MergePolicy::Replace);

  SchemaRef Relax = recordType("cpu_relax",
                               [] {
                                 std::vector<FieldDecl> F = {{"asm", listType(asmString({}), 1)},
                                                             {"compiler_only", enumType({"true"})},
                                                             {"source", sourceString(), true}};
                                 return F;
                               }(),
                               MergePolicy::Replace, {exactlyOneOf({"asm", "compiler_only"})});

  SchemaRef Wait = recordType(
      "wait strategy",
      {{"strategy", enumType({"poll", "monitor-wfe", "zawrs"}), true},
       {"cmpwait", dictType("size to wait sequence", enumType({"1", "2", "4", "8"}),
                            listType(asmString(accessPlaceholders()), 1), MergePolicy::Replace)},
       {"source", sourceString(), true}},
      MergePolicy::Replace,
      {[](const SpecNode &N, const std::string &Path, ValidationContext &Ctx) {
        const SpecNode *Strategy = N.get("strategy");
        if (!Strategy)
          return;
        bool Poll = Strategy->value() == "poll";
        if (Poll && N.get("cmpwait"))
          Ctx.Diags.error(N.get("cmpwait")->keyLoc(), childPath(Path, "cmpwait"),
                          "a polling wait has no wait instruction sequence");
        if (!Poll && !N.get("cmpwait"))
          Ctx.Diags.error(N.keyLoc(), childPath(Path, "cmpwait"),
                          "missing required key (strategy '" + Strategy->value() +
                              "' waits with an instruction sequence)");
      }});

  // The read-modify-writes the generated locks are built from. Each is the C11
  // builtin with the ordering its name says unless an architecture gives the
  // instructions its own lock code uses (ppc lwarx with the EH hint, PA-RISC ldcw).
  SchemaRef AtomicOp =
      recordType("atomic op",
                 {{"c11", enumType({"true"})},
                  {"insn", dictType("size to instructions", enumType({"4", "8"}),
                                    listType(asmString(atomicPlaceholders()), 1), MergePolicy::Replace)},
                  {"source", sourceString(), true}},
                 MergePolicy::Replace, {exactlyOneOf({"c11", "insn"})});
  std::vector<FieldDecl> AtomicFields;
  for (const std::string &Op : atomicOps())
    AtomicFields.push_back({Op, AtomicOp, true});
  SchemaRef Atomics = recordType("atomics", std::move(AtomicFields), MergePolicy::KeyByKey);

  SchemaRef Unlock = recordType("unlock",
                                {{"before", innerFence()},
                                 {"store", enumType({"plain", "release"}), true},
                                 {"after", innerFence()},
                                 {"source", sourceString(), true}},
                                MergePolicy::Replace);

  SchemaRef AsmSyntax = recordType(
      "asm syntax",
      {{"value_modifier", dictType("size to operand modifier", enumType({"1", "2", "4", "8"}), stringType(),
                                   MergePolicy::Replace)},
       // The routine frame of the .S files: `.type sym, FUNCTION_TYPE`, the alignment
       // directive before each routine, and the instructions each routine starts with.
       {"function_type", stringType()},
       {"routine_align", stringType()},
       {"routine_entry", listType(stringType(), 1)},
       {"source", sourceString()}},
      MergePolicy::KeyByKey);

  return {
      {"description", stringType()},
      {"target", Target, true},
      {"toolchain", Toolchain},
      {"cache", Cache, true},
      {"lock_word", LockWord, true},
      {"rmw_fully_ordered", fact(boolType()), true},
      // Does an address dependency from a READ_ONCE() order a later access (every CPU but
      // Alpha), or must the load be an acquire (C11 without a usable consume)?
      {"dependency_ordering", fact(boolType()), true},
      // Are the toolchain's atomic read-modify-writes emulated (a load and a store under a
      // lock that plain stores do not take), so that a plain store racing with one is lost?
      {"rmw_emulated", fact(boolType()), true},
      {"native_atomic", NativeAtomic, true},
      {"default_lock", fact(enumType(defaultLockNames())), true},
      {"ticket_wait", fact(enumType({"word", "owner-half"})), true},
      // How the ticket lock takes a ticket: an RMW of the whole word, or of the 16-bit next
      // half alone, so that it never reads back the owner half the last unlock stored.
      {"ticket_take", fact(enumType({"word", "next-half"})), true},
      {"counter", fact(enumType({"atomic", "striped"})), true},
      {"atomics", Atomics, true},
      {"barriers", Barriers, true},
      {"cpu_relax", Relax, true},
      {"wait", Wait, true},
      {"unlock", Unlock, true},
      {"asm_syntax", AsmSyntax},
  };
}

} // namespace

SchemaRef archSpecSchema() {
  static SchemaRef Schema = [] {
    SchemaRef Overrides = recordType("cpu overrides", archBodyFields(), MergePolicy::KeyByKey);
    SchemaRef Cpu = recordType("cpu variant",
                               {{"description", stringType(), true}, {"overrides", Overrides, true}},
                               MergePolicy::KeyByKey);
    // inherits_cpu: the parent's CPU variant this spec refines (a `lockwright tune` overlay
    // measured on that CPU); its overrides apply before this file's.
    std::vector<FieldDecl> Fields = {{"name", specName(), true}, {"inherits", specName()}, {"inherits_cpu", specName()}};
    for (FieldDecl &F : archBodyFields())
      Fields.push_back(std::move(F));
    Fields.push_back({"cpus", dictType("cpu variants", nullptr, Cpu, MergePolicy::KeyByKey)});
    return recordType("architecture spec", std::move(Fields), MergePolicy::KeyByKey);
  }();
  return Schema;
}

SchemaRef apiSpecSchema() {
  static SchemaRef Schema = [] {
    SchemaRef Order = enumType({"relaxed", "consume", "acquire", "release", "acq_rel", "seq_cst", "full"});
    SchemaRef Entry = recordType("api name",
                                 {{"op", enumType(abstractOperations()), true},
                                  {"kind", enumType({"macro", "function", "type", "method", "template",
                                                     "attribute", "constant", "section"}),
                                   true},
                                  {"order", Order},
                                  {"order_arg", intType(0, 8)},
                                  {"hardware_rmw", boolType()},
                                  {"member", identifierType()},
                                  {"note", stringType()}},
                                 MergePolicy::Replace,
                                 {[](const SpecNode &N, const std::string &Path, ValidationContext &Ctx) {
                                   const SpecNode *Op = N.get("op");
                                   if (Op && Op->value() == "order_constant" && !N.get("order"))
                                     Ctx.Diags.error(N.keyLoc(), childPath(Path, "order"),
                                                     "missing required key (an order constant names an ordering)");
                                   static const std::set<std::string> LockOps = {
                                       "lock_acquire", "lock_try",      "lock_release",  "read_acquire",
                                       "read_release", "write_acquire", "write_release", "assert_held"};
                                   if (const SpecNode *Member = N.get("member"); Member && Op && !LockOps.count(Op->value()))
                                     Ctx.Diags.error(Member->loc(), childPath(Path, "member"),
                                                     "'member' names the lock a lock operation takes, releases or "
                                                     "asserts; op '" + Op->value() + "' is not one");
                                 }});
    return recordType("api spec",
                      {{"dialect", stringType(), true},
                       {"description", stringType(), true},
                       {"source", sourceString(), true},
                       {"languages", listType(enumType({"c", "c++"}), 1), true},
                       {"headers", listType(stringType())},
                       {"names", dictType("api names", nullptr, Entry, MergePolicy::KeyByKey), true}},
                      MergePolicy::KeyByKey);
  }();
  return Schema;
}

} // namespace lockwright
