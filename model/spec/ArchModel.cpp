#include "spec/ArchModel.h"

#include "spec/Schema.h"
#include "spec/SpecTree.h"

#include <cstdio>
#include <cstdlib>

namespace lockwright {

namespace {

/// Reads typed facts out of the resolved tree. A fact the model needs and the tree lacks (or
/// holds as another type) is a located error at the node or its nearest ancestor, naming the
/// key path: the schema should have refused such a spec, so this is a bug in the schema or
/// the model, and it must not pass as a silent 0, "" or false.
class FactReader {
public:
  FactReader(const SpecNode &Tree, std::string Of, DiagnosticList &Diags) : Tree(Tree), Of(std::move(Of)), Diags(Diags) {}

  const SpecNode *node(const std::string &Path, const char *Wanted) {
    const SpecNode *N = Tree.at(Path);
    if (!N)
      fail(Path, nullptr, Wanted);
    return N;
  }
  int64_t integer(const std::string &Path) {
    const SpecNode *N = node(Path, "an integer");
    if (N && !N->asInt())
      fail(Path, N, "an integer");
    return N && N->asInt() ? *N->asInt() : 0;
  }
  std::string string(const std::string &Path) {
    const SpecNode *N = node(Path, "a string");
    if (N && !N->isScalar())
      fail(Path, N, "a string");
    return N && N->isScalar() ? N->value() : std::string();
  }
  bool boolean(const std::string &Path) {
    const SpecNode *N = node(Path, "a boolean");
    if (N && !N->asBool())
      fail(Path, N, "a boolean");
    return N && N->asBool() ? *N->asBool() : false;
  }
  std::optional<std::string> optionalString(const std::string &Path) {
    const SpecNode *N = Tree.at(Path);
    if (!N)
      return std::nullopt;
    if (!N->isScalar()) {
      fail(Path, N, "a string");
      return std::nullopt;
    }
    return N->value();
  }
  std::vector<std::string> lines(const SpecNode &List, const std::string &Path) {
    std::vector<std::string> Out;
    if (List.isScalar())
      Out.push_back(List.value());
    else if (List.isSequence())
      for (const SpecNode &Item : List.items())
        Out.push_back(Item.value());
    else
      fail(Path, &List, "a list of instructions");
    return Out;
  }
  template <class T> SourcedFact<T> sourced(const std::string &Key, T (FactReader::*Read)(const std::string &)) {
    return {(this->*Read)(Key + ".value"), string(Key + ".source")};
  }

private:
  void fail(const std::string &Path, const SpecNode *Found, const char *Wanted) {
    const SpecNode *Near = Found;
    for (std::string Prefix = Path; !Near;) {
      size_t Dot = Prefix.rfind('.');
      if (Dot == std::string::npos)
        break;
      Prefix.resize(Dot);
      Near = Tree.at(Prefix);
    }
    Diags.error(Near ? Near->loc() : Tree.loc(), Path,
                Found ? Of + " holds this fact, but not as " + Wanted + ", which lockwright reads it as"
                      : Of + " has no such fact, which lockwright needs (" + Wanted + ")");
  }

