// `lockwright gen`: resolve the spec, render every artifact in memory, then
// write them; a spec or template error leaves the output directory untouched.
#include "CommandLine.h"
#include "Commands.h"
#include "SpecOptions.h"

#include "FileIO.h"
#include "StringList.h"
#include "emit/Generator.h"
#include "emit/TemplateRenderer.h"
#include "spec/LockAlgorithms.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <set>
#include <sstream>
#include <cstdlib>
#include <filesystem>

namespace lockwright {

namespace {

/// The usage text; the lock lists come from the algorithm table.
std::string genUsage() {
  return "usage: lockwright gen (--arch ARCH|host | --triple TRIPLE | --spec FILE) [--cpu CPU] [--prefix P] -o DIR\n"
         "         [--locks " + joinList(lockPieces(), ",") + "] [--default-lock " + joinList(defaultLockNames(), "|") + "]\n"
         "         [--hash-size N] [--hash-divisor l1|smp] [--hash-unpadded] [--counter-stripes N]\n"
         "         [--artifacts NAME,...] [--spec-dir DIR] [--template-dir DIR] [--quiet] [--print-outputs]\n"
         "\n"
         "Writes into DIR: <prefix>_cache.h, _barrier.h, _cond_wait.h, _spinlock.h, _spinlock.hpp,\n"
         "_lockhash.h, _counter.h (the last four as --locks selects; default all).\n"
         "Files whose content would not change are left untouched.\n"
         "--print-outputs prints the paths it would write, one a line, and writes nothing.\n";
}

/// The options that decide the content, in a fixed order; paths are left out
/// so the same spec gives the same bytes wherever it is generated.
/// The command that regenerates the output, runnable in the output directory: "-o ." and the
/// paths it reads relative to that directory, so the bytes do not depend on where the tree is.
std::string invocationText(const CommandLine &CL) {
  namespace fs = std::filesystem;
  fs::path OutDir = fs::absolute(*CL.get("output")).lexically_normal();
  auto FromOutput = [&](const std::string &Path) {
    fs::path Relative = fs::absolute(Path).lexically_normal().lexically_relative(OutDir);
    return Relative.empty() ? Path : Relative.string();
  };
  std::string Out = "lockwright gen";
  for (const char *Name : {"arch", "triple", "cpu", "prefix", "artifacts", "locks", "default-lock", "hash-size",
                           "hash-divisor", "counter-stripes"})
    if (std::optional<std::string> V = CL.get(Name))
      Out += std::string(" --") + Name + " " + *V;
  if (CL.has("hash-unpadded"))
    Out += " --hash-unpadded";
  for (const char *Name : {"spec", "spec-dir", "template-dir"})
    if (std::optional<std::string> V = CL.get(Name))
      Out += std::string(" --") + Name + " " + shellQuoted(FromOutput(*V));
  Out += " -o .";
  return withoutCommentEnd(Out); // it goes into a comment: a path with "*/" must not end it
}

} // namespace

int runGen(const ToolContext &Tool, const std::vector<std::string> &Args) {
  CommandLine CL;
  declareSpecOptions(CL);
  CL.option("arch");
  CL.option("triple");
  CL.flag("print-outputs");
  CL.option("cpu");
  CL.option("prefix");
  CL.option("spec");
  CL.option("template-dir");
  CL.option("artifacts");
  CL.option("locks");
  CL.option("default-lock");
  CL.option("hash-size");
  CL.option("hash-divisor");
  CL.flag("hash-unpadded");
  CL.option("counter-stripes");
  CL.option("output", {"-o"});
  CL.flag("quiet");
  if (std::optional<int> Exit = parseArguments(CL, Args, genUsage().c_str()))
    return *Exit;
  std::string Error;
  if (!CL.positionals().empty()) {
    reportError("unexpected argument '" + CL.positionals()[0] + "'");
    return ExitUsage;
  }
  if (!CL.has("output") || (CL.has("arch") + CL.has("spec") + CL.has("triple")) != 1) {
    reportError("gen needs -o DIR and exactly one of --arch, --triple or --spec");
    std::fputs(genUsage().c_str(), stderr);
    return ExitUsage;
  }
  GenOptions Options;
  Options.Prefix = CL.getOr("prefix", "lw");
  if (!isValidPrefix(Options.Prefix)) {
    reportError("--prefix '" + Options.Prefix + "' is not a C identifier");
    return ExitUsage;
  }
  Options.Artifacts = splitList(CL.getOr("artifacts", ""));
  Options.Locks = splitList(CL.getOr("locks", ""));
  Options.DefaultLock = CL.getOr("default-lock", "");
  Options.HashDivisor = CL.getOr("hash-divisor", Options.HashDivisor);
  Options.HashPadded = !CL.has("hash-unpadded");
  for (auto [Name, Target] : {std::pair<const char *, unsigned *>{"hash-size", &Options.HashSize},
                              {"counter-stripes", &Options.CounterStripes}}) {
    if (std::optional<std::string> V = CL.get(Name)) {
      char *End = nullptr;
      errno = 0;
      unsigned long N = std::strtoul(V->c_str(), &End, 10);
      if (V->empty() || *End != '\0' || V->front() == '-') {
        reportError(std::string("--") + Name + " takes a number, not '" + *V + "'");
        return ExitUsage;
      }
      if (errno == ERANGE || N > 1u << 20) {
        reportError(std::string("--") + Name + " " + *V + " is out of range (at most " + std::to_string(1u << 20) + ")");
        return ExitUsage;
      }
      *Target = static_cast<unsigned>(N);
    }
  }
  Options.Invocation = invocationText(CL);

  std::optional<SpecRepository> Specs = makeRepository(Tool, CL);
  if (!Specs)
    return ExitUsage;
  SpecRepository &Repo = *Specs;
  DiagnosticList Diags;
  std::optional<ResolvedSpec> Spec;
  std::string Cpu = CL.getOr("cpu", "");
  if (CL.has("spec")) {
    Spec = Repo.resolveFile(*CL.get("spec"), Cpu, Diags);
  } else if (CL.has("triple")) {
    if (std::optional<std::string> Arch = Repo.archForTriple(*CL.get("triple"), Diags))
      Spec = Repo.resolve(*Arch, Cpu, Diags);
  } else if (std::optional<std::string> Arch = resolveArchName(Repo, *CL.get("arch"), Diags)) {
    Spec = Repo.resolve(*Arch, Cpu, Diags);
    if (!Spec && !Repo.names(*Arch, Cpu)) {
      Diags.print(stderr);
      return ExitUsage;
    }
  }
  std::optional<std::vector<GeneratedFile>> Files;
  if (Spec) {
    TemplateSet Templates(CL.getOr("template-dir", defaultTemplateDir(Tool.Argv0)));
    Files = generate(*Spec, Templates, Options, Diags);
  }
  if (!CL.has("quiet") || Diags.hasErrors()) // --quiet keeps the notes of a good run to itself
    Diags.print(stderr);
  if (!Files)
    return ExitError;

  std::filesystem::path OutDir(*CL.get("output"));
  if (CL.has("print-outputs")) {
    // What would be written, one path a line, writing nothing (for build systems).
    for (const GeneratedFile &F : *Files)
      std::printf("%s\n", (OutDir / F.Name).string().c_str());
    return ExitOk;
  }
  // All or nothing: an obstacle, a full disk or Ctrl-C leaves the previous headers, not a mix
  // of two architectures'.
  std::vector<std::pair<std::string, std::string>> Set;
  std::set<std::string> Names;
  for (const GeneratedFile &F : *Files) {
    Set.emplace_back((OutDir / F.Name).string(), F.Text);
    Names.insert(F.Name);
  }
  // A listing of what gen wrote here (with this prefix), "artifact<TAB>file" a line: a file an
  // earlier run wrote for an artifact this run renders, and this run does not write, is stale
  // (the other architecture's .S) and goes. Only such files: nothing gen did not write.
  std::filesystem::path Manifest = OutDir / (".lockwright-gen." + Options.Prefix);
  std::optional<std::string> Previous = readFile(Manifest.string());
  auto InScope = [&](const std::string &Artifact) {
    return Options.Artifacts.empty() ||
           std::find(Options.Artifacts.begin(), Options.Artifacts.end(), Artifact) != Options.Artifacts.end();
  };
  std::vector<std::string> Stale;
  std::string Listing;
  std::istringstream Old(Previous.value_or(""));
  for (std::string Line; std::getline(Old, Line);) {
    size_t Tab = Line.find('\t');
    if (Tab == std::string::npos)
      continue;
    std::string Artifact = Line.substr(0, Tab), Name = Line.substr(Tab + 1);
    if (Names.count(Name) || Name.empty() || Name.find('/') != std::string::npos)
      continue;
    if (InScope(Artifact))
      Stale.push_back(Name);
    else
      Listing += Line + "\n"; // another artifact's file: kept, and still listed
  }
  for (const GeneratedFile &F : *Files)
    Listing += F.Artifact + "\t" + F.Name + "\n";
  Set.emplace_back(Manifest.string(), Listing);
  // The set and the removal of stale files are one step for a signal, too.
  SignalsDeferred Deferred;
  FileSetOutcome Result = writeFileSet(Set);
  if (!Result.Ok) {
    reportError(Result.Error);
    return ExitError;
  }
  for (const std::string &Name : Stale)
    if (std::filesystem::is_regular_file(OutDir / Name))
      std::filesystem::remove(OutDir / Name);
  // The summary counts what was generated, not the listing.
  bool ListingChanged = Previous != Listing;
  unsigned Written = Result.Written - (ListingChanged ? 1 : 0);
  unsigned Unchanged = Result.Unchanged - (ListingChanged ? 0 : 1);
  if (!CL.has("quiet"))
    std::fprintf(stderr, "lockwright: %s%s -> %s: %u written, %u unchanged\n", Spec->Arch.c_str(),
                 Spec->Cpu.empty() ? "" : (" (" + Spec->Cpu + ")").c_str(), OutDir.string().c_str(), Written,
                 Unchanged);
  return ExitOk;
}

} // namespace lockwright
