#include "emit/TemplateRenderer.h"

#include "FileIO.h"

#include <cerrno>
#include <cstring>

#include <algorithm>
#include <filesystem>
#include <map>
#include <fstream>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace lockwright {

namespace {

/// Records every name the template asks for that the data does not have; partials
/// ({{> name}}) come from the template files loaded for this render.
class StrictContext : public kainjow::mustache::context<std::string> {
public:
  StrictContext(const TemplateData *Data, const std::map<std::string, TemplateData> &Partials)
      : context(Data), Partials(Partials) {}
  const TemplateData *get(const std::string &Name) const override {
    const TemplateData *Found = context::get(Name);
    if (!Found)
      Missing.insert(Name);
    return Found;
  }
  const TemplateData *get_partial(const std::string &Name) const override {
    auto It = Partials.find(Name);
    return It == Partials.end() ? nullptr : &It->second;
  }
  mutable std::set<std::string> Missing;

private:
  const std::map<std::string, TemplateData> &Partials;
};

/// The names of the partials ({{> name}}) Text uses.
std::set<std::string> partialNames(const std::string &Text) {
  std::set<std::string> Names;
  for (size_t At = Text.find("{{>"); At != std::string::npos; At = Text.find("{{>", At + 3)) {
    size_t End = Text.find("}}", At);
    if (End == std::string::npos)
      break;
    std::string Name = Text.substr(At + 3, End - At - 3);
    Name.erase(0, Name.find_first_not_of(' '));
    Name.erase(Name.find_last_not_of(' ') + 1);
    Names.insert(Name);
  }
  return Names;
}

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
  // Partials live in partials/<name>.mustache, found as templates are (an architecture's own first).
  std::map<std::string, TemplateData> Partials;
  for (const std::string &Partial : partialNames(Text)) {
    std::optional<std::string> PartialPath = find(Folders, "partials/" + Partial + ".mustache");
    std::optional<std::string> PartialText = PartialPath ? readFile(*PartialPath) : std::nullopt;
    if (!PartialText) {
      Diags.error({*Path, lineOfTag(Text, "> " + Partial), 1}, "",
                  "partial '" + Partial + "' not found (partials/" + Partial + ".mustache)");
      return std::nullopt;
    }
    Partials.emplace(Partial, TemplateData(*PartialText));
  }
  kainjow::mustache::mustache Template(Text);
  if (!Template.is_valid()) {
    Diags.error({*Path, 1, 1}, "", "invalid template: " + Template.error_message());
    return std::nullopt;
  }
  StrictContext Ctx(&Data, Partials);
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
