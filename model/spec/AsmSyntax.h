// The grammar of an instruction template in a spec: literal text, `{name}` and
// `{name:modifier}` placeholders, `{{` and `}}` for literal braces. The schema checks
// templates with it and the generator expands them with it, so the two cannot disagree.
#ifndef LOCKWRIGHT_MODEL_SPEC_ASMSYNTAX_H
#define LOCKWRIGHT_MODEL_SPEC_ASMSYNTAX_H

#include <optional>
#include <string>
#include <vector>

namespace lockwright {

struct AsmPiece {
  bool Placeholder = false;
  std::string Text;         // the literal text (braces unescaped), or the placeholder's name
  std::optional<std::string> Modifier; // `{tmp:w}`: "w"
};

/// Splits Insn into pieces; a malformed template gives nullopt and Error says why.
std::optional<std::vector<AsmPiece>> splitAsmTemplate(const std::string &Insn, std::string &Error);

} // namespace lockwright

#endif
