// P_barrier.h: mb/rmb/wmb, acquire loads, release stores, the control-
// dependency upgrade, mb before/after atomics, cpu_relax, read/write_once.
#include "emit/Backends.h"

#include "emit/AsmTemplate.h"

#include "StringList.h"

#include "spec/ArchModel.h"
#include "spec/Schema.h"

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
AccessBodies accessBodies(const OrderedAccess &Access, const ValueModifiers &Modifiers, bool Has64BitAccess,
                          bool IsLoad) {
  AccessBodies Out;
  const std::string T = "__lw_v";
  for (int Size : {1, 2, 4, 8}) {
    auto SizeInsn = Access.Insn.find(Size);
    bool PlainAccessAtomic = Size < 8 || Has64BitAccess;
    std::string Type = uintType(Size);
    std::string Body;
    if (SizeInsn != Access.Insn.end()) {
      std::vector<AsmOperand> Operands = {{"val", IsLoad, T}, {"addr", false, "__lw_p"}, {"tmp", true, "__lw_t"}};
      AsmBlock Asm = asmBlock({SizeInsn->second}, Modifiers, Size, Operands, {});
      if (IsLoad)
        Body = "\t" + Type + " " + T + ";\n" + Asm.Decls + Asm.Statement + Asm.Uses + "\treturn " + T + ";";
      else
        Body = Asm.Decls + Asm.Statement + Asm.Uses;
      Body.erase(Body.find_last_not_of('\n') + 1);
    } else if (Access.PlainFence && PlainAccessAtomic) {
      std::string Stmt = fenceStatement(*Access.PlainFence);
      if (IsLoad)
        Body = "\t" + Type + " " + T + " = *(const volatile " + Type + " *)__lw_p;\n\t" + Stmt + ";\n\treturn " + T + ";";
      else
        Body = "\t" + Stmt + ";\n\t*(volatile " + Type + " *)__lw_p = " + T + ";";
    } else if (Access.C11) { // the builtins are atomic at every size (through libatomic where they must)
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

TemplateData accessData(const OrderedAccess &Access, const ValueModifiers &Modifiers, bool Has64BitAccess,
                        bool IsLoad) {
  AccessBodies Bodies = accessBodies(Access, Modifiers, Has64BitAccess, IsLoad);
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
  Data.set("orders", joinList(Access.Orders));
  Data.set("source", Access.Source);
  return Data;
}

} // namespace

std::string fenceStatement(const Fence &F) {
  switch (F.Kind) {
  case Fence::Form::CompilerOnly:
    return "__asm__ __volatile__(\"\" ::: \"memory\")";
  case Fence::Form::C11: {
    std::string Name = F.C11Order;
    std::transform(Name.begin(), Name.end(), Name.begin(), ::toupper);
    return "__atomic_thread_fence(__ATOMIC_" + Name + ")";
  }
  case Fence::Form::Asm:
    break;
  }
  std::string Clobbers = "\"memory\"";
  for (const std::string &C : F.Clobbers)
    Clobbers += ", \"" + C + "\"";
  return "__asm__ __volatile__(" + asmStringLiteral(F.Asm, {}, 0) + " ::: " + Clobbers + ")";
}

void fillBarrierData(const ResolvedSpec &Spec, TemplateData &Data) {
  const ArchModel &M = Spec.model();
  for (const std::string &Kind : fenceKinds()) {
    const Fence &F = M.barrier(Kind);
    TemplateData D;
    D.set("stmt", fenceStatement(F));
    // An alias reports what its target orders and says it is one.
    D.set("orders", joinList(F.Orders));
    D.set("alias", F.AliasOf);
    D.set("is_alias", flag(!F.AliasOf.empty()));
    D.set("source", F.Source);
    Data.set(Kind, D);
  }
  const std::string &Bits = M.Target.Bits;
  bool Has64 = Bits == "64";
  Data.set("untorn_sizes", std::string(Bits == "any" ? "the pointer size" : Bits == "64" ? "8 bytes" : "4 bytes"));
  Data.set("acquire_load", accessData(M.AcquireLoad, M.ValueModifier, Has64, true));
  Data.set("release_store", accessData(M.ReleaseStore, M.ValueModifier, Has64, false));

  TemplateData R;
  R.set("stmt", fenceStatement(M.CpuRelax));
  R.set("source", M.CpuRelax.Source);
  Data.set("cpu_relax", R);
}

} // namespace lockwright