  const SpecNode &Tree;
  std::string Of;
  DiagnosticList &Diags;
};

/// One fence node (a barrier kind or a fence inside another fact), following `same_as`
/// through Barriers; checkResolvedArch has refused cycles already, and the depth bound keeps a
/// tree that skipped it from looping.
Fence buildFence(FactReader &R, const SpecNode &Node, const std::string &Path, const SpecNode &Barriers) {
  Fence F;
  F.Loc = Node.loc();
  if (const SpecNode *Source = Node.get("source"))
    F.Source = Source->value();
  const SpecNode *Impl = &Node;
  std::string ImplPath = Path;
  for (int Depth = 0; const SpecNode *Alias = Impl->get("same_as"); ++Depth) {
    F.AliasOf = Alias->value();
    ImplPath = "barriers." + F.AliasOf;
    Impl = Barriers.get(F.AliasOf);
    if (!Impl || Depth > 16) {
      R.node(ImplPath, "a barrier an alias names");
      return F;
    }
  }
  if (const SpecNode *Asm = Impl->get("asm")) {
    F.Kind = Fence::Form::Asm;
    F.Asm = R.lines(*Asm, ImplPath + ".asm");
    if (const SpecNode *Clobbers = Impl->get("clobbers"))
      F.Clobbers = R.lines(*Clobbers, ImplPath + ".clobbers");
  } else if (const SpecNode *Order = Impl->get("c11")) {
    F.Kind = Fence::Form::C11;
    F.C11Order = Order->value();
  } else if (Impl->get("compiler_only")) {
    F.Kind = Fence::Form::CompilerOnly;
  } else {
    R.node(ImplPath + ".asm", "an implementation: asm, compiler_only, c11 or same_as");
  }
  if (const SpecNode *Orders = Impl->get("orders"))
    F.Orders = R.lines(*Orders, ImplPath + ".orders");
  return F;
}

OrderedAccess buildAccess(FactReader &R, const std::string &Path, const char *FenceKey, const SpecNode &Barriers) {
  OrderedAccess A;
  const SpecNode *Node = R.node(Path, "an ordered access");
  if (!Node)
    return A;
  if (const SpecNode *Insn = Node->get("insn"))
    for (const auto &[Size, Line] : Insn->fields())
      A.Insn[std::stoi(Size)] = Line.value();
  if (const SpecNode *F = Node->get(FenceKey))
    A.PlainFence = buildFence(R, *F, Path + "." + FenceKey, Barriers);
  A.C11 = Node->get("c11") != nullptr;
  if (const SpecNode *Orders = R.node(Path + ".orders", "a list of orderings"))
    A.Orders = R.lines(*Orders, Path + ".orders");
  A.Source = R.string(Path + ".source");
  return A;
}

std::map<int, std::vector<std::string>> sizedLines(FactReader &R, const SpecNode *BySize, const std::string &Path) {
  std::map<int, std::vector<std::string>> Out;
  if (BySize)
    for (const auto &[Size, Lines] : BySize->fields())
      Out[std::stoi(Size)] = R.lines(Lines, Path + "." + Size);
  return Out;
}

} // namespace

namespace {

/// Every kind fenceKinds() lists and every op atomicOps() lists is in the model; asking for
/// another is a bug in the caller.
template <class T> const T &knownEntry(const std::map<std::string, T> &Map, const std::string &Key, const char *What) {
  auto It = Map.find(Key);
  if (It == Map.end()) {
    std::fprintf(stderr, "lockwright: internal error: no %s '%s'\n", What, Key.c_str());
    std::abort();
  }
  return It->second;
}

} // namespace

const Fence &ArchModel::barrier(const std::string &Kind) const { return knownEntry(Barriers, Kind, "barrier kind"); }

const AtomicOp &ArchModel::atomic(const std::string &Op) const { return knownEntry(Atomics, Op, "atomic op"); }

namespace {

std::string describeFence(const Fence &F) {
  switch (F.Kind) {
  case Fence::Form::CompilerOnly:
    return "a compiler barrier";
  case Fence::Form::C11:
    return "a C11 " + F.C11Order + " fence";
  case Fence::Form::Asm:
    break;
  }
  std::string Out;
  for (const std::string &Line : F.Asm)
    Out += (Out.empty() ? "" : "; ") + Line;
  return Out;
}

/// An ordered access as its word-sized form: the instruction, or the plain access and its fence.
std::string describeAccess(const OrderedAccess &A, bool IsLoad) {
  for (int Size : {4, 8})
    if (auto It = A.Insn.find(Size); It != A.Insn.end())
      return It->second;
  if (A.PlainFence)
    return IsLoad ? "a plain load, then " + describeFence(*A.PlainFence)
                  : describeFence(*A.PlainFence) + ", then a plain store";
  return IsLoad ? "the C11 acquire load" : "the C11 release store";
}

} // namespace

std::optional<ArchModel::BarrierEffect> ArchModel::barrierEffect(const std::string &Op) const {
  if (auto It = Barriers.find(Op); It != Barriers.end())
    return BarrierEffect{It->second.Orders, describeFence(It->second)};
  if (Op == "acquire_load")
    return BarrierEffect{AcquireLoad.Orders, describeAccess(AcquireLoad, true)};
  if (Op == "release_store")
    return BarrierEffect{ReleaseStore.Orders, describeAccess(ReleaseStore, false)};
  return std::nullopt;
}

std::optional<ArchModel> buildArchModel(const SpecNode &Tree, const std::string &Arch, const std::string &Cpu,
                                        DiagnosticList &Diags) {
  unsigned ErrorsBefore = Diags.errorCount();
  FactReader R(Tree, "spec '" + Arch + "'" + (Cpu.empty() ? "" : " (cpu " + Cpu + ")"), Diags);
  ArchModel M;
  M.Arch = Arch;
  M.Cpu = Cpu;

  M.Target.Bits = R.string("target.bits");
  M.Target.Endian = R.string("target.endian");
  M.Target.Check = R.optionalString("target.check");

  M.Cache.L1Line = R.sourced<int64_t>("cache.l1_line", &FactReader::integer);
  M.Cache.SmpLine = R.sourced<int64_t>("cache.smp_line", &FactReader::integer);
  M.Cache.Destructive = R.sourced<int64_t>("cache.destructive", &FactReader::integer);
  M.Cache.Constructive = R.sourced<int64_t>("cache.constructive", &FactReader::integer);

  M.LockWord.Size = R.integer("lock_word.size");
  M.LockWord.Align = R.integer("lock_word.align");
  M.LockWord.Locked = R.integer("lock_word.locked");
  M.LockWord.Unlocked = R.integer("lock_word.unlocked");
  M.LockWord.Source = R.string("lock_word.source");

  static const SpecNode NoBarriers = SpecNode::map();
  const SpecNode *Barriers = R.node("barriers", "the barrier kinds");
  const SpecNode &B = Barriers ? *Barriers : NoBarriers;
  for (const std::string &Kind : fenceKinds())
    if (const SpecNode *Node = R.node("barriers." + Kind, "a barrier kind"))
      M.Barriers.emplace(Kind, buildFence(R, *Node, "barriers." + Kind, B));
  M.AcquireLoad = buildAccess(R, "barriers.acquire_load", "after", B);
  M.ReleaseStore = buildAccess(R, "barriers.release_store", "before", B);
  if (const SpecNode *Relax = R.node("cpu_relax", "the cpu_relax sequence"))
    M.CpuRelax = buildFence(R, *Relax, "cpu_relax", B);

  for (const std::string &Op : atomicOps()) {
    std::string Path = "atomics." + Op;
    const SpecNode *Node = R.node(Path, "an atomic op");
    if (!Node)
      continue;
    AtomicOp A;
    A.C11 = Node->get("c11") != nullptr;
    A.Insn = sizedLines(R, Node->get("insn"), Path + ".insn");
    A.Source = R.string(Path + ".source");
    M.Atomics.emplace(Op, std::move(A));
  }

  if (const SpecNode *Unlock = R.node("unlock", "the unlock sequence")) {
    if (const SpecNode *Before = Unlock->get("before"))
      M.Unlock.Before = buildFence(R, *Before, "unlock.before", B);
    if (const SpecNode *After = Unlock->get("after"))
      M.Unlock.After = buildFence(R, *After, "unlock.after", B);
    M.Unlock.StoreRelease = R.string("unlock.store") == "release";
    M.Unlock.Source = R.string("unlock.source");
  }

  M.Wait.Strategy = R.string("wait.strategy");
  M.Wait.CmpWait = sizedLines(R, Tree.at("wait.cmpwait"), "wait.cmpwait");
  M.Wait.Source = R.string("wait.source");

  M.DefaultLock = R.sourced<std::string>("default_lock", &FactReader::string);
  M.Counter = R.sourced<std::string>("counter", &FactReader::string);
  M.TicketWait = R.sourced<std::string>("ticket_wait", &FactReader::string);
  M.TicketTake = R.sourced<std::string>("ticket_take", &FactReader::string);
  M.RmwEmulated = R.sourced<bool>("rmw_emulated", &FactReader::boolean);
  M.DependencyOrdering = R.sourced<bool>("dependency_ordering", &FactReader::boolean);
  M.RmwFullyOrdered = R.sourced<bool>("rmw_fully_ordered", &FactReader::boolean);

  if (const SpecNode *Modifiers = Tree.at("asm_syntax.value_modifier"))
    for (const auto &[Size, Modifier] : Modifiers->fields())
      M.ValueModifier[std::stoi(Size)] = Modifier.value();

  M.Asm.FunctionType = R.optionalString("asm_syntax.function_type");
  M.Asm.RoutineAlign = R.optionalString("asm_syntax.routine_align");
  if (const SpecNode *Entry = Tree.at("asm_syntax.routine_entry"))
    M.Asm.RoutineEntry = R.lines(*Entry, "asm_syntax.routine_entry");
  M.Asm.Source = R.optionalString("asm_syntax.source").value_or("");

  M.Toolchain.Gcc = R.optionalString("toolchain.gcc");
  M.Toolchain.ClangTarget = R.optionalString("toolchain.clang_target");
  M.Toolchain.Qemu = R.optionalString("toolchain.qemu");
  M.Toolchain.Sysroot = R.optionalString("toolchain.sysroot");
  if (const SpecNode *Flags = Tree.at("toolchain.cflags"))
    M.Toolchain.CFlags = R.lines(*Flags, "toolchain.cflags");
  if (const SpecNode *Native = Tree.at("toolchain.native"))
    M.Toolchain.Native = Native->asBool().value_or(false);
  M.Toolchain.LayoutProxyTarget = R.optionalString("toolchain.layout_proxy.target");
  M.Toolchain.LayoutProxySource = R.optionalString("toolchain.layout_proxy.source");

  if (Diags.errorCount() != ErrorsBefore)
    return std::nullopt;
  return M;
}

} // namespace lockwright
