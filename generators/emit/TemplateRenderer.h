// Finds templates (an architecture's own folder first, then common/, like
// asm-generic) and renders them strictly: a tag that names nothing in the
// context is an error, not an empty string.
#ifndef LOCKWRIGHT_GENERATORS_EMIT_TEMPLATERENDERER_H
#define LOCKWRIGHT_GENERATORS_EMIT_TEMPLATERENDERER_H

#include "spec/Diagnostics.h"

#include <kainjow/mustache.hpp>

#include <optional>
#include <string>
#include <vector>

namespace lockwright {

using TemplateData = kainjow::mustache::data;

class TemplateSet {
public:
  explicit TemplateSet(std::string Root) : Root(std::move(Root)) {}
  const std::string &root() const { return Root; }

  /// arch-templates/<folder>/<Name> for the first of Folders that has it (a spec
  /// and its ancestors, child first), else arch-templates/common/<Name>.
  std::optional<std::string> find(const std::vector<std::string> &Folders, const std::string &Name) const;
  /// The same, without the common/ fallback: whether an architecture has its own.
  std::optional<std::string> findOwn(const std::vector<std::string> &Folders, const std::string &Name) const;

  /// Renders template Name; errors name the template file and line.
  std::optional<std::string> render(const std::vector<std::string> &Folders, const std::string &Name,
                                    const TemplateData &Data, DiagnosticList &Diags) const;

private:
  std::string Root;
};

} // namespace lockwright

#endif
