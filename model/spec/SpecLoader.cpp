#include "spec/SpecLoader.h"

#include "spec/PrebuiltSpecs.h"

#include "FileIO.h"
#include "Glob.h"
#include "LockwrightConfig.h"
#include "spec/Schema.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <set>
#include <unistd.h>

namespace fs = std::filesystem;

namespace lockwright {

/// FNV-1a over the tree itself (each node's kind, each key and scalar with its length), not over
/// an emitted copy: printing a large spec as YAML to hash it took minutes.
static void hashNode(const SpecNode &N, uint64_t &H) {
  auto Mix = [&](std::string_view Bytes) {
    for (unsigned char C : Bytes) {
      H ^= C;
      H *= 0x100000001b3ULL;
    }
  };
  auto MixSized = [&](const std::string &Text) {
    Mix(std::to_string(Text.size()) + ":");
    Mix(Text);
  };
  Mix(SpecNode::kindName(N.kind()));
  if (N.isScalar())
    MixSized(N.value());
  for (const auto &[Key, Child] : N.fields()) {
    MixSized(Key);
    hashNode(Child, H);
  }
  for (const SpecNode &Item : N.items())
    hashNode(Item, H);
  Mix(";");
}

std::string ResolvedSpec::hash() const {
  uint64_t H = 0xcbf29ce484222325ULL;
  hashNode(Tree, H);
  char Buf[17];
  std::snprintf(Buf, sizeof Buf, "%016llx", static_cast<unsigned long long>(H));
  return Buf;
}

std::optional<std::string> specDirProblem(const std::string &Dir) {
  std::error_code EC;
  if (!fs::exists(Dir, EC))
    return std::string("no such directory");
  if (!fs::is_directory(Dir, EC))
    return std::string("not a directory (a single spec file goes to --spec)");
  if (!fs::is_directory(fs::path(Dir) / "arch", EC))
    return std::string("not a spec directory: it has no arch/ directory of architecture specs");
  return std::nullopt;
}

SpecRepository::SpecRepository(std::vector<std::string> SpecDirs) : Dirs(std::move(SpecDirs)) {}

/// The *.yaml files in <dir>/<Kind>/ of every spec dir, in search order.
static std::vector<fs::path> yamlFilesUnder(const std::vector<std::string> &Dirs, const char *Kind) {
  std::vector<fs::path> Files;
  for (const std::string &D : Dirs) {
    std::error_code EC;
    for (const auto &Entry : fs::directory_iterator(fs::path(D) / Kind, EC))
      if (Entry.path().extension() == ".yaml")
        Files.push_back(Entry.path().lexically_normal());
  }
  return Files;
}

std::vector<std::string> SpecRepository::archNames() const {
  std::set<std::string> Names;
  for (const fs::path &P : yamlFilesUnder(Dirs, "arch"))
    Names.insert(P.stem().string());
  return {Names.begin(), Names.end()};
}

std::optional<std::string> SpecRepository::findArchFile(const std::string &Name,
                                                        const std::string &PreferDir) const {
  std::vector<fs::path> Candidates;
  if (!PreferDir.empty())
    Candidates.push_back(fs::path(PreferDir) / (Name + ".yaml"));
  for (const std::string &D : Dirs)
    Candidates.push_back(fs::path(D) / "arch" / (Name + ".yaml"));
  for (const fs::path &P : Candidates)
    if (fs::is_regular_file(P))
      return P.lexically_normal().string();
  return std::nullopt;
}

const SpecRepository::LoadedFile &SpecRepository::loadArchFile(const std::string &Path,
                                                               DiagnosticList &Diags) {
  auto It = FileCache.find(Path);
  if (It != FileCache.end())
    return It->second;
  LoadedFile F{Path, std::nullopt};
  DiagnosticList Local;
  std::optional<SpecNode> Root = parseYamlFile(Path, Local);
  if (Root) {
    ValidationContext Ctx{Local, /*Partial=*/true};
    archSpecSchema()->validate(*Root, "", Ctx);
    if (!Local.hasErrors())
      F.Root = std::move(Root);
  }
  Diags.append(Local);
  return FileCache.emplace(Path, std::move(F)).first->second;
}

namespace {

/// Merges Merged's CPU variant Cpu (its overrides) over its body, for `--cpu` and for a child's
/// `inherits_cpu:`. A variant Merged lacks is an error at At under Key naming Owner ("parent
/// 'aarch64'"), with a did-you-mean; one without overrides (variants merge key by key, so a
/// file's own check leaves that to here) is an error at the variant.
bool applyCpuVariant(SpecNode &Merged, const std::string &Cpu, const std::string &Owner, const SourceLoc &At,
                     const std::string &Key, DiagnosticList &Diags) {
  const SpecNode *Variant = Merged.at("cpus." + Cpu);
  if (!Variant) {
    std::vector<std::string> Cpus;
    if (const SpecNode *CpuMap = Merged.get("cpus"))
      for (const auto &F : CpuMap->fields())
        Cpus.push_back(F.first);
    Diags.error(At, Key, Owner + " has no CPU variant '" + Cpu + "'" +
                             didYouMean(Cpu, Cpus, Cpus.empty() ? " (it has none)" : ""));
    return false;
  }
  const SpecNode *Overrides = Variant->get("overrides");
  if (!Overrides) {
    Diags.error(Variant->loc(), "cpus." + Cpu + ".overrides", "missing required key");
    return false;
  }
  SpecNode Copy = *Overrides; // merged into the tree that holds it
  archSpecSchema()->merge(Merged, Copy);
  return true;
}

} // namespace

std::optional<SpecNode> SpecRepository::mergeChain(const std::string &StartFile, DiagnosticList &Diags,
                                                   std::vector<std::string> *ChainNames) {
  std::vector<const SpecNode *> Chain; // child first
  std::vector<std::string> Names;
  std::string Path = StartFile;
  std::string ExpectedName;
  const SpecNode *InheritsNode = nullptr;
  while (true) {
    const LoadedFile &F = loadArchFile(Path, Diags);
    if (!F.Root)
      return std::nullopt;
    const SpecNode &Root = *F.Root;
    const SpecNode *NameNode = Root.get("name");
    if (!NameNode) { // a variant's overrides may leave keys out, but not its name
      Diags.error(Root.loc(), "name", "an architecture spec needs a name (name: ...)");
      return std::nullopt;
    }
    std::string Name = NameNode->value();
    if (!ExpectedName.empty() && Name != ExpectedName) {
      Diags.error(NameNode->loc(), "name",
                  "file " + Path + " declares '" + Name + "' but was found as the parent '" + ExpectedName + "'");
      return std::nullopt;
    }
    if (std::find(Names.begin(), Names.end(), Name) != Names.end()) {
      std::string Cycle;
      for (const std::string &N : Names)
        Cycle += N + " -> ";
      Diags.error(InheritsNode->loc(), "inherits", "inheritance cycle: " + Cycle + Name);
      return std::nullopt;
    }
    Names.push_back(Name);
    Chain.push_back(&Root);
    InheritsNode = Root.get("inherits");
    if (!InheritsNode)
      break;
    std::string Parent = InheritsNode->value();
    std::optional<std::string> ParentPath = findArchFile(Parent, fs::path(Path).parent_path().string());
    if (!ParentPath) {
      std::string Message = "unknown parent spec '" + Parent + "'";
      Message += didYouMean(Parent, archNames());
      Diags.error(InheritsNode->loc(), "inherits", Message);
      return std::nullopt;
    }
    Path = *ParentPath;
    ExpectedName = Parent;
  }
  SpecNode Merged = *Chain.back();
  if (const SpecNode *Cpu = Chain.back()->get("inherits_cpu")) {
    Diags.error(Cpu->loc(), "inherits_cpu", "a CPU variant of the parent needs a parent (inherits: ...)");
    return std::nullopt;
  }
  for (auto It = Chain.rbegin() + 1; It != Chain.rend(); ++It) {
    // A child of one CPU variant starts from the parent with that variant applied; the
    // parent's variants do not carry over (one applied later would undo the child's facts).
    if (const SpecNode *Cpu = (*It)->get("inherits_cpu")) {
      if (!applyCpuVariant(Merged, Cpu->value(), "parent '" + Merged.get("name")->value() + "'", Cpu->loc(),
                           "inherits_cpu", Diags))
        return std::nullopt;
      Merged.erase("cpus");
    }
    archSpecSchema()->merge(Merged, **It);
  }
  Merged.erase("inherits");
  // inherits_cpu stays for finish(): the variant applied is the resolved spec's CPU.
  if (ChainNames)
    *ChainNames = Names;
  return Merged;
}

void checkResolvedArch(const SpecNode &Tree, DiagnosticList &Diags) {
  const SpecNode *Barriers = Tree.get("barriers");
  if (!Barriers)
    return;
  // Follow `same_as` chains: each must end at a real implementation. A cycle
  // is reported once, at the first of its members, not again for every kind
  // that leads into it.
  std::set<std::string> InReportedCycle;
  for (const std::string &Kind : fenceKinds()) {
    std::vector<std::string> Seen = {Kind};
    const SpecNode *Node = Barriers->get(Kind);
    while (Node && Node->get("same_as")) {
      std::string Target = Node->get("same_as")->value();
      if (InReportedCycle.count(Target))
        break;
      auto Repeat = std::find(Seen.begin(), Seen.end(), Target);
      if (Repeat != Seen.end()) {
        std::string Cycle;
        for (auto It = Repeat; It != Seen.end(); ++It) {
          Cycle += *It + " -> ";
          InReportedCycle.insert(*It);
        }
        const SpecNode *First = Barriers->at(*Repeat + ".same_as");
        Diags.error(First->loc(), "barriers." + *Repeat + ".same_as", "alias cycle: " + Cycle + Target);
        break;
      }
      Seen.push_back(Target);
      Node = Barriers->get(Target);
    }
  }
  const SpecNode *L1 = Tree.at("cache.l1_line.value"), *Destructive = Tree.at("cache.destructive.value");
  if (L1 && Destructive && L1->asInt() && Destructive->asInt() && *Destructive->asInt() < *L1->asInt())
    Diags.error(Destructive->loc(), "cache.destructive.value",
                "destructive interference size " + Destructive->value() + " is below the L1 line (" +
                    L1->value() + "): objects one line apart would still share a line");
  // A 16-bit ticket RMW exists only as the C11 builtin (the atomics' insn forms are 4 and 8 bytes).
  const SpecNode *Take = Tree.at("ticket_take.value");
  if (Take && Take->value() == "next-half" && !Tree.at("atomics.fetch_add_acquire.c11"))
    Diags.error(Take->loc(), "ticket_take.value",
                "'next-half' takes a 16-bit ticket, which needs atomics.fetch_add_acquire as 'c11: true'");
  // An instruction for an 8-byte access cannot exist on a 32-bit target.
  const SpecNode *Bits = Tree.at("target.bits");
  for (const char *Access : {"acquire_load", "release_store"}) {
    const SpecNode *Insn = Barriers->at(std::string(Access) + ".insn.8");
    if (Insn && Bits && Bits->value() == "32")
      Diags.error(Insn->loc(), std::string("barriers.") + Access + ".insn.8",
                  "a 32-bit target has no 8-byte ordered access instruction");
  }
}

std::optional<ResolvedSpec> SpecRepository::finish(SpecNode Merged, const std::string &Cpu,
                                                   const SourceLoc &Origin, std::vector<std::string> Chain,
                                                   DiagnosticList &Diags) {
  std::string Arch = Merged.get("name")->value();
  // A spec refining a parent's variant (inherits_cpu) is that variant, and has none of its own.
  std::string Inherited = Merged.get("inherits_cpu") ? Merged.get("inherits_cpu")->value() : "";
  Merged.erase("inherits_cpu");
  std::vector<std::string> Cpus;
  if (const SpecNode *CpuMap = Merged.get("cpus"))
    for (const auto &F : CpuMap->fields())
      Cpus.push_back(F.first);
  if (!Cpu.empty() && !applyCpuVariant(Merged, Cpu, "architecture '" + Arch + "'", Origin, "cpus", Diags))
    return std::nullopt;
  // Variants are partial by design (checked per file); the resolved body must be whole.
  Merged.erase("cpus");
  DiagnosticList Local;
  ValidationContext Ctx{Local, /*Partial=*/false};
  archSpecSchema()->validate(Merged, "", Ctx);
  if (!Local.hasErrors())
    checkResolvedArch(Merged, Local);
  Diags.append(Local);
  if (Local.hasErrors())
    return std::nullopt;

  // The resolved document names the variant and lists the others instead of embedding them.
  SpecNode CpuList = SpecNode::sequence();
  std::sort(Cpus.begin(), Cpus.end());
  for (const std::string &C : Cpus)
    CpuList.push(SpecNode::scalar(C));
  std::string Resolved = Cpu.empty() ? Inherited : Cpu;
  SpecNode Out = SpecNode::map();
  for (auto &F : Merged.fields()) {
    Out.fields().push_back(F);
    if (F.first == "name") {
      Out.set("cpu", SpecNode::scalar(Resolved.empty() ? "base" : Resolved));
      Out.set("cpus", CpuList);
    }
  }
  std::optional<ArchModel> Model = buildArchModel(Out, Arch, Resolved, Diags);
  if (!Model)
    return std::nullopt;
  return ResolvedSpec{Arch, Resolved, std::move(Out), std::move(Chain),
                      std::make_shared<const ArchModel>(std::move(*Model))};
}

std::optional<ResolvedSpec> SpecRepository::resolve(const std::string &Arch, const std::string &Cpu,
                                                    DiagnosticList &Diags) {
  std::optional<std::string> Path = findArchFile(Arch, "");
  if (!Path) {
    std::string Message = "unknown architecture '" + Arch + "'";
    Message += didYouMean(Arch, archNames());
    Diags.error({"lockwright"}, "", Message);
    return std::nullopt;
  }
  return resolveFile(*Path, Cpu, Diags);
}

std::optional<ResolvedSpec> SpecRepository::resolveFile(const std::string &File, const std::string &Cpu,
                                                        DiagnosticList &Diags) {
  std::vector<std::string> Chain;
  std::optional<SpecNode> Merged = mergeChain(fs::path(File).lexically_normal().string(), Diags, &Chain);
  if (!Merged)
    return std::nullopt;
  SourceLoc Origin = Merged->loc();
  if (const SpecNode *CpuMap = Merged->get("cpus"))
    Origin = CpuMap->keyLoc();
  return finish(std::move(*Merged), Cpu, Origin, std::move(Chain), Diags);
}

std::vector<std::string> SpecRepository::cpuNames(const std::string &Arch, DiagnosticList &Diags) {
  std::optional<ResolvedSpec> R = resolve(Arch, "", Diags);
  std::vector<std::string> Names;
  if (R)
    for (const SpecNode &C : R->Tree.get("cpus")->items())
      Names.push_back(C.value());
  return Names;
}

bool SpecRepository::names(const std::string &Arch, const std::string &Cpu) {
  std::vector<std::string> Archs = archNames();
  if (std::find(Archs.begin(), Archs.end(), Arch) == Archs.end())
    return false;
  if (Cpu.empty())
    return true;
  DiagnosticList Ignored; // a broken spec is reported by the resolve that failed
  std::vector<std::string> Cpus = cpuNames(Arch, Ignored);
  return Ignored.hasErrors() || std::find(Cpus.begin(), Cpus.end(), Cpu) != Cpus.end();
}

std::optional<std::string> SpecRepository::archForTriple(const std::string &Triple, DiagnosticList &Diags,
                                                         bool *SpecsBroken) {
  // The most specific pattern wins ("x86_64-*" over a catch-all "*").
  std::string Best;
  size_t BestScore = 0;
  bool Tie = false;
  DiagnosticList Broken; // specs whose patterns cannot be read: any of them might have matched
  for (const std::string &Name : archNames()) {
    std::optional<std::string> Path = findArchFile(Name, "");
    if (!Path)
      continue;
    // Only patterns the spec writes itself count; an inherited catch-all would match everything.
    for (const std::string &Pattern : ownTriples(*Path, Broken)) {
      if (!globMatches(Pattern, Triple))
        continue;
      size_t Score = 1 + std::count_if(Pattern.begin(), Pattern.end(), [](char C) { return C != '*' && C != '?'; });
      if (Score > BestScore) {
        Best = Name;
        BestScore = Score;
        Tie = false;
      } else if (Score == BestScore && Name != Best) {
        Tie = true;
      }
    }
  }
  if (SpecsBroken)
    *SpecsBroken = Broken.hasErrors();
  if (Broken.hasErrors()) {
    Diags.append(Broken);
    Diags.error({"lockwright"}, "", "cannot tell which architecture spec matches target triple '" + Triple +
                                        "': the spec files above do not load");
    return std::nullopt;
  }
  if (Best.empty()) {
    Diags.error({"lockwright"}, "", "no architecture spec matches target triple '" + Triple + "'");
    return std::nullopt;
  }
  if (Tie) {
    Diags.error({"lockwright"}, "", "several architecture specs match target triple '" + Triple +
                                        "' equally well; make their target.triples patterns distinct");
    return std::nullopt;
  }
  return Best;
}

std::vector<std::string> SpecRepository::ownTriples(const std::string &Path, DiagnosticList &Broken) {
  auto Patterns = [](const SpecNode *Triples) {
    std::vector<std::string> Out;
    if (Triples)
      for (const SpecNode &Pattern : Triples->items())
        Out.push_back(Pattern.value());
    return Out;
  };
  if (auto It = FileCache.find(Path); It != FileCache.end())
    return Patterns(It->second.Root ? It->second.Root->at("target.triples") : nullptr);
  // The top-level `target:` block: from its key at column 0 to the next line that starts
  // another top-level key. Lines before it are blanked, not dropped, so positions stay true.
  std::string Text = readFile(Path).value_or("");
  if (std::optional<SpecNode> Shipped = prebuiltTree(Text, Path, "target"))
    return Patterns(Shipped->at("target.triples"));
  std::string Block;
  bool Inside = false, Found = false;
  for (size_t Begin = 0; Begin < Text.size();) {
    size_t End = Text.find('\n', Begin);
    End = End == std::string::npos ? Text.size() : End + 1;
    std::string Line = Text.substr(Begin, End - Begin);
    bool TopLevel = !Line.empty() && Line[0] != ' ' && Line[0] != '\t' && Line[0] != '#' && Line[0] != '\n' &&
                    Line[0] != '\r';
    if (TopLevel) {
      Inside = Line.compare(0, 7, "target:") == 0 && !Found;
      Found |= Inside;
    }
    Block += Inside ? Line : "\n";
    Begin = End;
  }
  DiagnosticList Local;
  std::optional<SpecNode> Root;
  if (Found)
    Root = parseYamlText(Block, Path, Local);
  if (Root && Root->isMap()) {
    const SpecNode *Triples = Root->at("target.triples");
    if (!Triples || (Triples->isSequence() && std::all_of(Triples->items().begin(), Triples->items().end(),
                                                          [](const SpecNode &P) { return P.isScalar(); })))
      return Patterns(Triples);
  }
  // Not block style, the block alone does not parse, or its patterns are not a list of strings:
  // read the whole file as everything else does, which says what is wrong with it.
  const LoadedFile &Own = loadArchFile(Path, Local);
  if (!Own.Root)
    Broken.append(Local);
  return Patterns(Own.Root ? Own.Root->at("target.triples") : nullptr);
}

std::vector<ApiNameEntry> apiNameEntries(const SpecNode &Root) {
  std::vector<ApiNameEntry> Entries;
  const SpecNode *Names = Root.get("names");
  if (!Names)
    return Entries;
  Entries.reserve(Names->fields().size());
  for (const auto &[Name, Entry] : Names->fields()) {
    ApiNameEntry E;
    E.Name = Name;
    if (const SpecNode *Op = Entry.get("op"))
      E.Op = Op->value();
    if (const SpecNode *Order = Entry.get("order"))
      E.Order = Order->value();
    if (const SpecNode *Kind = Entry.get("kind"))
      E.Kind = Kind->value();
    if (const SpecNode *Arg = Entry.get("order_arg"))
      E.OrderArg = std::stoi(Arg->value());
    if (const SpecNode *Hw = Entry.get("hardware_rmw"))
      E.HardwareRmw = Hw->value() == "true";
    if (const SpecNode *Member = Entry.get("member"))
      E.Member = Member->value();
    Entries.push_back(E);
  }
  return Entries;
}

std::vector<ApiSpec> SpecRepository::loadApis(DiagnosticList &Diags) {
  std::vector<ApiSpec> Apis;
  std::set<std::string> Paths;
  for (const fs::path &P : yamlFilesUnder(Dirs, "api"))
    Paths.insert(P.string());
  std::map<std::string, std::string> SeenDialects;
  for (const std::string &P : Paths) {
    DiagnosticList Local;
    std::optional<std::string> Text = readSpecFile(P, Local);
    if (!Text) {
      Diags.append(Local);
      continue;
    }
    ApiSpec Spec;
    Spec.Path = P;
    if (std::optional<PrebuiltApi> Shipped = prebuiltApi(*Text)) {
      // A shipped spec unchanged: validated and its entries written out when lockwright was built.
      Spec.Dialect = Shipped->Dialect;
      Spec.Names.assign(Shipped->Names, Shipped->Names + Shipped->Count);
    } else {
      std::optional<SpecNode> Root = parseYamlText(*Text, P, Local);
      if (Root) {
        ValidationContext Ctx{Local, /*Partial=*/false};
        apiSpecSchema()->validate(*Root, "", Ctx);
      }
      if (Local.hasErrors()) {
        Diags.append(Local);
        continue;
      }
      Spec.Dialect = Root->get("dialect")->value();
      Spec.Tree = std::make_shared<const SpecNode>(std::move(*Root));
      Spec.Names = apiNameEntries(*Spec.Tree);
    }
    auto [It, Inserted] = SeenDialects.emplace(Spec.Dialect, P);
    if (Inserted) {
      Apis.push_back(std::move(Spec));
      continue;
    }
    // Where `dialect:` is written, for the error: the prebuilt tables keep only the entries.
    std::optional<SpecNode> Root = Spec.Tree ? std::optional<SpecNode>(*Spec.Tree) : parseYamlText(*Text, P, Local);
    SourceLoc At = Root && Root->get("dialect") ? Root->get("dialect")->loc() : SourceLoc{P, 0, 0};
    Local.error(At, "dialect", "dialect '" + Spec.Dialect + "' is already defined in " + It->second);
    Diags.append(Local);
  }
  return Apis;
}

bool SpecRepository::validateFile(const std::string &File, DiagnosticList &Diags) {
  unsigned Before = Diags.errorCount();
  DiagnosticList Local;
  std::optional<SpecNode> Root = parseYamlFile(File, Local);
  if (!Root) {
    Diags.append(Local);
    return false;
  }
  if (Root->isMap() && Root->get("dialect")) {
    ValidationContext Ctx{Diags, /*Partial=*/false};
    apiSpecSchema()->validate(*Root, "", Ctx);
    return Diags.errorCount() == Before;
  }
  std::optional<ResolvedSpec> Base = resolveFile(File, "", Diags);
  if (!Base)
    return false;
  for (const SpecNode &Cpu : Base->Tree.get("cpus")->items())
    resolveFile(File, Cpu.value(), Diags);
  return Diags.errorCount() == Before;
}

namespace {

std::string executableDir(const char *Argv0) {
  std::error_code EC;
  fs::path Exe = fs::read_symlink("/proc/self/exe", EC);
  if (EC && Argv0)
    Exe = fs::absolute(Argv0, EC);
  return Exe.parent_path().string();
}

std::string findDataDir(const char *EnvVar, const char *Leaf, const char *Argv0) {
  if (const char *Env = std::getenv(EnvVar); Env && *Env)
    return Env;
  fs::path Installed = fs::path(executableDir(Argv0)) / ".." / LOCKWRIGHT_DATA_INSTALL_DIR / Leaf;
  if (fs::is_directory(Installed))
    return Installed.lexically_normal().string();
  return (fs::path(LOCKWRIGHT_SOURCE_DIR) / Leaf).string();
}

} // namespace

std::string defaultSpecDir(const char *Argv0) { return findDataDir("LOCKWRIGHT_SPEC_DIR", "specs", Argv0); }

std::string defaultDocsDir(const char *Argv0) { return findDataDir("LOCKWRIGHT_DOCS_DIR", "docs", Argv0); }

std::string defaultTuneDir(const char *Argv0) { return findDataDir("LOCKWRIGHT_TUNE_DIR", "tune", Argv0); }

std::string defaultTemplateDir(const char *Argv0) {
  return findDataDir("LOCKWRIGHT_TEMPLATE_DIR", "arch-templates", Argv0);
}

} // namespace lockwright
