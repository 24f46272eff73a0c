// P_barrier.h: mb/rmb/wmb, acquire loads, release stores, the control-
// dependency upgrade, mb before/after atomics, cpu_relax, read/write_once.
#include "emit/Backends.h"

#include "spec/Schema.h"
#include "spec/SpecTree.h"

#include <algorithm>
#include <map>

namespace lockwright {

namespace {

std::string cStringLiteral(const std::string &S) {
  std::string Out;
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out;
}

/// Maps `{val}`, `{addr}`, `{tmp}` to named asm operands and escapes the rest.
std::string expandPlaceholders(const std::string &Insn, const std::string &ValueModifier) {
  std::string Out;
  for (size_t I = 0; I < Insn.size(); ++I) {
    char C = Insn[I];
    if ((C == '{' || C == '}') && I + 1 < Insn.size() && Insn[I + 1] == C) {
      Out += C;
      ++I;
    } else if (C == '{') {
      size_t Close = Insn.find('}', I);
      std::string Name = Insn.substr(I + 1, Close - I - 1);
      Out += "%" + (Name == "addr" ? std::string() : ValueModifier) + "[" + Name + "]";
      I = Close;
    } else if (C == '%') {
      Out += "%%";
    } else {
      Out += C;
    }
  }
  return Out;
}

std::string valueModifier(const SpecNode *Modifiers, int Size) {
  const SpecNode *M = Modifiers ? Modifiers->get(std::to_string(Size)) : nullptr;
  return M ? M->value() : std::string();
}

std::string uintType(int Size) { return "uint" + std::to_string(Size * 8) + "_t"; }

bool usesPlaceholder(const std::string &Insn, const char *Name) {
  return Insn.find(std::string("{") + Name + "}") != std::string::npos;
}

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
      SpecNode One = SpecNode::sequence();
      One.push(*SizeInsn);
      std::string Asm = asmString(One, Modifiers, Size);
      bool Tmp = usesPlaceholder(SizeInsn->value(), "tmp");
      std::string TmpDecl = Tmp ? "\t" + Type + " __lw_t;\n" : "";
      std::string TmpOut = Tmp ? "[tmp] \"=&r\" (__lw_t)" : "";
      if (IsLoad)
        Body = "\t" + Type + " " + T + ";\n" + TmpDecl + "\t__asm__ __volatile__(" + Asm + "\n\t\t: [val] \"=&r\" (" +
               T + ")" + (Tmp ? ", " + TmpOut : "") + "\n\t\t: [addr] \"r\" (__lw_p)\n\t\t: \"memory\");\n" +
               (Tmp ? "\t(void)__lw_t;\n" : "") + "\treturn " + T + ";";
      else
        Body = TmpDecl + "\t__asm__ __volatile__(" + Asm + "\n\t\t: " + TmpOut + "\n\t\t: [val] \"r\" (" + T +
               "), [addr] \"r\" (__lw_p)\n\t\t: \"memory\");" + (Tmp ? "\n\t(void)__lw_t;" : "");
    } else if (Fence && PlainAccessAtomic) {
      std::string Stmt = fenceStatement(*Fence, Barriers);
      if (IsLoad)
        Body = "\t" + Type + " " + T + " = *(const volatile " + Type + " *)__lw_p;\n\t" + Stmt + ";\n\treturn " + T + ";";
      else
        Body = "\t" + Stmt + ";\n\t*(volatile " + Type + " *)__lw_p = " + T + ";";
    } else if (C11 && PlainAccessAtomic) {
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

std::string asmString(const SpecNode &Instructions, const SpecNode *Modifiers, int Size) {
  std::string Mod = valueModifier(Modifiers, Size);
  std::string Out;
  const auto &Items = Instructions.items();
  for (size_t I = 0; I < Items.size(); ++I) {
    Out += "\"" + cStringLiteral(expandPlaceholders(Items[I].value(), Mod));
    Out += I + 1 < Items.size() ? "\\n\\t\"" : "\"";
  }
  return Out;
}

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
  return "__asm__ __volatile__(" + asmString(*Fence.get("asm"), nullptr, 0) + " ::: " + Clobbers + ")";
}

void fillBarrierData(const ResolvedSpec &Spec, TemplateData &Data, DiagnosticList &) {
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
  bool Has64 = Spec.stringFact("target.bits") == "64";
  Data.set("acquire_load", accessData(*Barriers.get("acquire_load"), Barriers, Modifiers, Has64, true));
  Data.set("release_store", accessData(*Barriers.get("release_store"), Barriers, Modifiers, Has64, false));

  const SpecNode &Relax = *Spec.Tree.get("cpu_relax");
  TemplateData R;
  R.set("stmt", fenceStatement(Relax, Barriers));
  R.set("source", Relax.get("source")->value());
  Data.set("cpu_relax", R);
}

} // namespace lockwright
