// `lockwright spec list|show|validate`.
#include "CommandLine.h"
#include "Commands.h"
#include "CommandHelp.h"
#include "SpecOptions.h"

#include "FileIO.h"
#include "spec/SpecLoader.h"

#include <cstdio>

namespace lockwright {

namespace {

const char SpecUsage[] = "usage: lockwright spec list [--spec-dir DIR]\n"
                         "       lockwright spec show ARCH|host|FILE.yaml [--cpu CPU] [--spec-dir DIR]\n"
                         "       lockwright spec validate FILE... [--spec-dir DIR]\n";

int listSpecs(SpecRepository &Repo) {
  DiagnosticList Diags;
  std::vector<std::string> Names = Repo.archNames();
  std::optional<std::string> Host = Repo.archForTriple(std::string(LOCKWRIGHT_HOST_TRIPLE), Diags);
  std::string Out;
  for (const std::string &Arch : Names) {
    std::vector<std::string> Cpus = Repo.cpuNames(Arch, Diags);
    std::string Line = Arch;
    Line.resize(std::max<size_t>(Line.size() + 1, 14), ' ');
    std::string List;
    for (const std::string &C : Cpus)
      List += (List.empty() ? "" : ", ") + C;
    Line += "cpus: " + (List.empty() ? std::string("-") : List);
    if (Host && *Host == Arch)
      Line += "  (host)";
    Out += Line + "\n";
  }
  Diags.print(stderr);
  std::string Error;
  if (!writeStdout(Out, Error)) {
    reportError(Error);
    return ExitError;
  }
  return Diags.hasErrors() ? ExitError : ExitOk;
}

} // namespace

int runSpec(const ToolContext &Tool, const std::vector<std::string> &Args) {
  if (Args.empty() || Args[0] == "--help" || Args[0] == "-h") {
    std::fputs(SpecUsage, Args.empty() ? stderr : stdout);
    if (!Args.empty())
      std::fputs(ExitStatusHelp, stdout);
    return Args.empty() ? ExitUsage : ExitOk;
  }
  std::string Verb = Args[0];
  CommandLine CL;
  declareSpecOptions(CL);
  CL.option("cpu");
  std::string Error;
  if (!CL.parse({Args.begin() + 1, Args.end()}, Error)) {
    reportError(Error);
    return ExitUsage;
  }
  std::optional<SpecRepository> Specs = makeRepository(Tool, CL);
  if (!Specs)
    return ExitUsage;
  SpecRepository &Repo = *Specs;

  if (Verb == "list")
    return listSpecs(Repo);

  if (Verb == "show") {
    if (CL.positionals().size() != 1) {
      reportError("spec show takes one architecture name");
      return ExitUsage;
    }
    DiagnosticList Diags;
    const std::string &Name = CL.positionals()[0];
    // A path names a spec file (a `lockwright tune` overlay); a bare word an architecture.
    bool IsFile = Name.find('/') != std::string::npos ||
                  (Name.size() > 5 && Name.compare(Name.size() - 5, 5, ".yaml") == 0);
    std::optional<std::string> Arch = IsFile ? std::nullopt : resolveArchName(Repo, Name, Diags);
    std::optional<ResolvedSpec> Spec = IsFile ? Repo.resolveFile(Name, CL.getOr("cpu", ""), Diags)
                                       : Arch ? Repo.resolve(*Arch, CL.getOr("cpu", ""), Diags)
                                              : std::nullopt;
    Diags.print(stderr);
    if (!Spec)
      return Arch && !Repo.names(*Arch, CL.getOr("cpu", "")) ? ExitUsage : ExitError;
    std::string Text = "# resolved spec " + Spec->Arch + " (cpu " + (Spec->Cpu.empty() ? "base" : Spec->Cpu) +
                       "), hash " + Spec->hash() + "\n" + Spec->Tree.toYaml();
    if (!writeStdout(Text, Error)) {
      reportError(Error);
      return ExitError;
    }
    return ExitOk;
  }

  if (Verb == "validate") {
    if (CL.positionals().empty()) {
      reportError("spec validate takes one or more files");
      return ExitUsage;
    }
    bool AllValid = true;
    for (const std::string &File : CL.positionals()) {
      DiagnosticList Diags;
      bool Valid = Repo.validateFile(File, Diags);
      Diags.print(stderr);
      if (Valid)
        std::printf("%s: valid\n", File.c_str());
      AllValid &= Valid;
    }
    return AllValid ? ExitOk : ExitError;
  }

  reportError("unknown spec command '" + Verb + "' (expected list, show or validate)");
  return ExitUsage;
}

} // namespace lockwright
