#include "CheckConfig.h"

#include "CheckRegistry.h"

#include "FileIO.h"
#include "Glob.h"
#include "StringList.h"
#include "spec/SpecTree.h"

#include "llvm/ADT/StringExtras.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace fs = std::filesystem;

namespace lockwright {

const char *const ConfigFileName = ".lockwright.yaml";

namespace {

/// A config is a page of settings: anything larger is not one (and yaml-cpp would build it all).
constexpr size_t MaxConfigBytes = 1 << 20;

const std::vector<std::string> &knownKeys() {
  static const std::vector<std::string> Keys = {
      "Checks",       "CheckOptions", "WarningsAsErrors",   "HeaderFilterRegex", "ExcludeHeaderFilterRegex",
      "SystemHeaders", "Arch",        "Cpu",                "InheritParentConfig", "ExtraArgs", "ExtraArgsBefore"};
  return Keys;
}

SourceLoc locOf(const YAML::Mark &M, const std::string &File) {
  if (M.is_null())
    return {File, 0, 0};
  return {File, static_cast<unsigned>(M.line + 1), static_cast<unsigned>(M.column + 1)};
}

/// A glob list written as a string (commas or new lines between globs) or a sequence.
std::optional<std::string> globList(const YAML::Node &Value, const std::string &Key, const std::string &File,
                                    DiagnosticList &Diags) {
  std::vector<std::string> Items;
  // One way to read the globs of either form, line breaks included, so that what
  // --dump-config writes reads back the same (fuzz/config found a list item with a line break).
  auto Add = [&](std::string Text) {
    std::replace(Text.begin(), Text.end(), '\n', ',');
    for (const std::string &Part : splitList(Text))
      Items.push_back(Part);
  };
  if (Value.IsNull())
    return std::string();
  if (Value.IsScalar()) {
    Add(Value.Scalar());
  } else if (Value.IsSequence()) {
    for (const YAML::Node &Item : Value) {
      if (!Item.IsScalar()) {
        Diags.error(locOf(Item.Mark(), File), Key, "expected a check glob");
        return std::nullopt;
      }
      Add(Item.Scalar());
    }
  } else {
    Diags.error(locOf(Value.Mark(), File), Key, "expected a string or a list of check globs");
    return std::nullopt;
  }
  return joinList(Items, ",");
}

std::optional<bool> boolean(const YAML::Node &Value, const std::string &Key, const std::string &File,
                            DiagnosticList &Diags) {
  if (Value.IsScalar()) {
    std::string V = Value.Scalar();
    if (V == "true" || V == "True" || V == "1")
      return true;
    if (V == "false" || V == "False" || V == "0")
      return false;
  }
  Diags.error(locOf(Value.Mark(), File), Key, "expected true or false");
  return std::nullopt;
}

/// CheckOptions as a map ("check.Option: value") or clang-tidy's older list of {key, value}.
bool checkOptions(const YAML::Node &Value, const std::string &File, ConfigLayer &Layer, DiagnosticList &Diags) {
  auto Add = [&](const YAML::Node &Key, const YAML::Node &V) {
    if (!Key.IsScalar() || !(V.IsScalar() || V.IsNull())) {
      Diags.error(locOf(Key.Mark(), File), "CheckOptions", "expected 'check-name.Option: value'");
      return false;
    }
    Layer.CheckOptions[Key.Scalar()] = V.IsNull() ? "" : V.Scalar();
    Layer.KeyLocs["CheckOptions." + Key.Scalar()] = locOf(Key.Mark(), File);
    return true;
  };
  if (Value.IsNull())
    return true;
  if (Value.IsMap()) {
    for (const auto &KV : Value)
      if (!Add(KV.first, KV.second))
        return false;
    return true;
  }
  if (Value.IsSequence()) {
    for (const YAML::Node &Item : Value) {
      if (!Item.IsMap() || !Item["key"] || !Item["value"]) {
        Diags.error(locOf(Item.Mark(), File), "CheckOptions", "expected '{key: check-name.Option, value: ...}'");
        return false;
      }
      if (!Add(Item["key"], Item["value"]))
        return false;
    }
    return true;
  }
  Diags.error(locOf(Value.Mark(), File), "CheckOptions", "expected a map of 'check-name.Option: value'");
  return false;
}

/// A YAML scalar that reads back as Text: single-quoted, or double-quoted with escapes when Text
/// holds a line break or another control character, which a single-quoted scalar would fold
/// into a space (found by fuzz/config: --dump-config did not load back).
std::string quoted(const std::string &Text) {
  bool Plain = std::none_of(Text.begin(), Text.end(), [](char C) {
    return static_cast<unsigned char>(C) < 0x20 || C == 0x7f;
  });
  if (Plain) {
    std::string Out = "'";
    for (char C : Text)
      Out += C == '\'' ? std::string("''") : std::string(1, C);
    return Out + "'";
  }
  std::string Out = "\"";
  for (char C : Text) {
    unsigned char U = static_cast<unsigned char>(C);
    if (C == '"' || C == '\\')
      Out += std::string("\\") + C;
    else if (U < 0x20 || U == 0x7f)
      Out += "\\x" + llvm::toHex(llvm::StringRef(&C, 1), /*LowerCase=*/true);
    else
      Out += C;
  }
  return Out + "\"";
}

/// The same selection without the globs a later '*' or '-*' overrides, so that a dumped config
/// loads back (on top of the defaults again) to the same text.
std::string withoutOverridden(const std::string &Globs) {
  std::vector<std::string> Items = splitList(Globs);
  auto Last = std::find_if(Items.rbegin(), Items.rend(), [](const std::string &G) { return G == "*" || G == "-*"; });
  if (Last != Items.rend())
    Items.erase(Items.begin(), std::prev(Last.base()));
  return joinList(Items, ",");
}

} // namespace

/// Where a key or value of Node holds a byte that is not text (see firstNonTextByte); a line
/// break, which a folded or escaped value may hold, is text.
static std::optional<YAML::Mark> nonTextScalar(const YAML::Node &Node) {
  if (Node.IsScalar()) {
    std::string Value = Node.Scalar();
    std::replace(Value.begin(), Value.end(), '\n', ' ');
    return firstNonTextByte(Value) ? std::optional<YAML::Mark>(Node.Mark()) : std::nullopt;
  }
  if (Node.IsSequence())
    for (const YAML::Node &Item : Node)
      if (std::optional<YAML::Mark> Bad = nonTextScalar(Item))
        return Bad;
  if (Node.IsMap())
    for (const auto &Entry : Node)
      for (const YAML::Node &Part : {Entry.first, Entry.second})
        if (std::optional<YAML::Mark> Bad = nonTextScalar(Part))
          return Bad;
  return std::nullopt;
}

std::optional<ConfigLayer> parseConfig(const std::string &Text, const std::string &Origin, const std::string &File,
                                       DiagnosticList &Diags) {
  std::string Where = File.empty() ? Origin : File;
  if (Text.size() > MaxConfigBytes) {
    Diags.error({Where, 0, 0}, "", "a config of " + std::to_string(Text.size()) + " bytes; at most " +
                                       std::to_string(MaxConfigBytes) + " are read");
    return std::nullopt;
  }
  if (flowNestedTooDeep(Text, Where, Diags))
    return std::nullopt;
  // A config is text: a byte that is not UTF-8, or a control character, is an error where it
  // stands (found by fuzz/config: such bytes did not survive --dump-config).
  if (std::optional<size_t> Bad = firstNonTextByte(Text)) {
    unsigned Line = 1 + std::count(Text.begin(), Text.begin() + *Bad, '\n');
    size_t LineStart = Text.rfind('\n', *Bad == 0 ? 0 : *Bad - 1);
    unsigned Col = static_cast<unsigned>(*Bad - (LineStart == std::string::npos || *Bad == 0 ? 0 : LineStart + 1)) + 1;
    Diags.error({Where, Line, Col}, "", "not text: a byte that is not UTF-8, or a control character");
    return std::nullopt;
  }
  YAML::Node Root;
  try {
    Root = YAML::Load(Text);
  } catch (const YAML::Exception &E) {
    Diags.error(locOf(E.mark, Where), "", E.msg);
    return std::nullopt;
  }
  // The same for what YAML escapes ("\xff", "\0") make of the text.
  if (std::optional<YAML::Mark> Bad = nonTextScalar(Root)) {
    Diags.error(locOf(*Bad, Where), "", "not text: an escape makes a byte that is not UTF-8, or a control character");
    return std::nullopt;
  }
  ConfigLayer Layer;
  Layer.Origin = Origin;
  if (Root.IsNull())
    return Layer; // an empty file: nothing set
  if (!Root.IsMap()) {
    Diags.error(locOf(Root.Mark(), Where), "", "expected a map of settings (Checks, CheckOptions, ...)");
    return std::nullopt;
  }
  unsigned Errors = Diags.errorCount();
  for (const auto &KV : Root) {
    SourceLoc KeyLoc = locOf(KV.first.Mark(), Where);
    if (!KV.first.IsScalar()) {
      Diags.error(KeyLoc, "", "expected a setting name");
      continue;
    }
    const std::string Key = KV.first.Scalar();
    if (Layer.KeyLocs.count(Key)) {
      Diags.error(KeyLoc, Key, "set twice (first at line " + std::to_string(Layer.KeyLocs[Key].Line) + ")");
      continue;
    }
    // .clang-tidy keys about formatting and the terminal: a file shared with clang-tidy loads.
    if (Key == "FormatStyle" || Key == "UseColor" || Key == "User" || Key == "HeaderFileExtensions" ||
        Key == "ImplementationFileExtensions") {
      Layer.KeyLocs[Key] = KeyLoc;
      continue;
    }
    const YAML::Node &Value = KV.second;
    Layer.KeyLocs[Key] = KeyLoc;
    auto Scalar = [&](std::optional<std::string> &Into) {
      if (Value.IsScalar() || Value.IsNull())
        Into = Value.IsNull() ? "" : Value.Scalar();
      else
        Diags.error(locOf(Value.Mark(), Where), Key, "expected a string");
    };
    if (Key == "Checks")
      Layer.Checks = globList(Value, Key, Where, Diags);
    else if (Key == "WarningsAsErrors")
      Layer.WarningsAsErrors = globList(Value, Key, Where, Diags);
    else if (Key == "HeaderFilterRegex")
      Scalar(Layer.HeaderFilterRegex);
    else if (Key == "ExcludeHeaderFilterRegex")
      Scalar(Layer.ExcludeHeaderFilterRegex);
    else if (Key == "Arch")
      Scalar(Layer.Arch);
    else if (Key == "Cpu")
      Scalar(Layer.Cpu);
    else if (Key == "SystemHeaders")
      Layer.SystemHeaders = boolean(Value, Key, Where, Diags);
    else if (Key == "InheritParentConfig")
      Layer.InheritParentConfig = boolean(Value, Key, Where, Diags);
    else if (Key == "CheckOptions")
      checkOptions(Value, Where, Layer, Diags);
    else if (Key == "ExtraArgs" || Key == "ExtraArgsBefore") {
      std::vector<std::string> &Into = Key == "ExtraArgs" ? Layer.ExtraArgs : Layer.ExtraArgsBefore;
      if (Value.IsScalar())
        Into.push_back(Value.Scalar());
      else if (Value.IsSequence() && std::all_of(Value.begin(), Value.end(), [](const YAML::Node &N) { return N.IsScalar(); }))
        for (const YAML::Node &Item : Value)
          Into.push_back(Item.Scalar());
      else if (!Value.IsNull())
        Diags.error(locOf(Value.Mark(), Where), Key, "expected a list of compiler arguments");
    }
    else
      Diags.error(KeyLoc, Key, "unknown setting" + didYouMean(Key, knownKeys()));
  }
  if (Diags.errorCount() != Errors)
    return std::nullopt;
  return Layer;
}

std::vector<std::pair<std::string, std::string>> EffectiveConfig::explainChecks(
    const std::vector<std::string> &AllChecks) const {
  std::map<std::string, std::pair<bool, std::string>> State; // check -> (enabled, origin)
  for (const auto &Layer : Layers) {
    if (!Layer->Checks)
      continue;
    CheckFilter Filter(*Layer->Checks);
    for (const std::string &Name : AllChecks)
      if (std::optional<bool> On = Filter.verdict(Name))
        State[Name] = {*On, Layer->Origin};
  }
  std::vector<std::pair<std::string, std::string>> Out;
  for (const std::string &Name : AllChecks)
    if (auto It = State.find(Name); It != State.end() && It->second.first)
      Out.emplace_back(Name, It->second.second);
  return Out;
}

std::string EffectiveConfig::toYaml() const {
  std::string Out = "---\n";
  Out += "Checks: " + quoted(Checks) + "\n";
  Out += "WarningsAsErrors: " + quoted(WarningsAsErrors) + "\n";
  if (HeaderFilterRegex)
    Out += "HeaderFilterRegex: " + quoted(*HeaderFilterRegex) + "\n";
  if (ExcludeHeaderFilterRegex)
    Out += "ExcludeHeaderFilterRegex: " + quoted(*ExcludeHeaderFilterRegex) + "\n";
  Out += std::string("SystemHeaders: ") + (SystemHeaders ? "true" : "false") + "\n";
  if (!Arch.empty())
    Out += "Arch: " + quoted(Arch) + "\n";
  if (!Cpu.empty())
    Out += "Cpu: " + quoted(Cpu) + "\n";
  for (const auto &[Key, Args] : {std::pair{"ExtraArgs", &ExtraArgs}, std::pair{"ExtraArgsBefore", &ExtraArgsBefore}})
    if (!Args->empty()) {
      Out += std::string(Key) + ":\n";
      for (const std::string &A : *Args)
        Out += "  - " + quoted(A) + "\n";
    }
  if (!CheckOptions.empty()) {
    Out += "CheckOptions:\n";
    for (const auto &[Key, Value] : CheckOptions) {
      // "check-name.Option" as written; any other key quoted (fuzz/config: "e] " did not load back).
      bool Plain = !Key.empty() && std::all_of(Key.begin(), Key.end(), [](char C) {
        return std::isalnum(static_cast<unsigned char>(C)) || C == '-' || C == '_' || C == '.';
      });
      std::string Written = Plain ? Key : quoted(Key);
      // YAML limits an implicit key to 1024 characters; a longer one needs the explicit '? '
      // form (fuzz/config: a 1,400-byte key did not load back).
      if (Written.size() > 1000)
        Out += "  ? " + Written + "\n  : " + quoted(Value) + "\n";
      else
        Out += "  " + Written + ": " + quoted(Value) + "\n";
    }
  }
  return Out + "...\n";
}

ConfigResolver::ConfigResolver(ConfigLayer DefaultLayer, ConfigLayer CommandLineLayer,
                               std::optional<ConfigLayer> ReplacementLayer)
    : Defaults(std::make_shared<ConfigLayer>(std::move(DefaultLayer))),
      CommandLine(std::make_shared<ConfigLayer>(std::move(CommandLineLayer))) {
  if (ReplacementLayer)
    Replacement = std::make_shared<ConfigLayer>(std::move(*ReplacementLayer));
}

std::optional<std::vector<std::shared_ptr<const ConfigLayer>>> ConfigResolver::fileLayers(const std::string &Dir,
                                                                                          DiagnosticList &Diags) {
  if (auto It = ByDirectory.find(Dir); It != ByDirectory.end())
    return It->second;
  std::vector<std::shared_ptr<const ConfigLayer>> Layers;
  fs::path Path = fs::path(Dir) / ConfigFileName;
  std::error_code EC;
  bool Found = fs::exists(Path, EC);
  std::optional<std::vector<std::shared_ptr<const ConfigLayer>>> Result;
  if (Found) {
    bool Regular = fs::is_regular_file(Path, EC);
    std::optional<std::string> Text = Regular ? readFile(Path.string()) : std::nullopt;
    std::optional<ConfigLayer> Layer;
    if (!Text)
      Diags.error({Path.string(), 0, 0}, "",
                  std::string("cannot read the config file: ") + (Regular ? std::strerror(errno) : "not a file"));
    else
      Layer = parseConfig(*Text, Path.string(), Path.string(), Diags);
    if (Layer) {
      bool Inherit = Layer->InheritParentConfig.value_or(false);
      fs::path Parent = fs::path(Dir).parent_path();
      if (Inherit && Parent != fs::path(Dir)) {
        Result = fileLayers(Parent.string(), Diags);
        if (Result)
          Result->push_back(std::make_shared<ConfigLayer>(std::move(*Layer)));
      } else {
        Result = std::vector<std::shared_ptr<const ConfigLayer>>{std::make_shared<ConfigLayer>(std::move(*Layer))};
      }
    }
  } else {
    fs::path Parent = fs::path(Dir).parent_path();
    Result = Parent == fs::path(Dir) || Parent.empty() ? std::vector<std::shared_ptr<const ConfigLayer>>()
                                                        : fileLayers(Parent.string(), Diags);
  }
  ByDirectory[Dir] = Result;
  return Result;
}

EffectiveConfig ConfigResolver::merge(const std::vector<std::shared_ptr<const ConfigLayer>> &Layers) const {
  EffectiveConfig C;
  auto Append = [](std::string &Into, const std::string &More) {
    if (!More.empty())
      Into = Into.empty() ? More : Into + "," + More;
  };
  for (const auto &L : Layers) {
    C.Layers.push_back(L);
    if (L->Checks)
      Append(C.Checks, *L->Checks);
    if (L->WarningsAsErrors)
      Append(C.WarningsAsErrors, *L->WarningsAsErrors);
    auto Set = [&](auto &Into, const auto &From, const char *Key) {
      if (From) {
        Into = *From;
        C.OriginOf[Key] = L->Origin;
        auto Loc = L->KeyLocs.find(Key);
        C.LocOf[Key] = Loc != L->KeyLocs.end() ? Loc->second : SourceLoc{L->Origin, 0, 0};
      }
    };
    Set(C.HeaderFilterRegex, L->HeaderFilterRegex, "HeaderFilterRegex");
    Set(C.ExcludeHeaderFilterRegex, L->ExcludeHeaderFilterRegex, "ExcludeHeaderFilterRegex");
    Set(C.Arch, L->Arch, "Arch");
    Set(C.Cpu, L->Cpu, "Cpu");
    Set(C.SystemHeaders, L->SystemHeaders, "SystemHeaders");
    C.ExtraArgs.insert(C.ExtraArgs.end(), L->ExtraArgs.begin(), L->ExtraArgs.end());
    C.ExtraArgsBefore.insert(C.ExtraArgsBefore.end(), L->ExtraArgsBefore.begin(), L->ExtraArgsBefore.end());
    for (const auto &[Key, Value] : L->CheckOptions) {
      C.CheckOptions[Key] = Value;
      C.OriginOf[Key] = L->Origin;
    }
  }
  C.Checks = withoutOverridden(C.Checks);
  C.WarningsAsErrors = withoutOverridden(C.WarningsAsErrors);
  return C;
}

std::optional<EffectiveConfig> ConfigResolver::forDirectory(const std::string &Dir, DiagnosticList &Diags) {
  std::vector<std::shared_ptr<const ConfigLayer>> Layers = {Defaults};
  if (Replacement) {
    Layers.push_back(Replacement);
  } else {
    std::error_code EC;
    fs::path Absolute = fs::absolute(Dir.empty() ? fs::path(".") : fs::path(Dir), EC).lexically_normal();
    std::string Key = Absolute.string();
    if (Key.size() > 1 && Key.back() == '/')
      Key.pop_back();
    std::optional<std::vector<std::shared_ptr<const ConfigLayer>>> Files = fileLayers(Key, Diags);
    if (!Files)
      return std::nullopt;
    Layers.insert(Layers.end(), Files->begin(), Files->end());
  }
  Layers.push_back(CommandLine);
  return merge(Layers);
}

std::optional<EffectiveConfig> ConfigResolver::forFile(const std::string &SourcePath, DiagnosticList &Diags) {
  std::error_code EC;
  fs::path Absolute = fs::absolute(fs::path(SourcePath), EC).lexically_normal();
  return forDirectory(Absolute.parent_path().string(), Diags);
}

void verifyConfig(const EffectiveConfig &Config, const std::vector<std::string> &Known,
                  const std::vector<std::string> &Options, DiagnosticList &Diags) {
  for (const auto &Layer : Config.Layers) {
    auto Where = [&](const std::string &Key) {
      auto It = Layer->KeyLocs.find(Key);
      return It != Layer->KeyLocs.end() ? It->second : SourceLoc{Layer->Origin, 0, 0};
    };
    for (const auto &[Key, List] : {std::pair{std::string("Checks"), Layer->Checks},
                                    std::pair{std::string("WarningsAsErrors"), Layer->WarningsAsErrors}}) {
      if (!List)
        continue;
      for (const std::string &Item : splitList(*List)) {
        std::string Pattern = Item[0] == '-' ? Item.substr(1) : Item;
        if (std::none_of(Known.begin(), Known.end(), [&](const std::string &N) { return globMatches(Pattern, N); }))
          Diags.error(Where(Key), Key, "unknown check '" + Pattern + "'" + didYouMean(Pattern, Known));
      }
    }
    for (const auto &[Key, Value] : Layer->CheckOptions)
      if (std::find(Options.begin(), Options.end(), Key) == Options.end())
        Diags.error(Where("CheckOptions." + Key), "CheckOptions",
                    "unknown check option '" + Key + "'" + didYouMean(Key, Options));
  }
}

} // namespace lockwright
