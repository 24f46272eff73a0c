// P_barrier.h: mb/rmb/wmb, acquire loads, release stores, the control-
// dependency upgrade, mb before/after atomics, cpu_relax, read/write_once.
#include "emit/Backends.h"

#include "emit/AsmTemplate.h"

#include "spec/Schema.h"
#include "spec/SpecTree.h"

#include <algorithm>
#include <map>

namespace lockwright {

namespace {

struct AccessBodies {
  std::vector<int> Sizes;
  std::map<int, std::string> Body;
};

/// Per-size helper bodies for an ordered access.
/// IsLoad: acquire load (fence after); otherwise release store (fence before).
AccessBodies accessBodies(const SpecNode &Access, const SpecNode &Barriers, const SpecNode *Modifiers,
                          bool Has64BitAccess, bool IsLoad) {
  AccessBodies Out;
  const SpecNode *Insn = Access.get("insn");
  const SpecNode *Fence = Access.get(IsLoad ? "after" : "before");
  const SpecNode *C11 = Access.get("c11");
  const std::string T = "__lw_v";
  for (int Size : {1, 2, 4, 8}) {
    const SpecNode *SizeInsn = Insn ? Insn->get(std::to_string(Size)) : nullptr;
    bool PlainAccessAtomic = Size < 8 || Has64BitAccess;
    std::string Type = uintType(Size);
    std::string Body;
    if (SizeInsn) {
      std::vector<AsmOperand> Operands = {{"val", IsLoad, T}, {"addr", false, "__lw_p"}, {"tmp", true, "__lw_t"}};
      AsmBlock Asm = asmBlock({SizeInsn->value()}, Modifiers, Size, Operands, {});
      if (IsLoad)
        Body = "\t" + Type + " " + T + ";\n" + Asm.Decls + Asm.Statement + Asm.Uses + "\treturn " + T + ";";
      else
        Body = Asm.Decls + Asm.Statement + Asm.Uses;
      Body.erase(Body.find_last_not_of('\n') + 1);
    } else if (Fence && PlainAccessAtomic) {
      std::string Stmt = fenceStatement(*Fence, Barriers);
      if (IsLoad)
        Body = "\t" + Type + " " + T + " = *(const volatile " + Type + " *)__lw_p;\n\t" + Stmt + ";\n\treturn " + T + ";";
      else
        Body = "\t" + Stmt + ";\n\t*(volatile " + Type + " *)__lw_p = " + T + ";";
    } else if (C11) { // the builtins are atomic at every size (through libatomic where they must)
      if (IsLoad)
        Body = "\treturn __atomic_load_n((const volatile " + Type + " *)__lw_p, __ATOMIC_ACQUIRE);";
      else
        Body = "\t__atomic_store_n((volatile " + Type + " *)__lw_p, " + T + ", __ATOMIC_RELEASE);";
    } else {
      continue; // this size has no single-copy-atomic ordered access here
    }
    Out.Sizes.push_back(Size);
    Out.Body[Size] = Body;
  }
  return Out;
}

TemplateData accessData(const SpecNode &Access, const SpecNode &Barriers, const SpecNode *Modifiers,
                        bool Has64BitAccess, bool IsLoad) {
  AccessBodies Bodies = accessBodies(Access, Barriers, Modifiers, Has64BitAccess, IsLoad);
  TemplateData Data;
  TemplateData Sizes = TemplateData::type::list;
  std::string CheckC, CheckCxx, List;
  for (int Size : Bodies.Sizes) {
    TemplateData S;
    S.set("size", std::to_string(Size));
    S.set("type", uintType(Size));
    S.set("body", Bodies.Body[Size]);
    Sizes.push_back(S);
    CheckC += std::string(CheckC.empty() ? "" : " || ") + "sizeof(*(p)) == " + std::to_string(Size);
    CheckCxx += std::string(CheckCxx.empty() ? "" : " || ") + "sizeof(T) == " + std::to_string(Size);
    List += std::string(List.empty() ? "" : ", ") + std::to_string(Size);
  }
  Data.set("sizes", Sizes);
  Data.set("size_check_c", CheckC);
  Data.set("size_check_cxx", CheckCxx);
  Data.set("size_list", List);
  Data.set("orders", ordersText(Access.get("orders")));
  Data.set("source", Access.get("source")->value());
  return Data;
}

} // namespace

std::string ordersText(const SpecNode *Orders) {
  std::string Out;
  if (Orders)
    for (const SpecNode &O : Orders->items())
      Out += (Out.empty() ? "" : ", ") + O.value();
  return Out;
}

std::string fenceStatement(const SpecNode &Fence, const SpecNode &Barriers) {
  if (const SpecNode *Alias = Fence.get("same_as"))
    return fenceStatement(*Barriers.get(Alias->value()), Barriers);
  if (Fence.get("compiler_only"))
    return "__asm__ __volatile__(\"\" ::: \"memory\")";
  if (const SpecNode *Order = Fence.get("c11")) {
    std::string Name = Order->value();
    std::transform(Name.begin(), Name.end(), Name.begin(), ::toupper);
    return "__atomic_thread_fence(__ATOMIC_" + Name + ")";
  }
  std::string Clobbers = "\"memory\"";
  if (const SpecNode *Extra = Fence.get("clobbers"))
    for (const SpecNode &C : Extra->items())
      Clobbers += ", \"" + C.value() + "\"";
  return "__asm__ __volatile__(" + asmStringLiteral(*Fence.get("asm"), nullptr, 0) + " ::: " + Clobbers + ")";
}

void fillBarrierData(const ResolvedSpec &Spec, TemplateData &Data) {
  const SpecNode &Barriers = *Spec.Tree.get("barriers");
  for (const std::string &Kind : fenceKinds()) {
    const SpecNode &Fence = *Barriers.get(Kind);
    TemplateData F;
    F.set("stmt", fenceStatement(Fence, Barriers));
    // An alias reports what its target orders and says it is one.
    const SpecNode *Resolved = &Fence;
    std::string Alias;
    while (const SpecNode *A = Resolved->get("same_as")) {
      Alias = A->value();
      Resolved = Barriers.get(Alias);
    }
    F.set("orders", ordersText(Resolved->get("orders")));
    F.set("alias", Alias);
    F.set("is_alias", Alias.empty() ? TemplateData::type::bool_false : TemplateData::type::bool_true);
    F.set("source", Fence.get("source")->value());
    Data.set(Kind, F);
  }
  const SpecNode *Modifiers = Spec.Tree.at("asm_syntax.value_modifier");
  std::string Bits = Spec.stringFact("target.bits");
  bool Has64 = Bits == "64";
  Data.set("untorn_sizes", std::string(Bits == "any" ? "the pointer size" : Bits == "64" ? "8 bytes" : "4 bytes"));
  Data.set("acquire_load", accessData(*Barriers.get("acquire_load"), Barriers, Modifiers, Has64, true));
  Data.set("release_store", accessData(*Barriers.get("release_store"), Barriers, Modifiers, Has64, false));

  const SpecNode &Relax = *Spec.Tree.get("cpu_relax");
  TemplateData R;
  R.set("stmt", fenceStatement(Relax, Barriers));
  R.set("source", Relax.get("source")->value());
  Data.set("cpu_relax", R);
}

} // namespace lockwright
