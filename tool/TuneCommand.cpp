// `lockwright tune`: measure on this machine what the specs can only cite (the destructive
// distance, the best default lock and counter, the cost of a poll) and write it as a spec
// overlay. The measuring is a probe program built here, with the C compiler users build with,
// against the headers lockwright generates for this machine: the figures are those of the
// generated code, at -O2, whatever build of lockwright runs it. The judgement is TuneAnalysis.
#include "CommandLine.h"
#include "Commands.h"
#include "SpecOptions.h"

#include "FileIO.h"
#include "LockwrightConfig.h"
#include "emit/Generator.h"
#include "emit/TemplateRenderer.h"
#include "spec/ArchModel.h"
#include "spec/Schema.h"
#include "tune/TuneAnalysis.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

namespace lockwright {

namespace {

namespace fs = std::filesystem;

const char TuneUsage[] =
    "usage: lockwright tune [--arch host] [--cpu CPU] [--threads N] [--quick] [-o OVERLAY.yaml]\n"
    "         [--name NAME] [--compare] [--cc COMPILER] [--raw FILE] [--probe-results FILE]\n"
    "         [--spec-dir DIR] [--template-dir DIR] [--quiet]\n"
    "\n"
    "Measures this machine: the destructive distance (two writers on distinct cores, 8 to 512\n"
    "bytes apart), the generated locks' throughput and fairness with 1 to N threads, atomic\n"
    "against striped counters, the cost of cpu_relax and of one poll. Medians of interleaved\n"
    "repeated runs with their spread; a difference the noise cannot separate keeps the cited value.\n"
    "\n"
    "  -o FILE            write the overlay: inherits the arch (and --cpu's variant), each measured\n"
    "                     fact with its source; use it with gen --spec and check --spec\n"
    "                     (-o -, or neither -o nor --compare: the overlay goes to stdout)\n"
    "  --compare          print measured against cited values\n"
    "  --threads N        the most threads for locks and counters (default: the CPUs it may run on)\n"
    "  --quick            short runs (a smoke test: the figures are rough)\n"
    "  --name NAME        the overlay's spec name (default: the file's stem, else ARCH-tuned)\n"
    "  --cc COMPILER      the C compiler for the probe (default: $CC, else cc)\n"
    "  --raw FILE         also write every figure (and the machine facts) as CSV\n"
    "  --probe-results FILE\n"
    "                     judge a recording --raw wrote instead of measuring (tests, reruns):\n"
    "                     against the spec it names (--arch and --cpu, if given, must agree)\n";

/// How long and how often each measurement runs.
struct Plan {
  unsigned long DistanceIterations, CounterIterations, WaitIterations;
  unsigned Repeats, LockMilliseconds;
  std::vector<unsigned> Distances;
};

Plan planFor(bool Quick) {
  if (Quick)
    return {500000, 100000, 100000, 3, 20, {8, 32, 64, 128, 256, 512}};
  return {20000000, 2000000, 2000000, 11, 200, {8, 16, 32, 48, 64, 96, 128, 192, 256, 384, 512}};
}

std::string firstLine(const std::string &Path) {
  std::ifstream In(Path);
  std::string Line;
  std::getline(In, Line);
  return Line;
}

unsigned readNumber(const std::string &Path) {
  std::string Text = firstLine(Path);
  return static_cast<unsigned>(std::strtoul(Text.c_str(), nullptr, 10));
}

/// The CPU's name as /proc/cpuinfo spells it on this architecture.
std::string cpuModel() {
  std::ifstream In("/proc/cpuinfo");
  std::map<std::string, std::string> Seen;
  for (std::string Line; std::getline(In, Line);) {
    size_t Colon = Line.find(':');
    if (Colon == std::string::npos)
      continue;
    std::string Key = Line.substr(0, Line.find_last_not_of(" \t", Colon - 1) + 1);
    std::string Value = Line.substr(std::min(Line.size(), Colon + 2));
    Seen.emplace(Key, Value);
  }
  for (const char *Key : {"model name", "cpu model", "cpu", "Processor", "uarch", "CPU part"})
    if (auto It = Seen.find(Key); It != Seen.end() && !It->second.empty())
      return It->second;
  return "an unnamed CPU";
}

std::string today() {
  std::time_t Now = std::time(nullptr);
  char Buffer[32];
  std::strftime(Buffer, sizeof Buffer, "%Y-%m-%d", std::gmtime(&Now));
  return Buffer;
}

/// The CPUs this process may run on, one per core first, then their SMT siblings.
std::vector<int> cpusByCore(std::vector<int> &CoreOf) {
  cpu_set_t Allowed;
  CPU_ZERO(&Allowed);
  std::vector<int> Cpus;
  if (sched_getaffinity(0, sizeof Allowed, &Allowed) != 0)
    return Cpus;
  std::vector<int> Firsts, Rest;
  std::set<std::pair<unsigned, unsigned>> Cores;
  std::map<std::pair<unsigned, unsigned>, int> CoreIndex;
  CoreOf.assign(CPU_SETSIZE, -1);
  for (int Cpu = 0; Cpu < CPU_SETSIZE; ++Cpu) {
    if (!CPU_ISSET(Cpu, &Allowed))
      continue;
    std::string Topology = "/sys/devices/system/cpu/cpu" + std::to_string(Cpu) + "/topology/";
    std::pair<unsigned, unsigned> Core{readNumber(Topology + "physical_package_id"),
                                       fs::exists(Topology + "core_id") ? readNumber(Topology + "core_id")
                                                                        : static_cast<unsigned>(Cpu)};
    auto [It, New] = CoreIndex.emplace(Core, static_cast<int>(CoreIndex.size()));
    CoreOf[Cpu] = It->second;
    (New ? Firsts : Rest).push_back(Cpu);
  }
  Cpus = Firsts;
  Cpus.insert(Cpus.end(), Rest.begin(), Rest.end());
  return Cpus;
}

std::string joined(const std::vector<unsigned> &Values) {
  std::string Out;
  for (unsigned V : Values)
    Out += (Out.empty() ? "" : ",") + std::to_string(V);
  return Out;
}

/// Runs Program with Args, its stdout into OutFile; false with Error on failure.
bool runProgram(const std::string &Program, const std::vector<std::string> &Args, const std::string &OutFile,
                const std::string &ErrFile, std::string &Error) {
  std::vector<llvm::StringRef> Argv = {Program};
  for (const std::string &A : Args)
    Argv.push_back(A);
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, llvm::StringRef(OutFile), llvm::StringRef(ErrFile)};
  std::string ExecError;
  int Status = llvm::sys::ExecuteAndWait(Program, Argv, std::nullopt, Redirects, 0, 0, &ExecError);
  if (Status == 0)
    return true;
  std::string Said = readFile(ErrFile).value_or("");
  Error = fs::path(Program).filename().string() + (ExecError.empty() ? " failed (exit " + std::to_string(Status) + ")" : ": " + ExecError) +
          (Said.empty() ? "" : ":\n" + Said);
  return false;
}

bool samePath(const std::string &A, const std::string &B) {
  std::error_code EC;
  return fs::weakly_canonical(A, EC) == fs::weakly_canonical(B, EC);
}

/// Whether Path can be written later (a regular file or none, in a directory this process may
/// write or create), so that a run does not measure for 20 s and then fail to save.
bool writablePath(const std::string &Path, std::string &Error) {
  if (!regularOutputPath(Path, Error))
    return false;
  std::error_code EC;
  fs::path Dir = fs::absolute(Path, EC).parent_path();
  while (!Dir.empty() && !fs::exists(Dir, EC) && Dir != Dir.parent_path())
    Dir = Dir.parent_path();
  // A file made and removed there: permissions alone do not say (root in /proc, a read-only mount).
  std::string Trial = (Dir / ".lockwright-tune-XXXXXX").string();
  int Fd = fs::is_directory(Dir, EC) ? mkstemp(Trial.data()) : -1;
  if (Fd < 0) {
    Error = "cannot write in " + Dir.string();
    return false;
  }
  close(Fd);
  fs::remove(Trial, EC);
  return true;
}

/// A scratch directory removed when the run ends.
struct ScratchDir {
  std::string Path;
  ScratchDir() {
    std::error_code EC;
    fs::path Tmp = fs::temp_directory_path(EC); // $TMPDIR, or /tmp
    std::string Template = ((EC ? fs::path("/tmp") : Tmp) / "lockwright-tune-XXXXXX").string();
    if (char *Made = mkdtemp(Template.data()))
      Path = Made;
  }
  ~ScratchDir() {
    std::error_code EC;
    if (!Path.empty())
      fs::remove_all(Path, EC);
  }
};

} // namespace

