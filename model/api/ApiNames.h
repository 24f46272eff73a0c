// What the names of every API dialect mean, read from specs/api: which types
// are locks or atomics, which calls and macros access an object atomically or
// use it as a lock, which orderings they carry and which names spell an ordering.
// The checker recognises code through this table only; no lock, atomic or
// ordering name is written in C++.
#ifndef LOCKWRIGHT_MODEL_API_APINAMES_H
#define LOCKWRIGHT_MODEL_API_APINAMES_H

#include "Glob.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace lockwright {

struct ApiSpec;

class ApiNames {
public:
  /// What a type name stands for.
  enum class TypeRole { Lock, Atomic };
  /// What a call or macro does to the object its first argument designates.
  enum class Access { AtomicRead, AtomicWrite, LockUse, TasWord };
  /// What a constant or macro names.
  enum class Constant { DestructiveSize, CacheLineSize };
  /// What placing code or data in a section says (`kind: section`): code that runs only at boot
  /// or unload, or a variable with one copy per CPU.
  enum class Section { Init, PerCpu };
  /// An ordering, as the spec's `order:` says it ("full": a fully ordered kernel RMW).
  enum class MemoryOrder { Relaxed, Consume, Acquire, Release, AcqRel, SeqCst, Full };
  /// What a call, macro or method does, as its spec entry says: the abstract `op:`
  /// ("write", "atomic_store", "publish", ...), its fixed `order:` or the index of the
  /// argument that spells it (`order_arg:`), and the dialect defining it.
  struct Operation {
    std::string Op;
    std::optional<MemoryOrder> Order;
    int OrderArg = -1;
    std::string Dialect;
    /// An RMW written as the architecture's instruction in asm with a memory clobber (ck's
    /// ck_pr_fas/cas/faa): it orders as the instruction does, fully where the arch spec says
    /// RMWs are fully ordered, whatever its portable order.
    bool HardwareRmw = false;
    /// Named as a function or template (`kind: function`), not a macro: a definition of that
    /// name is the primitive's own body.
    bool Callable = false;
    /// The lock is this member of the record the first argument points to, not the argument
    /// itself (`lock_sock(sk)` owns `sk->sk_lock`); empty for the argument itself.
    std::string Member;
  };

  /// The spec's spelling of an order ("acquire", "seq_cst", "full"), for messages and fix-its.
  static const char *orderName(MemoryOrder Order);
  /// Whether an operation marks the object it works on as contended, a word threads fight
  /// over: an RMW, a test-and-set, an acquire or release access, a poll. A ONCE access, a
  /// relaxed load or store and a pointer's publication (rcu_assign_pointer) only keep a word
  /// whole for lockless readers, which is how list and tree links are written. On a link
  /// (OnPointer), a release store or acquire load publishes or subscribes to what it points
  /// to (list_del_init_careful's smp_store_release on a list link): only an RMW or a poll
  /// contends for it.
  static bool contends(const Operation &Op, bool OnPointer = false);
  /// Whether an operation takes a lock (plain, try, read or write side), or releases one.
  static bool acquiresLock(const Operation &Op);
  static bool releasesLock(const Operation &Op);

  ApiNames() = default;
  /// Builds the table from loaded API specs; ExtraLocks/ExtraAtomics are user
  /// type names (options), as exact names or with '*' globs.
  static ApiNames fromSpecs(const std::vector<ApiSpec> &Specs, const std::vector<std::string> &ExtraLocks = {},
                            const std::vector<std::string> &ExtraAtomics = {});

  /// What an operation does to the object it works on, by its `op:` (a lock_acquire is a LockUse).
  static std::optional<Access> accessOf(const Operation &Op);

