#include "emit/TemplateRenderer.h"

#include "FileIO.h"

#include <cerrno>
#include <cstring>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace lockwright {

namespace {

/// Records every name the template asks for that the data does not have.
class StrictContext : public kainjow::mustache::context<std::string> {
public:
  explicit StrictContext(const TemplateData *Data) : context(Data) {}
  const TemplateData *get(const std::string &Name) const override {
    const TemplateData *Found = context::get(Name);
    if (!Found)
      Missing.insert(Name);
    return Found;
  }
  mutable std::set<std::string> Missing;
};

/// The 1-based line of the first tag naming Name, so errors point into the template.
unsigned lineOfTag(const std::string &Text, const std::string &Name) {
  for (const char *Sigil : {"", "{", "#", "^", "&"}) {
    for (const char *Space : {"", " "}) {
      size_t At = Text.find(std::string("{{") + Sigil + Space + Name);
      if (At != std::string::npos)
        return 1 + static_cast<unsigned>(std::count(Text.begin(), Text.begin() + At, '\n'));
    }
  }
  return 1;
}

} // namespace

std::optional<std::string> TemplateSet::findOwn(const std::vector<std::string> &Folders,
                                                const std::string &Name) const {
  for (const std::string &Folder : Folders) {
    fs::path P = fs::path(Root) / Folder / Name;
    if (fs::is_regular_file(P))
      return P.string();
  }
  return std::nullopt;
}

std::optional<std::string> TemplateSet::find(const std::vector<std::string> &Folders, const std::string &Name) const {
  if (std::optional<std::string> Own = findOwn(Folders, Name))
    return Own;
  return findOwn({"common"}, Name);
}

std::optional<std::string> TemplateSet::render(const std::vector<std::string> &Folders, const std::string &Name,
                                               const TemplateData &Data, DiagnosticList &Diags) const {
  std::optional<std::string> Path = find(Folders, Name);
  if (!Path) {
    Diags.error({(fs::path(Root) / "common" / Name).string()}, "", "template not found");
    return std::nullopt;
  }
  std::optional<std::string> Read = readFile(*Path);
  if (!Read) {
    Diags.error({*Path}, "", std::string("cannot read the template: ") + std::strerror(errno));
    return std::nullopt;
  }
  std::string Text = *Read;
  kainjow::mustache::mustache Template(Text);
  if (!Template.is_valid()) {
    Diags.error({*Path, 1, 1}, "", "invalid template: " + Template.error_message());
    return std::nullopt;
  }
  StrictContext Ctx(&Data);
  std::ostringstream Out;
  Template.render(Ctx, Out);
  if (!Template.is_valid()) {
    Diags.error({*Path, 1, 1}, "", "cannot render template: " + Template.error_message());
    return std::nullopt;
  }
  for (const std::string &Missing : Ctx.Missing)
    Diags.error({*Path, lineOfTag(Text, Missing), 1}, "", "template refers to '" + Missing +
                                                              "', which the " + Name + " backend does not provide");
  if (!Ctx.Missing.empty())
    return std::nullopt;
  return Out.str();
}

} // namespace lockwright