int runTune(const ToolContext &Tool, const std::vector<std::string> &Args) {
  CommandLine CL;
  declareSpecOptions(CL);
  CL.option("arch");
  CL.option("cpu");
  CL.option("threads");
  CL.flag("quick");
  CL.option("output", {"-o"});
  CL.option("name");
  CL.flag("compare");
  CL.option("cc");
  CL.option("raw");
  CL.option("probe-results");
  CL.option("template-dir");
  CL.flag("quiet");
  if (std::optional<int> Exit = parseArguments(CL, Args, TuneUsage))
    return *Exit;
  if (!CL.positionals().empty()) {
    reportError("unexpected argument '" + CL.positionals()[0] + "'");
    return ExitUsage;
  }
  bool Quiet = CL.has("quiet");
  auto Progress = [&](const std::string &Text) {
    if (!Quiet)
      std::fprintf(stderr, "lockwright tune: %s\n", Text.c_str());
  };
  std::optional<SpecRepository> Specs = makeRepository(Tool, CL);
  if (!Specs)
    return ExitUsage;
  SpecRepository &Repo = *Specs;

  // Everything that can be wrong with the command line is said before a measurement starts.
  std::optional<std::string> Output = CL.get("output"), Raw = CL.get("raw"), Recording = CL.get("probe-results");
  bool OverlayToStdout = Output && *Output == "-";
  if (Recording && CL.has("threads")) {
    reportError("--threads says how to measure; a recording (--probe-results) was measured already");
    return ExitUsage;
  }
  std::vector<std::pair<const char *, std::string>> Writes;
  if (Output && !OverlayToStdout)
    Writes.emplace_back("-o", *Output);
  if (Raw)
    Writes.emplace_back("--raw", *Raw);
  for (size_t I = 0; I < Writes.size(); ++I) {
    std::string Error;
    if (Writes[I].second.empty() || !writablePath(Writes[I].second, Error)) {
      reportError(std::string(Writes[I].first) + " " + Writes[I].second + ": " +
                  (Writes[I].second.empty() ? "an empty path" : Error));
      return ExitUsage;
    }
    for (size_t J = 0; J < I; ++J)
      if (samePath(Writes[I].second, Writes[J].second)) {
        reportError(std::string(Writes[J].first) + " and " + Writes[I].first + " name the same file");
        return ExitUsage;
      }
    if (Recording && samePath(Writes[I].second, *Recording)) {
      reportError(std::string(Writes[I].first) + " " + Writes[I].second + " would overwrite the recording it judges");
      return ExitUsage;
    }
  }
  std::vector<std::string> ArchNames = Repo.archNames();
  auto UsableName = [&](const std::string &Name) {
    return isSpecName(Name) && std::find(ArchNames.begin(), ArchNames.end(), Name) == ArchNames.end();
  };
  // An overlay finds its parent beside itself first: x86_64.yaml would be its own parent.
  if (Output && !OverlayToStdout) {
    std::string Stem = fs::path(*Output).stem().string();
    if (std::find(ArchNames.begin(), ArchNames.end(), Stem) != ArchNames.end() && fs::path(*Output).extension() == ".yaml") {
      reportError("-o " + *Output + ": an overlay named after an architecture would be found as its own parent; "
                  "name the file otherwise (" + Stem + "-tuned.yaml)");
      return ExitUsage;
    }
  }
  if (std::optional<std::string> Name = CL.get("name"); Name && !UsableName(*Name)) {
    reportError("--name '" + *Name + "' " +
                (isSpecName(*Name) ? "is an architecture's name; the overlay inherits from it and needs its own"
                                   : "is not a spec name (letters, digits, '_', '-', '.' and '+')"));
    return ExitUsage;
  }

  TuneReport Report;
  MachineFacts &Machine = Report.Machine;
  std::string Error;
  if (Recording) {
    std::error_code EC;
    bool Directory = fs::is_directory(*Recording, EC);
    std::optional<std::string> Text = Directory ? std::nullopt : readFile(*Recording);
    if (!Text) {
      reportError("cannot read " + *Recording + ": " + (Directory ? "it is a directory" : std::strerror(errno)));
      return ExitError;
    }
    if (!parseProbeRows(*Text, Report.Samples, &Machine, Error)) {
      reportError(*Recording + ": " + Error);
      return ExitError;
    }
    std::string Missing = Machine.Arch.empty()     ? "which architecture it measured (machine,arch)"
                          : Machine.CpuModel.empty() ? "which CPU it measured (machine,cpu_model)"
                          : !Report.Samples.Complete ? "its end (the end row --raw writes last): it is cut short"
                                                     : "";
    if (!Missing.empty()) {
      reportError(*Recording + " is not a recording --raw wrote: it does not say " + Missing);
      return ExitError;
    }
  }

  // The spec measured against: the host's, or the one the recording names.
  DiagnosticList Diags, HostDiags;
  std::optional<std::string> Host = Recording ? std::nullopt : resolveArchName(Repo, "host", HostDiags);
  if (!Recording && !Host) {
    HostDiags.print(stderr);
    return ExitError;
  }
  std::optional<std::string> Arch = Recording ? Machine.Arch : Host;
  std::string Cpu = Recording ? Machine.CpuVariant : CL.getOr("cpu", "");
  if (std::optional<std::string> Asked = CL.get("arch")) {
    std::optional<std::string> AskedArch = resolveArchName(Repo, *Asked, Diags);
    if (AskedArch && !Repo.names(*AskedArch, "")) {
      Repo.resolve(*AskedArch, "", Diags); // says "unknown architecture", with a did-you-mean
      Diags.print(stderr);
      return ExitUsage;
    }
    if (AskedArch && AskedArch != Arch) {
      reportError(Recording ? *Recording + " measured " + *Arch + "; --arch " + *Asked + " is another"
                            : "tune measures the machine it runs on (" + Host.value_or("unknown") + "); --arch " +
                                  *Asked + " is another (judge a recording of that machine with --probe-results)");
      return ExitUsage;
    }
  }
  if (Recording && CL.has("cpu") && *CL.get("cpu") != Cpu) {
    reportError(*Recording + " measured " + (Cpu.empty() ? std::string("the base spec") : "CPU variant " + Cpu) +
                " of " + *Arch + "; --cpu " + *CL.get("cpu") + " is another");
    return ExitUsage;
  }
  std::optional<ResolvedSpec> Spec = Arch ? Repo.resolve(*Arch, Cpu, Diags) : std::nullopt;
  if (!Spec) {
    Diags.print(stderr);
    // A recording naming what the specs lack is bad input; a --cpu the user got wrong, usage.
    return !Recording && Arch && !Repo.names(*Arch, Cpu) ? ExitUsage : ExitError;
  }
  const ArchModel &Model = Spec->model();
  CitedFacts &Cited = Report.Cited;
  Cited.Arch = Spec->Arch;
  Cited.Cpu = Spec->Cpu;
  Cited.L1Line = static_cast<unsigned>(Model.Cache.L1Line.Value);
  Cited.L1LineSource = Model.Cache.L1Line.Source;
  Cited.Destructive = static_cast<unsigned>(Model.Cache.Destructive.Value);
  Cited.DestructiveSource = Model.Cache.Destructive.Source;
  Cited.DefaultLock = Model.DefaultLock.Value;
  Cited.DefaultLockSource = Model.DefaultLock.Source;
  Cited.Counter = Model.Counter.Value;
  Cited.CounterSource = Model.Counter.Source;

  ScratchDir Scratch;
  if (Scratch.Path.empty()) {
    reportError(std::string("cannot make a scratch directory: ") + std::strerror(errno));
    return ExitError;
  }
  if (!Recording) {
    std::vector<int> CoreOf;
    std::vector<int> Cpus = cpusByCore(CoreOf);
    unsigned Usable = Cpus.empty() ? 1 : static_cast<unsigned>(Cpus.size());
    // The probe runs at most 256 threads (and the largest count decides): more CPUs than that
    // are measured at 256.
    unsigned MaxThreads = std::min(Usable, 256u);
    if (std::optional<std::string> T = CL.get("threads")) {
      char *End = nullptr;
      unsigned long N = std::strtoul(T->c_str(), &End, 10);
      if (T->empty() || *End || N < 1 || N > 256) {
        reportError("--threads takes a number from 1 to 256, not '" + *T + "'");
        return ExitUsage;
      }
      MaxThreads = static_cast<unsigned>(N);
      if (MaxThreads > Usable)
        Progress("--threads " + *T + " is more than the " + std::to_string(Usable) +
                 " CPUs to run on: spinning threads then wait for the scheduler, not the lock");
    }
    Machine.Version = LOCKWRIGHT_VERSION;
    Machine.Arch = Spec->Arch;
    Machine.CpuVariant = Spec->Cpu;
    Machine.Quick = CL.has("quick");
    Machine.CpuModel = machineText(cpuModel());
    struct utsname Uname;
    Machine.Kernel =
        machineText(uname(&Uname) == 0 ? std::string(Uname.sysname) + " " + Uname.release : "an unnamed kernel");
    Machine.Date = today();
    Machine.OnlineCpus = Usable;
    long L1 = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
    Machine.OsL1Line = L1 > 0 && L1 <= MaxDistance ? lineSizeOrNone(static_cast<unsigned>(L1)) : 0;
    Machine.OsCoherencyLine = lineSizeOrNone(readNumber("/sys/devices/system/cpu/cpu0/cache/index0/coherency_line_size"));

    // The probe, against this machine's headers (the queued lock as lwt_spin_lock).
    GenOptions Options;
    Options.Prefix = "lwt";
    Options.DefaultLock = "mcs";
    Options.Invocation = "lockwright tune";
    TemplateSet Templates(CL.getOr("template-dir", defaultTemplateDir(Tool.Argv0)));
    std::optional<std::vector<GeneratedFile>> Files = generate(*Spec, Templates, Options, Diags);
    if (!Files) {
      Diags.print(stderr);
      return ExitError;
    }
    std::vector<std::pair<std::string, std::string>> Set;
    for (const GeneratedFile &F : *Files)
      Set.emplace_back(Scratch.Path + "/" + F.Name, F.Text);
    if (FileSetOutcome Wrote = writeFileSet(Set); !Wrote.Ok) {
      reportError(Wrote.Error);
      return ExitError;
    }
    std::string ProbeSource = defaultTuneDir(Tool.Argv0) + "/probe.c";
    if (std::error_code EC; !fs::is_regular_file(ProbeSource, EC)) {
      reportError("no probe source at " + ProbeSource + " (set LOCKWRIGHT_TUNE_DIR)");
      return ExitError;
    }
    std::string Compiler = CL.getOr("cc", std::getenv("CC") && *std::getenv("CC") ? std::getenv("CC") : "cc");
    llvm::ErrorOr<std::string> CompilerPath = llvm::sys::findProgramByName(Compiler);
    if (!CompilerPath || !llvm::sys::fs::can_execute(*CompilerPath)) {
      reportError("no C compiler '" + Compiler + "' (give one with --cc or $CC)");
      return ExitError;
    }
    std::string Probe = Scratch.Path + "/probe", Err = Scratch.Path + "/err.txt";
    Progress("building the probe with " + Compiler + " against " + Spec->Arch + "'s headers");
    if (!runProgram(*CompilerPath, {"-O2", "-std=gnu11", "-pthread", "-I", Scratch.Path, ProbeSource, "-o", Probe},
                    Scratch.Path + "/cc.txt", Err, Error)) {
      reportError("cannot build the probe: " + Error);
      return ExitError;
    }

    std::string CpuList;
    for (int C : Cpus)
      CpuList += (CpuList.empty() ? "" : ",") + std::to_string(C);
    if (Cpus.size() >= 2) {
      Machine.DistanceCpus = {Cpus[0], Cpus[1]};
      Machine.DistanceSiblings = CoreOf[Cpus[0]] == CoreOf[Cpus[1]];
    } else {
      CpuList = "-1";
    }
    std::vector<unsigned> Threads;
    for (unsigned T = 1; T < MaxThreads; T *= 2)
      Threads.push_back(T);
    Threads.push_back(MaxThreads);

    Plan P = planFor(Machine.Quick);
    std::string Repeats = std::to_string(P.Repeats);
    struct Step {
      std::string What;
      std::vector<std::string> Args;
    };
    std::vector<Step> Steps;
    if (Cpus.size() >= 2)
      Steps.push_back({"destructive distance (" + std::to_string(P.Distances.size()) + " distances)",
                       {"distance", std::to_string(Machine.DistanceCpus.first),
                        std::to_string(Machine.DistanceCpus.second), std::to_string(P.DistanceIterations), Repeats,
                        joined(P.Distances)}});
    else
      Progress("only one CPU to run on: two writers only take turns, so the destructive distance is not measured");
    Steps.push_back({"locks (every generated lock; " + joined(Threads) + " threads)",
                     {"lock", joined(Threads), std::to_string(P.LockMilliseconds), Repeats, CpuList}});
    Steps.push_back({"counters (atomic, striped, per-thread)",
                     {"counter", joined(Threads), std::to_string(P.CounterIterations), Repeats, CpuList}});
    Steps.push_back({"cpu_relax and one poll", {"wait", std::to_string(P.WaitIterations), Repeats}});
    for (const Step &S : Steps) {
      Progress(S.What + ", " + Repeats + " interleaved runs each");
      // A file per step: a redirect does not truncate what an earlier step left.
      std::string StepOut = Scratch.Path + "/" + S.Args.front() + ".csv";
      bool Ran = runProgram(Probe, S.Args, StepOut, Err, Error);
      // A failed run may still have said why on stdout (a lock that lost updates).
      std::string Said;
      if (!parseProbeRows(readFile(StepOut).value_or(""), Report.Samples, nullptr, Said) || !Ran) {
        Error = Said.empty() ? Error : Said;
        reportError("the probe failed measuring " + S.What + ": " + Error);
        return ExitError;
      }
    }
  }
  decideAll(Report);

  if (Raw && writeFileIfChanged(*Raw, probeRowsText(Report.Samples, Machine), Error) == WriteOutcome::Failed) {
    reportError(Error);
    return ExitError;
  }

  // The overlay, validated by resolving it as gen and check will before it is written.
  std::string Name = CL.getOr("name", "");
  if (Name.empty()) {
    std::string Stem = Output && !OverlayToStdout ? fs::path(*Output).stem().string() : "";
    Name = UsableName(Stem) ? Stem : Spec->Arch + "-tuned";
  }
  std::string Overlay = renderOverlay(Report, Name);
  // Checked where it will live: its parent is looked up beside it first, so a stray
  // <arch>.yaml there would be the parent gen and check find.
  std::error_code EC;
  fs::path Beside = Output && !OverlayToStdout ? fs::absolute(*Output, EC).parent_path() : fs::path(Scratch.Path);
  fs::create_directories(Beside, EC);
  std::string Check = (Beside / (".lockwright-tune-check-" + fs::path(Scratch.Path).filename().string() + ".yaml")).string();
  if (writeFileIfChanged(Check, Overlay, Error) == WriteOutcome::Failed) {
    reportError(Error);
    return ExitError;
  }
  DiagnosticList OverlayDiags;
  bool Resolves = SpecRepository(Repo).resolveFile(Check, "", OverlayDiags).has_value();
  fs::remove(Check, EC);
  if (!Resolves) {
    OverlayDiags.print(stderr);
    reportError(std::string("the overlay does not resolve: a bug in tune") +
                (Raw ? " (the figures are in " + *Raw + ")" : ""));
    return ExitError;
  }
  if (CL.has("compare") && !writeStdout(renderComparison(Report), Error)) {
    reportError(Error);
    return ExitError;
  }
  if (Output && !OverlayToStdout) {
    if (writeFileIfChanged(*Output, Overlay, Error) == WriteOutcome::Failed) {
      reportError(Error);
      return ExitError;
    }
    Progress("wrote " + *Output + " (spec " + Name + ", inherits " + Spec->Arch +
             (Spec->Cpu.empty() ? "" : " cpu " + Spec->Cpu) + ")");
  } else if ((OverlayToStdout || !CL.has("compare")) && !writeStdout(Overlay, Error)) {
    reportError(Error);
    return ExitError;
  }
  return ExitOk;
}

} // namespace lockwright