  std::optional<TypeRole> typeRole(const std::string &QualifiedName) const;
  std::optional<Access> access(const std::string &CalleeOrMacro) const;
  /// For C++ methods: the class (qualified, template name for specialisations) and the method.
  std::optional<Access> methodAccess(const std::string &ClassName, const std::string &Method) const;
  std::optional<Constant> constant(const std::string &Name) const;
  /// What a section name (".init.text", ".data..percpu") says of what is placed in it.
  std::optional<Section> section(const std::string &Name) const;
  /// The dialect naming Function a configuration entry point (`op: configure`: a setsockopt or
  /// sysctl handler), which runs when a setting changes; none for other functions.
  std::optional<std::string> configurationEntry(const std::string &Function) const;
  /// The dialect naming Function a registration entry point (`op: register`: a thread taking or
  /// giving back a record, `ck_epoch_recycle`), which runs once per participant; none for others.
  std::optional<std::string> registrationEntry(const std::string &Function) const;
  /// The ordering an order argument's name spells (memory_order_acquire, __ATOMIC_ACQUIRE,
  /// std::memory_order::acquire, CMM_ACQUIRE, rte_memory_order_acquire).
  std::optional<MemoryOrder> orderConstant(const std::string &Name) const;
  /// The fixed ordering of a call or macro (`order:` in its spec), when it has one.
  std::optional<MemoryOrder> fixedOrder(const std::string &CalleeOrMacro) const;
  /// The operation a call or macro performs, for the ordering model: every name with an
  /// `op:` other than a type, constant or attribute.
  const Operation *operation(const std::string &CalleeOrMacro) const;
  /// The same for a method of a class (qualified, template name for specialisations).
  const Operation *methodOperation(const std::string &ClassName, const std::string &Method) const;
  /// The first name Dialect gives Op in its spec ("smp_mb__after_atomic" for kernel's
  /// after_atomic), for fix-its that spell an operation in the code's own dialect.
  std::optional<std::string> nameFor(const std::string &Dialect, const std::string &Op) const;
  /// The same, spelled as the code's own name Like (an operation LikeOp of that dialect) is:
  /// lockwright's generated names carry the prefix Like was generated with (`lw_store_release`
  /// for code that wrote `lw_write_once`). None when the dialect has no name for Op, or
  /// Like's prefix cannot be told.
  std::optional<std::string> nameFor(const std::string &Dialect, const std::string &Op, const std::string &Like,
                                     const std::string &LikeOp) const;
  /// Each dialect's first name for Op, in spec order, where it is a name and not a pattern
  /// (READ_ONCE, CMM_LOAD_SHARED for read_once), for fix-its that use what a TU defines.
  std::vector<std::string> namesOf(const std::string &Op) const;
  /// Whether `_Atomic` (the C11 qualifier) is listed as an atomic type.
  bool atomicQualifier() const { return AtomicQualifier; }
  /// The dialect that defines Name, for messages ("kernel", "c11", ...).
  std::string dialectOf(const std::string &Name) const;

private:
  template <class T> struct Table {
    std::unordered_map<std::string, T> Exact;
    std::vector<std::pair<Glob, T>> Patterns; // '*' and {prefix}/{PREFIX} globs
    // Indices into Patterns by the first AnchorSize characters of the pattern's literal head
    // (all of it when shorter), else the last of its literal tail, else in Unanchored: a name
    // is tried only against the patterns whose anchor it starts or ends with.
    static constexpr size_t AnchorSize = 4;
    static uint64_t anchorKey(std::string_view Anchor); // its size and characters, packed
    std::unordered_map<uint64_t, std::vector<size_t>> ByHead, ByTail;
    std::vector<size_t> Unanchored;
    // Every function-like macro expansion asks: most names miss, and repeat.
    mutable std::unordered_map<std::string, std::optional<T>> PatternAnswers;
    std::optional<T> find(const std::string &Name) const;
    const T *findPtr(const std::string &Name) const; // into the table or its answer cache
    void add(const std::string &Name, T Value);
  };
  Table<TypeRole> Types;
  Table<Access> Accesses;
  Table<Constant> Constants;
  Table<Section> Sections;
  Table<std::string> ConfigurationEntries; // name -> dialect
  Table<std::string> RegistrationEntries;  // name -> dialect
  Table<MemoryOrder> OrderConstants, FixedOrders;
  Table<Operation> Operations;
  std::vector<std::pair<std::string, std::string>> FirstNameOfOp; // "dialect op" -> name, spec order
  std::unordered_map<std::string, size_t> FirstNameIndex;           // "dialect op" -> its place there
  std::unordered_map<std::string, std::string> Dialect;
  bool AtomicQualifier = false;
};

} // namespace lockwright

#endif
