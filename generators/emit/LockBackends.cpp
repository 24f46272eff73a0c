// The lock artifacts: P_cond_wait.h, P_spinlock.h, P_spinlock.hpp,
// P_lockhash.h, P_counter.h. Each backend turns spec facts (lock word, the
// atomics, the wait sequence, the unlock sequence) into template data; the
// algorithms themselves are written once, in arch-templates/common.
#include "emit/Backends.h"

#include "emit/AsmTemplate.h"
#include "spec/LockAlgorithms.h"

#include <algorithm>

namespace lockwright {

TemplateData flag(bool B) { return B ? TemplateData::type::bool_true : TemplateData::type::bool_false; }

namespace {

/// The RMW sizes: the word, and the pointer where it is wider. A target of any
/// width (generic) gets both; the header picks by __SIZEOF_POINTER__.
std::vector<int> wordSizes(const ArchModel &M) {
  std::vector<int> Sizes = {4};
  if (M.Target.Bits != "32")
    Sizes.push_back(8);
  return Sizes;
}

struct AtomicShape {
  const char *Op;
  const char *Order;     // __ATOMIC_* suffix of the C11 form
  const char *Builtin;   // exchange | fetch_add | cmpxchg
};

const AtomicShape AtomicShapes[] = {
    {"tas_acquire", "ACQUIRE", "exchange"},        {"xchg_acq_rel", "ACQ_REL", "exchange"},
    {"fetch_add_acquire", "ACQUIRE", "fetch_add"}, {"fetch_add_release", "RELEASE", "fetch_add"},
    {"cmpxchg_acquire", "ACQUIRE", "cmpxchg"},     {"cmpxchg_release", "RELEASE", "cmpxchg"},
};

/// One helper function per atomic op and word size, and a 16-bit fetch_add where the
/// ticket is taken on its half (C11 only; the loader checks).
TemplateData atomicHelpers(const ArchModel &M) {
  bool HalfTicket = M.TicketTake.Value == "next-half";
  TemplateData List = TemplateData::type::list;
  for (const AtomicShape &Shape : AtomicShapes) {
    const AtomicOp &Op = M.atomic(Shape.Op);
    std::vector<int> Sizes = wordSizes(M);
    if (HalfTicket && std::string(Shape.Op) == "fetch_add_acquire")
      Sizes.insert(Sizes.begin(), 2);
    for (int Size : Sizes) {
      std::string Type = uintType(Size);
      bool IsCmpxchg = std::string(Shape.Builtin) == "cmpxchg";
      std::string Params = "volatile void *__lw_p, " + std::string(IsCmpxchg ? Type + " __lw_old, " : "") + Type +
                           " __lw_new";
      std::string Cast = "(volatile " + Type + " *)__lw_p";
      std::string Body;
      auto Insn = Op.Insn.find(Size);
      if (Insn != Op.Insn.end()) {
        const std::vector<std::string> &Lines = Insn->second;
        std::vector<AsmOperand> Operands = {{"val", true, "__lw_v"},   {"tmp", true, "__lw_t"},
                                            {"tmp2", true, "__lw_t2"}, {"addr", false, "__lw_p"},
                                            {"new", false, "__lw_new"}, {"old", false, "__lw_old"}};
        AsmBlock Asm = asmBlock(Lines, M.ValueModifier, Size, Operands, {"cc"});
        Body = "\t" + Type + " __lw_v;\n" + Asm.Decls + Asm.Statement + Asm.Uses;
        if (IsCmpxchg && !usesPlaceholder(Lines, "old"))
          Body += "\t(void)__lw_old;\n";
        if (!usesPlaceholder(Lines, "new"))
          Body += "\t(void)__lw_new;\n";
        Body += "\treturn __lw_v;";
      } else if (IsCmpxchg) {
        Body = "\t__atomic_compare_exchange_n(" + Cast + ", &__lw_old, __lw_new, 0, __ATOMIC_" + Shape.Order +
               ", __ATOMIC_RELAXED);\n\treturn __lw_old;";
      } else {
        Body = "\treturn __atomic_" + std::string(Shape.Builtin) + (Shape.Builtin == std::string("exchange") ? "_n" : "") +
               "(" + Cast + ", __lw_new, __ATOMIC_" + Shape.Order + ");";
      }
      TemplateData H;
      H.set("op", std::string(Shape.Op));
      H.set("size", std::to_string(Size));
      H.set("type", Type);
      H.set("params", Params);
      H.set("body", Body);
      H.set("source", Op.Source);
      List.push_back(H);
    }
  }
  return List;
}

/// The unlock store per size: the spec's fence before, a plain or release store, a fence after.
TemplateData unlockHelpers(const ArchModel &M, const std::string &Prefix) {
  const ArchModel::UnlockSequence &Unlock = M.Unlock;
  TemplateData List = TemplateData::type::list;
  for (int Size : {1, 2, 4}) {
    std::string Type = uintType(Size), Body;
    if (Unlock.Before)
      Body += "\t" + fenceStatement(*Unlock.Before) + ";\n";
    if (Unlock.StoreRelease)
      Body += "\t" + Prefix + "__store_release_" + std::to_string(Size) + "(__lw_p, __lw_v);";
    else
      Body += "\t*(volatile " + Type + " *)__lw_p = __lw_v;";
    if (Unlock.After)
      Body += "\n\t" + fenceStatement(*Unlock.After) + ";";
    TemplateData H;
    H.set("size", std::to_string(Size));
    H.set("type", Type);
    H.set("body", Body);
    List.push_back(H);
  }
  return List;
}

TemplateData lineList(const std::vector<std::string> &Lines) {
  TemplateData List = TemplateData::type::list;
  for (const std::string &L : Lines)
    List.push_back(TemplateData(L));
  return List;
}

} // namespace

std::optional<std::vector<std::string>> fenceLines(const Fence &F) {
  switch (F.Kind) {
  case Fence::Form::C11:
    return std::nullopt;
  case Fence::Form::Asm:
    return F.Asm;
  case Fence::Form::CompilerOnly:
    break;
  }
  return std::vector<std::string>(); // compiler barrier: no instruction
}

const std::vector<std::string> &lockPieces() {
  static const std::vector<std::string> Pieces = [] {
    std::vector<std::string> Names;
    for (const LockAlgorithm &A : lockAlgorithms())
      Names.push_back(A.Name);
    Names.push_back("hash");
    Names.push_back("counter");
    return Names;
  }();
  return Pieces;
}

bool GenOptions::wantsLock(const std::string &Piece) const {
  return Locks.empty() || std::find(Locks.begin(), Locks.end(), Piece) != Locks.end();
}

std::string effectiveDefaultLock(const ResolvedSpec &Spec, const GenOptions &Options) {
  return Options.DefaultLock.empty() ? Spec.model().DefaultLock.Value : Options.DefaultLock;
}

void fillLockCommon(const ResolvedSpec &Spec, const GenOptions &Options, TemplateData &Data) {
  const ArchModel &M = Spec.model();
  Data.set("lock_align", std::to_string(M.LockWord.Align));
  Data.set("lock_locked", std::to_string(M.LockWord.Locked));
  Data.set("lock_unlocked", std::to_string(M.LockWord.Unlocked));
  Data.set("lock_word_source", M.LockWord.Source);
  const std::string &Endian = M.Target.Endian;
  Data.set("big_endian_expr", std::string(Endian == "any" ? "(__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)"
                                          : Endian == "big" ? "1" : "0"));
  Data.set("big_endian", flag(Endian == "big")); // the .S templates, which are per architecture
  Data.set("any_target", flag(Endian == "any" || M.Target.Bits == "any"));
  Data.set("has_8_byte_rmw", flag(M.Target.Bits != "32"));
  Data.set("rmw_emulated", flag(M.RmwEmulated.Value));
  Data.set("rmw_emulated_source", M.RmwEmulated.Source);
  Data.set("dependency_ordering", flag(M.DependencyOrdering.Value));
  Data.set("dependency_ordering_source", M.DependencyOrdering.Source);
  Data.set("ticket_take_half", flag(M.TicketTake.Value == "next-half"));
  Data.set("ticket_take_source", M.TicketTake.Source);
  for (const std::string &Piece : lockPieces())
    Data.set("has_" + Piece, flag(Options.wantsLock(Piece)));
  TemplateData AsmUnits = TemplateData::type::list;
  for (const LockAlgorithm &A : lockAlgorithms())
    if (A.HasAsmRoutines && Options.wantsLock(A.Name)) {
      TemplateData Unit;
      Unit.set("name", std::string(A.Name));
      AsmUnits.push_back(Unit);
    }
  Data.set("asm_units", AsmUnits); // the routines each .S defines, declared by spinlock_asm.h
  std::string Default = effectiveDefaultLock(Spec, Options);
  Data.set("default_lock", Default);
  // MCS as the default is the queued spinlock built on it (qspinlock's shape); the others
  // are the algorithm itself.
  Data.set("default_is_mcs", flag(Default == "mcs"));
  std::string Upper = Default;
  std::transform(Upper.begin(), Upper.end(), Upper.begin(), ::toupper);
  Data.set("DEFAULT_LOCK", Upper);
  Data.set("default_lock_source", Options.DefaultLock.empty() ? M.DefaultLock.Source
                                                              : std::string("--default-lock"));
}

void fillCondWaitData(const ResolvedSpec &Spec, TemplateData &Data) {
  const ArchModel &M = Spec.model();
  Data.set("wait_strategy", M.Wait.Strategy);
  Data.set("wait_source", M.Wait.Source);
  TemplateData Sizes = TemplateData::type::list;
  for (const auto &[Size, Seq] : M.Wait.CmpWait) {
    // A narrow value goes in widened: the register's upper bits are otherwise unspecified (a
    // sign-extended int8_t, say), and the sequence compares the whole register with a
    // zero-extending exclusive load (Linux passes (unsigned long)val to __cmpwait).
    std::string Value = Size < 4 ? "(uint32_t)__lw_v" : "__lw_v";
    std::vector<AsmOperand> Operands = {{"tmp", true, "__lw_t"}, {"addr", false, "__lw_p"}, {"val", false, Value}};
    AsmBlock Asm = asmBlock(Seq, M.ValueModifier, Size, Operands, {"cc"});
    std::string Body = Asm.Decls + Asm.Statement + Asm.Uses;
    Body.pop_back(); // the template adds the final newline
    TemplateData S;
    S.set("size", std::to_string(Size));
    S.set("type", uintType(Size));
    S.set("body", Body);
    Sizes.push_back(S);
  }
  Data.set("cmpwait_sizes", Sizes);
  Data.set("has_cmpwait", flag(!M.Wait.CmpWait.empty()));
}

void fillSpinlockData(const ResolvedSpec &Spec, const GenOptions &Options, TemplateData &Data) {
  fillLockCommon(Spec, Options, Data);
  const ArchModel &M = Spec.model();
  Data.set("atomics", atomicHelpers(M));
  Data.set("unlock_stores", unlockHelpers(M, Options.Prefix));
  Data.set("unlock_source", M.Unlock.Source);
  Data.set("ticket_wait_half", flag(M.TicketWait.Value == "owner-half"));
  Data.set("ticket_wait_source", M.TicketWait.Source);

  for (const char *Op : {"tas_acquire", "xchg_acq_rel", "fetch_add_acquire", "cmpxchg_acquire", "cmpxchg_release"})
    Data.set(std::string(Op) + "_source", M.atomic(Op).Source);
}

void fillLockhashData(const ResolvedSpec &Spec, const GenOptions &Options, TemplateData &Data) {
  fillLockCommon(Spec, Options, Data);
  Data.set("hash_size", std::to_string(Options.HashSize));
  bool L1 = Options.HashDivisor == "l1";
  Data.set("hash_divisor_macro", std::string(L1 ? "L1_CACHE_BYTES" : "SMP_CACHE_BYTES"));
  const ArchModel::CacheGeometry &Cache = Spec.model().Cache;
  Data.set("hash_divisor_value", std::to_string(L1 ? Cache.L1Line.Value : Cache.SmpLine.Value));
  Data.set("hash_padded", flag(Options.HashPadded));
}

void fillCounterData(const ResolvedSpec &Spec, const GenOptions &Options, TemplateData &Data) {
  const SourcedFact<std::string> &Counter = Spec.model().Counter;
  Data.set("counter_striped", flag(Counter.Value == "striped"));
  Data.set("counter_strategy", Counter.Value);
  Data.set("counter_source", Counter.Source);
  Data.set("counter_stripes", std::to_string(Options.CounterStripes));
}

void fillSpinlockAsmData(const ResolvedSpec &Spec, const GenOptions &Options, TemplateData &Data,
                         DiagnosticList &Diags) {
  fillLockCommon(Spec, Options, Data);
  const ArchModel &M = Spec.model();
  auto Lines = [&](const Fence &F, const std::string &What) {
    std::optional<std::vector<std::string>> L = fenceLines(F);
    if (!L) {
      Diags.error(F.Loc, What, "a C11 fence has no instruction for the out-of-line assembly");
      return TemplateData(TemplateData::type::list);
    }
    return lineList(*L);
  };
  Data.set("relax", Lines(M.CpuRelax, "cpu_relax"));
  Data.set("acquire_ctrl", Lines(M.barrier("acquire_after_ctrl_dep"), "barriers.acquire_after_ctrl_dep"));
  Data.set("after_atomic", Lines(M.barrier("after_atomic"), "barriers.after_atomic"));
  Data.set("before_atomic", Lines(M.barrier("before_atomic"), "barriers.before_atomic"));
  const ArchModel::UnlockSequence &Unlock = M.Unlock;
  for (int Size : {2, 4}) {
    TemplateData U;
    std::vector<std::string> Pre;
    if (Unlock.Before)
      if (auto L = fenceLines(*Unlock.Before))
        Pre = *L;
    bool Ordered = Unlock.StoreRelease && M.ReleaseStore.Insn.count(Size);
    if (Unlock.StoreRelease && !Ordered && M.ReleaseStore.PlainFence) {
      std::optional<std::vector<std::string>> L = fenceLines(*M.ReleaseStore.PlainFence);
      if (!L)
        Diags.error(M.ReleaseStore.PlainFence->Loc, "barriers.release_store.before",
                    "a C11 fence has no instruction for the out-of-line assembly");
      else
        Pre.insert(Pre.end(), L->begin(), L->end());
    }
    U.set("pre", lineList(Pre));
    U.set("ordered", flag(Ordered));
    std::vector<std::string> Post;
    if (Unlock.After)
      if (auto L = fenceLines(*Unlock.After))
        Post = *L;
    U.set("post", lineList(Post));
    Data.set("unlock" + std::to_string(Size), U);
  }
  // The routine frame (partials/asm_begin, asm_end): each routine's section names its symbol.
  if (!M.Asm.FunctionType)
    Diags.error({"lockwright"}, "asm_syntax.function_type",
                "spec '" + M.Arch + "' has a .S template but does not say how its assembler types a function");
  Data.set("asm_function_type", M.Asm.FunctionType.value_or(""));
  // Whole lines or nothing: a section in a partial leaves an empty line where it renders none.
  Data.set("asm_routine_align", M.Asm.RoutineAlign ? "\t" + *M.Asm.RoutineAlign + "\n" : std::string());
  std::string Entry; // the lines after the label, each on its own line
  for (const std::string &Line : M.Asm.RoutineEntry)
    Entry += "\n\t" + Line;
  Data.set("asm_routine_entry", Entry);
  for (const LockAlgorithm &A : lockAlgorithms())
    if (A.HasAsmRoutines)
      for (const char *Op : {"lock", "trylock", "unlock"}) {
        TemplateData Routine;
        Routine.set("symbol", Options.Prefix + "_asm_" + A.Name + "_" + Op);
        Data.set("asm_" + std::string(A.Name) + "_" + Op, Routine);
      }
  bool Big = M.Target.Endian == "big";
  Data.set("owner_offset", std::string(Big ? "2" : "0"));
  Data.set("next_offset", std::string(Big ? "0" : "2"));
}

} // namespace lockwright
