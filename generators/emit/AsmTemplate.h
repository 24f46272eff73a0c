// Instruction templates from the specs -> GNU extended asm statements.
//
// Spec instructions name operands by role ({val}, {addr}, {new}, {old}, {tmp},
// {tmp2}, optionally with an operand modifier: {tmp:w}); this module maps them
// to named asm operands, applies the architecture's per-size modifier, escapes
// '%', and declares only the operands a sequence uses.
#ifndef LOCKWRIGHT_GENERATORS_EMIT_ASMTEMPLATE_H
#define LOCKWRIGHT_GENERATORS_EMIT_ASMTEMPLATE_H

#include <map>
#include <string>
#include <vector>

namespace lockwright {

/// asm_syntax.value_modifier of the model: operand size -> modifier ("w" for 4 on arm64).
using ValueModifiers = std::map<int, std::string>;

struct AsmOperand {
  std::string Name;  // placeholder name, also the asm operand name
  bool Output;       // outputs are early-clobber registers ("=&r")
  std::string CExpr; // the C lvalue or expression bound to it
};

/// The C string literal of an instruction list: one instruction per line,
/// placeholders as `%<mod>[name]`, the modifier Modifiers gives for Size.
std::string asmStringLiteral(const std::vector<std::string> &Lines, const ValueModifiers &Modifiers, int Size);

/// Whether any line uses `{Name}` or `{Name:mod}`.
bool usesPlaceholder(const std::vector<std::string> &Lines, const std::string &Name);

/// A complete `__asm__ __volatile__(...)` statement (without ';'). Operands a
/// sequence does not mention are left out; "memory" is always clobbered.
std::string asmStatement(const std::vector<std::string> &Lines, const ValueModifiers &Modifiers, int Size,
                         const std::vector<AsmOperand> &Operands, const std::vector<std::string> &Clobbers,
                         const std::string &Indent);

/// An asm statement with its scratch registers: declarations of the scratch
/// outputs the sequence uses (every output but `val`), the statement, and
/// `(void)` uses that keep unused-variable warnings away. Each line is
/// indented with one tab and ends with a newline.
struct AsmBlock {
  std::string Decls, Statement, Uses;
};
AsmBlock asmBlock(const std::vector<std::string> &Lines, const ValueModifiers &Modifiers, int Size,
                  const std::vector<AsmOperand> &Operands, const std::vector<std::string> &Clobbers);

/// "uint32_t" for 4, ...
std::string uintType(int Size);

} // namespace lockwright

#endif
