#include "emit/AsmTemplate.h"

#include "spec/AsmSyntax.h"

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

/// Asm operand names get a prefix: placeholders like {new} are C++ keywords.
std::string operandName(const std::string &Placeholder) { return "op_" + Placeholder; }

std::string sizeModifier(const ValueModifiers &Modifiers, int Size) {
  auto It = Modifiers.find(Size);
  return It == Modifiers.end() ? std::string() : It->second;
}

/// Placeholders become named operands; '%' is doubled; `{{`/`}}` are literal braces.
/// The schema has validated Insn, so it splits.
std::string expandPlaceholders(const std::string &Insn, const std::string &SizeModifier) {
  std::string Out, Error;
  std::vector<AsmPiece> Pieces = splitAsmTemplate(Insn, Error).value();
  for (const AsmPiece &P : Pieces) {
    if (!P.Placeholder) {
      for (char C : P.Text)
        Out += C == '%' ? std::string("%%") : std::string(1, C);
      continue;
    }
    std::string Modifier = P.Modifier ? *P.Modifier : P.Text == "addr" ? std::string() : SizeModifier;
    Out += "%" + Modifier + "[" + operandName(P.Text) + "]";
  }
  return Out;
}

} // namespace

std::string uintType(int Size) { return "uint" + std::to_string(Size * 8) + "_t"; }

std::string asmStringLiteral(const std::vector<std::string> &Lines, const ValueModifiers &Modifiers, int Size) {
  std::string Mod = sizeModifier(Modifiers, Size);
  std::string Out;
  for (size_t I = 0; I < Lines.size(); ++I) {
    Out += "\"" + cStringLiteral(expandPlaceholders(Lines[I], Mod));
    Out += I + 1 < Lines.size() ? "\\n\\t\"" : "\"";
  }
  return Out;
}

bool usesPlaceholder(const std::vector<std::string> &Lines, const std::string &Name) {
  for (const std::string &L : Lines)
    if (L.find("{" + Name + "}") != std::string::npos || L.find("{" + Name + ":") != std::string::npos)
      return true;
  return false;
}

std::string asmStatement(const std::vector<std::string> &Lines, const ValueModifiers &Modifiers, int Size,
                         const std::vector<AsmOperand> &Operands, const std::vector<std::string> &Clobbers,
                         const std::string &Indent) {
  std::string Outputs, Inputs;
  for (const AsmOperand &Op : Operands) {
    if (!usesPlaceholder(Lines, Op.Name))
      continue;
    std::string &List = Op.Output ? Outputs : Inputs;
    List += std::string(List.empty() ? "" : ", ") + "[" + operandName(Op.Name) + "] " + (Op.Output ? "\"=&r\"" : "\"r\"") +
            " (" + Op.CExpr + ")";
  }
  std::string ClobberList = "\"memory\"";
  for (const std::string &C : Clobbers)
    ClobberList += ", \"" + C + "\"";
  return "__asm__ __volatile__(" + asmStringLiteral(Lines, Modifiers, Size) + "\n" + Indent + "\t: " + Outputs +
         "\n" + Indent + "\t: " + Inputs + "\n" + Indent + "\t: " + ClobberList + ")";
}

AsmBlock asmBlock(const std::vector<std::string> &Lines, const ValueModifiers &Modifiers, int Size,
                  const std::vector<AsmOperand> &Operands, const std::vector<std::string> &Clobbers) {
  AsmBlock Block;
  for (const AsmOperand &Op : Operands) {
    if (!Op.Output || Op.Name == "val" || !usesPlaceholder(Lines, Op.Name))
      continue;
    Block.Decls += "\t" + uintType(Size) + " " + Op.CExpr + ";\n";
    Block.Uses += "\t(void)" + Op.CExpr + ";\n";
  }
  Block.Statement = "\t" + asmStatement(Lines, Modifiers, Size, Operands, Clobbers, "\t") + ";\n";
  return Block;
}

} // namespace lockwright
