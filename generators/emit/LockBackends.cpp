// The lock artifacts: P_cond_wait.h, P_spinlock.h, P_spinlock.hpp,
// P_lockhash.h, P_counter.h. Each backend turns spec facts (lock word, the
// atomics, the wait sequence, the unlock sequence) into template data; the
// algorithms themselves are written once, in arch-templates/common.
#include "emit/Backends.h"

#include "emit/AsmTemplate.h"
#include "spec/LockAlgorithms.h"
#include "spec/SpecTree.h"

#include <algorithm>

namespace lockwright {

namespace {

TemplateData flag(bool B) { return B ? TemplateData::type::bool_true : TemplateData::type::bool_false; }

/// The RMW sizes: the word, and the pointer where it is wider. A target of any
/// width (generic) gets both; the header picks by __SIZEOF_POINTER__.
std::vector<int> wordSizes(const ResolvedSpec &Spec) {
  std::vector<int> Sizes = {4};
  if (Spec.stringFact("target.bits") != "32")
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
TemplateData atomicHelpers(const ResolvedSpec &Spec) {
  bool HalfTicket = Spec.stringFact("ticket_take.value") == "next-half";
  const SpecNode &Atomics = *Spec.Tree.get("atomics");
  const SpecNode *Modifiers = Spec.Tree.at("asm_syntax.value_modifier");
  TemplateData List = TemplateData::type::list;
  for (const AtomicShape &Shape : AtomicShapes) {
    const SpecNode &Op = *Atomics.get(Shape.Op);
    std::vector<int> Sizes = wordSizes(Spec);
    if (HalfTicket && std::string(Shape.Op) == "fetch_add_acquire")
      Sizes.insert(Sizes.begin(), 2);
    for (int Size : Sizes) {
      std::string Type = uintType(Size);
      bool IsCmpxchg = std::string(Shape.Builtin) == "cmpxchg";
      std::string Params = "volatile void *__lw_p, " + std::string(IsCmpxchg ? Type + " __lw_old, " : "") + Type +
                           " __lw_new";
      std::string Cast = "(volatile " + Type + " *)__lw_p";
      std::string Body;
      const SpecNode *Insn = Op.at("insn." + std::to_string(Size));
      if (Insn) {
        std::vector<std::string> Lines = lines(*Insn);
        std::vector<AsmOperand> Operands = {{"val", true, "__lw_v"},   {"tmp", true, "__lw_t"},
                                            {"tmp2", true, "__lw_t2"}, {"addr", false, "__lw_p"},
                                            {"new", false, "__lw_new"}, {"old", false, "__lw_old"}};
        AsmBlock Asm = asmBlock(Lines, Modifiers, Size, Operands, {"cc"});
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
      H.set("source", Op.get("source")->value());
      List.push_back(H);
    }
  }
  return List;
}

/// The unlock store per size: the spec's fence before, a plain or release store, a fence after.
TemplateData unlockHelpers(const ResolvedSpec &Spec, const std::string &Prefix) {
  const SpecNode &Unlock = *Spec.Tree.get("unlock");
  const SpecNode &Barriers = *Spec.Tree.get("barriers");
  TemplateData List = TemplateData::type::list;
  for (int Size : {1, 2, 4}) {
    std::string Type = uintType(Size), Body;
    if (const SpecNode *Before = Unlock.get("before"))
      Body += "\t" + fenceStatement(*Before, Barriers) + ";\n";
    if (Unlock.get("store")->value() == "release")
      Body += "\t" + Prefix + "__store_release_" + std::to_string(Size) + "(__lw_p, __lw_v);";
    else
      Body += "\t*(volatile " + Type + " *)__lw_p = __lw_v;";
    if (const SpecNode *After = Unlock.get("after"))
      Body += "\n\t" + fenceStatement(*After, Barriers) + ";";
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

std::optional<std::vector<std::string>> fenceLines(const SpecNode &Fence, const SpecNode &Barriers) {
  if (const SpecNode *Alias = Fence.get("same_as"))
    return fenceLines(*Barriers.get(Alias->value()), Barriers);
  if (Fence.get("c11"))
    return std::nullopt;
  if (const SpecNode *Asm = Fence.get("asm"))
    return lines(*Asm);
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
  return Options.DefaultLock.empty() ? Spec.stringFact("default_lock.value") : Options.DefaultLock;
}

void fillLockCommon(const ResolvedSpec &Spec, const GenOptions &Options, TemplateData &Data) {
  Data.set("lock_align", std::to_string(Spec.intFact("lock_word.align")));
  Data.set("lock_locked", std::to_string(Spec.intFact("lock_word.locked")));
  Data.set("lock_unlocked", std::to_string(Spec.intFact("lock_word.unlocked")));
  Data.set("lock_word_source", Spec.stringFact("lock_word.source"));
  std::string Endian = Spec.stringFact("target.endian");
  Data.set("big_endian_expr", std::string(Endian == "any" ? "(__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)"
                                          : Endian == "big" ? "1" : "0"));
  Data.set("big_endian", flag(Endian == "big")); // the .S templates, which are per architecture
  Data.set("any_target", flag(Endian == "any" || Spec.stringFact("target.bits") == "any"));
  Data.set("has_8_byte_rmw", flag(Spec.stringFact("target.bits") != "32"));
  Data.set("rmw_emulated", flag(Spec.boolFact("rmw_emulated.value")));
  Data.set("rmw_emulated_source", Spec.stringFact("rmw_emulated.source"));
  Data.set("dependency_ordering", flag(Spec.boolFact("dependency_ordering.value")));
  Data.set("dependency_ordering_source", Spec.stringFact("dependency_ordering.source"));
  Data.set("ticket_take_half", flag(Spec.stringFact("ticket_take.value") == "next-half"));
  Data.set("ticket_take_source", Spec.stringFact("ticket_take.source"));
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
  Data.set("default_lock_source", Options.DefaultLock.empty() ? Spec.stringFact("default_lock.source")
                                                              : std::string("--default-lock"));
}

void fillCondWaitData(const ResolvedSpec &Spec, TemplateData &Data) {
  const SpecNode &Wait = *Spec.Tree.get("wait");
  const SpecNode *Modifiers = Spec.Tree.at("asm_syntax.value_modifier");
  Data.set("wait_strategy", Wait.get("strategy")->value());
  Data.set("wait_source", Wait.get("source")->value());
  TemplateData Sizes = TemplateData::type::list;
  if (const SpecNode *Seqs = Wait.get("cmpwait")) {
    for (const auto &[SizeKey, Seq] : Seqs->fields()) {
      int Size = std::stoi(SizeKey);
      // A narrow value goes in widened: the register's upper bits are otherwise unspecified (a
      // sign-extended int8_t, say), and the sequence compares the whole register with a
      // zero-extending exclusive load (Linux passes (unsigned long)val to __cmpwait).
      std::string Value = Size < 4 ? "(uint32_t)__lw_v" : "__lw_v";
      std::vector<AsmOperand> Operands = {{"tmp", true, "__lw_t"}, {"addr", false, "__lw_p"}, {"val", false, Value}};
      AsmBlock Asm = asmBlock(lines(Seq), Modifiers, Size, Operands, {"cc"});
      std::string Body = Asm.Decls + Asm.Statement + Asm.Uses;
      Body.pop_back(); // the template adds the final newline
      TemplateData S;
      S.set("size", std::to_string(Size));
      S.set("type", uintType(Size));
      S.set("body", Body);
      Sizes.push_back(S);
    }
  }
  Data.set("cmpwait_sizes", Sizes);
  Data.set("has_cmpwait", flag(Wait.get("cmpwait") != nullptr));
}

void fillSpinlockData(const ResolvedSpec &Spec, const GenOptions &Options, TemplateData &Data) {
  fillLockCommon(Spec, Options, Data);
  TemplateData Atomics = atomicHelpers(Spec);
  Data.set("atomics", Atomics);
  Data.set("unlock_stores", unlockHelpers(Spec, Options.Prefix));
  Data.set("unlock_source", Spec.stringFact("unlock.source"));
  Data.set("ticket_wait_half", flag(Spec.stringFact("ticket_wait.value") == "owner-half"));
  Data.set("ticket_wait_source", Spec.stringFact("ticket_wait.source"));

  for (const char *Op : {"tas_acquire", "xchg_acq_rel", "fetch_add_acquire", "cmpxchg_acquire", "cmpxchg_release"})
    Data.set(std::string(Op) + "_source", Spec.stringFact(std::string("atomics.") + Op + ".source"));
}

void fillLockhashData(const ResolvedSpec &Spec, const GenOptions &Options, TemplateData &Data) {
  fillLockCommon(Spec, Options, Data);
  Data.set("hash_size", std::to_string(Options.HashSize));
  bool L1 = Options.HashDivisor == "l1";
  Data.set("hash_divisor_macro", std::string(L1 ? "L1_CACHE_BYTES" : "SMP_CACHE_BYTES"));
  Data.set("hash_divisor_value", std::to_string(Spec.intFact(L1 ? "cache.l1_line.value" : "cache.smp_line.value")));
  Data.set("hash_padded", flag(Options.HashPadded));
}

void fillCounterData(const ResolvedSpec &Spec, const GenOptions &Options, TemplateData &Data) {
  std::string Strategy = Spec.stringFact("counter.value");
  Data.set("counter_striped", flag(Strategy == "striped"));
  Data.set("counter_strategy", Strategy);
  Data.set("counter_source", Spec.stringFact("counter.source"));
  Data.set("counter_stripes", std::to_string(Options.CounterStripes));
}

void fillSpinlockAsmData(const ResolvedSpec &Spec, const GenOptions &Options, TemplateData &Data,
                         DiagnosticList &Diags) {
  fillLockCommon(Spec, Options, Data);
  const SpecNode &Barriers = *Spec.Tree.get("barriers");
  auto Lines = [&](const SpecNode &Fence, const std::string &What) {
    std::optional<std::vector<std::string>> L = fenceLines(Fence, Barriers);
    if (!L) {
      Diags.error(Fence.loc(), What, "a C11 fence has no instruction for the out-of-line assembly");
      return TemplateData(TemplateData::type::list);
    }
    return lineList(*L);
  };
  Data.set("relax", Lines(*Spec.Tree.get("cpu_relax"), "cpu_relax"));
  Data.set("acquire_ctrl", Lines(*Barriers.get("acquire_after_ctrl_dep"), "barriers.acquire_after_ctrl_dep"));
  Data.set("after_atomic", Lines(*Barriers.get("after_atomic"), "barriers.after_atomic"));
  Data.set("before_atomic", Lines(*Barriers.get("before_atomic"), "barriers.before_atomic"));
  const SpecNode &Unlock = *Spec.Tree.get("unlock");
  const SpecNode &Release = *Barriers.get("release_store");
  bool StoreRelease = Unlock.get("store")->value() == "release";
  for (int Size : {2, 4}) {
    TemplateData U;
    std::vector<std::string> Pre;
    if (const SpecNode *Before = Unlock.get("before"))
      if (auto L = fenceLines(*Before, Barriers))
        Pre = *L;
    bool Ordered = StoreRelease && Release.at("insn." + std::to_string(Size));
    if (StoreRelease && !Ordered) {
      if (const SpecNode *Before = Release.get("before")) {
        std::optional<std::vector<std::string>> L = fenceLines(*Before, Barriers);
        if (!L)
          Diags.error(Before->loc(), "barriers.release_store.before",
                      "a C11 fence has no instruction for the out-of-line assembly");
        else
          Pre.insert(Pre.end(), L->begin(), L->end());
      }
    }
    U.set("pre", lineList(Pre));
    U.set("ordered", flag(Ordered));
    std::vector<std::string> Post;
    if (const SpecNode *After = Unlock.get("after"))
      if (auto L = fenceLines(*After, Barriers))
        Post = *L;
    U.set("post", lineList(Post));
    Data.set("unlock" + std::to_string(Size), U);
  }
  Data.set("owner_offset", std::string(Spec.stringFact("target.endian") == "big" ? "2" : "0"));
  Data.set("next_offset", std::string(Spec.stringFact("target.endian") == "big" ? "0" : "2"));
}

} // namespace lockwright
