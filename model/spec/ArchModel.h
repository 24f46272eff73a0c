// The typed model of one architecture, built once by the loader from the resolved
// spec: inheritance, the CPU variant and every `same_as` alias already applied.
// The generator's backends, the checker's target facts, `lockwright layout` and
// the target parsing read this, never dotted paths into the YAML tree (the tree
// stays for `spec show` and the hash). A fact the schema requires and the tree
// lacks is a located error while the model is built, naming the key path.
#ifndef LOCKWRIGHT_MODEL_SPEC_ARCHMODEL_H
#define LOCKWRIGHT_MODEL_SPEC_ARCHMODEL_H

#include "spec/Diagnostics.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lockwright {

class SpecNode;

/// A scalar fact with the citation the spec gives for it.
template <class T> struct SourcedFact {
  T Value{};
  std::string Source;
};

/// How the source of a fact `lockwright tune` measured begins (what the checker's notes key on).
inline constexpr char MeasuredSourcePrefix[] = "measured by lockwright tune";

/// How a fence is implemented, after alias resolution.
struct Fence {
  enum class Form { Asm, CompilerOnly, C11 };
  Form Kind = Form::CompilerOnly;
  std::vector<std::string> Asm;      // Form::Asm: the instruction lines
  std::vector<std::string> Clobbers; // Form::Asm: beyond "memory"
  std::string C11Order;              // Form::C11: seq_cst, acquire, release, acq_rel
  /// The barrier kind an alias (`same_as`) led to, "" when the fence is written out.
  std::string AliasOf;
  /// What it orders ("load-load", ...), the alias target's for an alias; empty for a
  /// fence inside another fact (after a plain load, around an unlock).
  std::vector<std::string> Orders;
  std::string Source; // the fence's own citation (an alias keeps its own)
  SourceLoc Loc;
};

/// An acquire load or a release store: an instruction per size, a plain access plus a
/// fence for the others, or the C11 builtin.
struct OrderedAccess {
  std::map<int, std::string> Insn; // size in bytes -> instruction
  /// The fence beside a plain access for the sizes without an instruction: `after` an
  /// acquire load, `before` a release store.
  std::optional<Fence> PlainFence;
  bool C11 = false;
  std::vector<std::string> Orders;
  std::string Source;
};

/// A read-modify-write the locks are built from: the C11 builtin or the architecture's code.
struct AtomicOp {
  bool C11 = false;
  std::map<int, std::vector<std::string>> Insn; // 4, 8 -> instruction lines
  std::string Source;
};

struct ArchModel {
  std::string Arch, Cpu;

  struct TargetInfo {
    std::string Bits;   // "32", "64" or "any" (generic reads it from the compiler)
    std::string Endian; // "little", "big" or "any"
    std::optional<std::string> Check; // the preprocessor test the barrier header enforces
  } Target;

  struct CacheGeometry {
    SourcedFact<int64_t> L1Line, SmpLine, Destructive, Constructive;
  } Cache;

  struct LockWordInfo {
    int64_t Size = 4, Align = 4, Locked = 1, Unlocked = 0;
    std::string Source;
  } LockWord;

  /// The barrier kinds (fenceKinds(): full, read, write, ...), aliases resolved.
  std::map<std::string, Fence> Barriers;
  OrderedAccess AcquireLoad, ReleaseStore;
  Fence CpuRelax;

  /// atomicOps(): tas_acquire, xchg_acq_rel, fetch_add_acquire, ...
  std::map<std::string, AtomicOp> Atomics;

  struct UnlockSequence {
    std::optional<Fence> Before, After;
    bool StoreRelease = false;
    std::string Source;
  } Unlock;

  struct WaitInfo {
    std::string Strategy; // poll, monitor-wfe, zawrs
    std::map<int, std::vector<std::string>> CmpWait;
    std::string Source;
  } Wait;

  SourcedFact<std::string> DefaultLock, Counter, TicketWait, TicketTake;
  SourcedFact<bool> RmwEmulated, DependencyOrdering, RmwFullyOrdered;

  /// asm_syntax.value_modifier: operand size -> modifier ("w", "x"); empty when none.
  std::map<int, std::string> ValueModifier;

  /// The frame of a .S routine (asm_syntax): what `.type sym, X` takes (@function,
  /// %function), the alignment directive before each routine, the instructions each starts
  /// with (endbr64, bti c). Absent where the architecture has no .S routines.
  struct AsmFrame {
    std::optional<std::string> FunctionType, RoutineAlign;
    std::vector<std::string> RoutineEntry;
    std::string Source;
  } Asm;

  /// How to build and parse for the architecture; every field may be absent.
  struct ToolchainInfo {
    std::optional<std::string> Gcc, ClangTarget, Qemu, Sysroot;
    std::vector<std::string> CFlags;
    bool Native = false;
    std::optional<std::string> LayoutProxyTarget, LayoutProxySource;
  } Toolchain;

  const Fence &barrier(const std::string &Kind) const;

  /// What a barrier-like operation (a barrier kind, "acquire_load" or "release_store") does on
  /// this architecture: the ordering pairs it gives and how it is implemented, for the checks'
  /// per-architecture verdicts and notes ("smp_rmb() is a compiler barrier on x86_64 but
  /// dmb ishld on aarch64"). Null for an operation that is not one of those.
  struct BarrierEffect {
    std::vector<std::string> Orders;
    std::string Implementation; // "dmb ishld", "a compiler barrier", "a C11 acquire fence", "ldar"
  };
  std::optional<BarrierEffect> barrierEffect(const std::string &Op) const;
  const AtomicOp &atomic(const std::string &Op) const;
};

/// Builds the model from a resolved tree; a missing or mistyped required fact is a located
/// error in Diags (nullopt then).
std::optional<ArchModel> buildArchModel(const SpecNode &Tree, const std::string &Arch, const std::string &Cpu,
                                        DiagnosticList &Diags);

} // namespace lockwright

#endif
