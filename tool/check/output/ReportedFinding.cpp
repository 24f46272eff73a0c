#include "output/ReportedFinding.h"

#include "FileIO.h"

#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace lockwright {

const SourceOffsets::FileLines *SourceOffsets::lines(const std::string &File) {
  auto [It, New] = Files.try_emplace(File);
  if (New) {
    if (std::optional<std::string> Text = readFile(File)) {
      FileLines L;
      L.Text = std::move(*Text);
      L.Starts.push_back(0);
      for (size_t I = 0; I < L.Text.size(); ++I)
        if (L.Text[I] == '\n')
          L.Starts.push_back(static_cast<unsigned>(I + 1));
      It->second = std::move(L);
    }
  }
  return It->second ? &*It->second : nullptr;
}

std::optional<unsigned> SourceOffsets::offsetOf(const SourcePoint &P) {
  const FileLines *L = P.valid() ? lines(P.File) : nullptr;
  if (!L || P.Line > L->Starts.size())
    return std::nullopt;
  return std::min<size_t>(L->Starts[P.Line - 1] + (P.Column ? P.Column - 1 : 0), L->Text.size());
}

std::optional<std::pair<unsigned, unsigned>> SourceOffsets::pointAt(const std::string &File, unsigned Offset) {
  const FileLines *L = lines(File);
  if (!L || Offset > L->Text.size())
    return std::nullopt;
  auto Next = std::upper_bound(L->Starts.begin(), L->Starts.end(), Offset);
  unsigned Line = static_cast<unsigned>(Next - L->Starts.begin());
  return std::pair{Line, Offset - L->Starts[Line - 1] + 1};
}

std::string SourceOffsets::lineText(const std::string &File, unsigned Line) {
  const FileLines *L = lines(File);
  if (!L || Line == 0 || Line > L->Starts.size())
    return "";
  size_t Start = L->Starts[Line - 1];
  size_t End = Line < L->Starts.size() ? L->Starts[Line] - 1 : L->Text.size();
  return L->Text.substr(Start, End - Start);
}

std::string exportFixesYaml(const std::string &MainSourceFile, const std::vector<ReportedFinding> &Findings,
                            SourceOffsets &Offsets) {
  using namespace clang::tooling;
  TranslationUnitDiagnostics Doc;
  Doc.MainSourceFile = MainSourceFile;
  auto Message = [&](const std::string &Text, const SourcePoint &At) {
    DiagnosticMessage M;
    M.Message = Text;
    if (std::optional<unsigned> Offset = Offsets.offsetOf(At)) {
      M.FilePath = At.File;
      M.FileOffset = *Offset;
    }
    return M;
  };
  for (const ReportedFinding &R : Findings) {
    const Finding &F = *R.F;
    DiagnosticMessage Main = Message(F.Message, F.At);
    // A finding's fix is its replacements and its notes' together (as --fix applies them):
    // clang-apply-replacements would otherwise take a note's only when the warning has none.
    std::set<std::tuple<std::string, unsigned, unsigned, std::string>> Seen;
    auto Add = [&](const Edit &E) {
      if (!Seen.insert({E.File, E.Offset, E.Length, E.Text}).second)
        return;
      if (llvm::Error Err = Main.Fix[E.File].add(Replacement(E.File, E.Offset, E.Length, E.Text)))
        llvm::consumeError(std::move(Err)); // overlapping: --fix refuses the file, and so will the applier
    };
    for (const Edit &E : F.Fixes)
      Add(E);
    for (const FindingNote &N : F.Notes)
      for (const Edit &E : N.Fixes)
        Add(E);
    llvm::SmallVector<DiagnosticMessage, 1> Notes;
    for (const FindingNote &N : F.Notes)
      Notes.push_back(Message(N.fullText(), N.At));
    Doc.Diagnostics.emplace_back(F.Check.empty() ? "clang-diagnostic-error" : F.Check, Main, Notes,
                                 F.Severity == Finding::Level::Error ? Diagnostic::Error : Diagnostic::Warning,
                                 R.BuildDirectory);
  }
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  llvm::yaml::Output YAML(OS);
  YAML << Doc;
  OS.flush();
  return Text;
}

} // namespace lockwright
