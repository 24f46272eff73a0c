#include "output/Sarif.h"

#include "FileIO.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <tuple>

namespace lockwright {

const char *const FingerprintName = "lockwright/v1";

namespace {

/// A path as a URI path: unreserved characters and '/' as they are, the rest percent-encoded.
std::string uriPath(llvm::StringRef Path) {
  std::string Out;
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || C == '/' || C == '-' || C == '.' || C == '_' || C == '~')
      Out += static_cast<char>(C);
    else {
      static const char Hex[] = "0123456789ABCDEF";
      Out += '%';
      Out += Hex[C >> 4];
      Out += Hex[C & 15];
    }
  }
  return Out;
}

std::string withSlash(std::string Dir) {
  if (Dir.empty() || Dir.back() != '/')
    Dir += '/';
  return Dir;
}

/// File as an absolute path: a relative one (a summary written with --relative-paths) is
/// relative to the current directory.
std::string absoluteFile(const std::string &File) {
  return File.empty() || llvm::sys::path::is_absolute(File) ? File : absolutePath(File);
}

/// File relative to Root when it lies under it, else nullopt.
std::optional<std::string> relativeTo(const std::string &RawFile, const std::string &Root) {
  std::string File = absoluteFile(RawFile);
  std::string Prefix = withSlash(Root);
  if (Root.empty() || !llvm::StringRef(File).starts_with(Prefix))
    return std::nullopt;
  return File.substr(Prefix.size());
}

llvm::json::Object artifactLocation(const std::string &File, const std::string &Root) {
  if (std::optional<std::string> Relative = relativeTo(File, Root))
    return llvm::json::Object{{"uri", uriPath(*Relative)}, {"uriBaseId", "SRCROOT"}};
  return llvm::json::Object{{"uri", "file://" + uriPath(absoluteFile(File))}};
}

/// The 1-based column of ByteColumn counted in Unicode code points (SARIF's columnKind).
unsigned codePointColumn(const std::string &LineText, unsigned ByteColumn) {
  unsigned Column = 1;
  for (unsigned I = 0; I + 1 < ByteColumn && I < LineText.size(); ++I)
    if ((static_cast<unsigned char>(LineText[I]) & 0xC0) != 0x80) // not a continuation byte
      ++Column;
  if (ByteColumn > LineText.size() + 1) // past the end (a point after the last byte)
    Column += ByteColumn - 1 - static_cast<unsigned>(LineText.size());
  return Column;
}

bool identifierChar(char C) { return llvm::isAlnum(C) || C == '_'; }

/// The region of a point: its token (an identifier or one character) on its line.
llvm::json::Object region(const SourcePoint &P, SourceOffsets &Offsets) {
  std::string Line = Offsets.lineText(P.File, P.Line);
  unsigned End = P.Column; // byte column one past the token
  if (End >= 1 && End <= Line.size() && identifierChar(Line[End - 1]))
    while (End <= Line.size() && identifierChar(Line[End - 1]))
      ++End;
  else
    ++End;
  return llvm::json::Object{{"startLine", P.Line},
                            {"startColumn", codePointColumn(Line, P.Column)},
                            {"endLine", P.Line},
                            {"endColumn", codePointColumn(Line, End)}};
}

llvm::json::Object physicalLocation(const SourcePoint &P, const std::string &Root, SourceOffsets &Offsets) {
  llvm::json::Object Location{{"artifactLocation", artifactLocation(P.File, Root)}};
  if (P.valid())
    Location["region"] = region(P, Offsets);
  return Location;
}

/// A fix as SARIF's artifactChanges: each edit's deleted region in lines and code points.
std::optional<llvm::json::Object> fixOf(const Finding &F, const std::string &Root, SourceOffsets &Offsets) {
  std::map<std::string, llvm::json::Array> ByFile;
  auto Add = [&](const Edit &E) {
    auto Start = Offsets.pointAt(E.File, E.Offset), End = Offsets.pointAt(E.File, E.Offset + E.Length);
    if (!Start || !End)
      return false;
    std::string StartLine = Offsets.lineText(E.File, Start->first), EndLine = Offsets.lineText(E.File, End->first);
    ByFile[E.File].push_back(llvm::json::Object{
        {"deletedRegion", llvm::json::Object{{"startLine", Start->first},
                                             {"startColumn", codePointColumn(StartLine, Start->second)},
                                             {"endLine", End->first},
                                             {"endColumn", codePointColumn(EndLine, End->second)}}},
        {"insertedContent", llvm::json::Object{{"text", E.Text}}}});
    return true;
  };
  bool Any = false;
  for (const Edit &E : F.Fixes)
    Any |= Add(E);
  for (const FindingNote &N : F.Notes)
    for (const Edit &E : N.Fixes)
      Any |= Add(E);
  if (!Any)
    return std::nullopt;
  llvm::json::Array Changes;
  for (auto &[File, Replacements] : ByFile)
    Changes.push_back(llvm::json::Object{{"artifactLocation", artifactLocation(File, Root)},
                                         {"replacements", std::move(Replacements)}});
  return llvm::json::Object{{"description", llvm::json::Object{{"text", "apply lockwright's fix"}}},
                            {"artifactChanges", std::move(Changes)}};
}

std::string ruleIdOf(const Finding &F) { return F.Check.empty() ? "clang-diagnostic-error" : F.Check; }

} // namespace

std::string Fingerprinter::next(const Finding &F) {
  std::string Line = llvm::StringRef(Offsets.lineText(F.At.File, F.At.Line)).trim().str();
  std::string Hash = contentHash(ruleIdOf(F) + '\0' + relativeTo(F.At.File, Root).value_or(F.At.File) + '\0' +
                                 F.Message + '\0' + Line);
  return Hash + ":" + std::to_string(++Occurrences[Hash]);
}

std::string sarifDocument(const std::vector<ReportedFinding> &Findings, const SarifOptions &Options,
                          SourceOffsets &Offsets) {
  llvm::json::Array Rules;
  std::map<std::string, size_t> RuleIndex;
  for (const SarifRule &R : Options.Rules) {
    RuleIndex[R.Id] = Rules.size();
    llvm::json::Object Rule{{"id", R.Id},
                            {"shortDescription", llvm::json::Object{{"text", R.Summary}}},
                            {"fullDescription",
                             llvm::json::Object{{"text", R.FullDescription.empty() ? R.Summary : R.FullDescription}}},
                            {"defaultConfiguration", llvm::json::Object{{"level", R.Level}}}};
    if (!R.HelpUri.empty())
      Rule["helpUri"] = R.HelpUri;
    if (!R.HelpMarkdown.empty())
      Rule["help"] = llvm::json::Object{{"text", R.FullDescription.empty() ? R.Summary : R.FullDescription},
                                        {"markdown", R.HelpMarkdown}};
    Rules.push_back(std::move(Rule));
  }
  llvm::json::Array Results;
  for (size_t I = 0; I < Findings.size(); ++I) {
    const Finding &F = *Findings[I].F;
    std::string Id = ruleIdOf(F);
    llvm::json::Object Result{
        {"ruleId", Id},
        {"level", F.Severity == Finding::Level::Error ? "error" : "warning"},
        {"message", llvm::json::Object{{"text", F.Message}}},
        {"locations", llvm::json::Array{llvm::json::Object{
                          {"physicalLocation", physicalLocation(F.At, Options.Root, Offsets)}}}},
        {"partialFingerprints", llvm::json::Object{{FingerprintName, Findings[I].Fingerprint}}}};
    if (auto It = RuleIndex.find(Id); It != RuleIndex.end())
      Result["ruleIndex"] = static_cast<int64_t>(It->second);
    llvm::json::Array Related;
    for (const FindingNote &N : F.Notes)
      Related.push_back(llvm::json::Object{{"id", static_cast<int64_t>(Related.size() + 1)},
                                           {"physicalLocation", physicalLocation(N.At, Options.Root, Offsets)},
                                           {"message", llvm::json::Object{{"text", N.fullText()}}}});
    if (!Related.empty())
      Result["relatedLocations"] = std::move(Related);
    if (std::optional<llvm::json::Object> Fix = fixOf(F, Options.Root, Offsets))
      Result["fixes"] = llvm::json::Array{std::move(*Fix)};
    Results.push_back(std::move(Result));
  }
  llvm::json::Object Run{
      {"tool", llvm::json::Object{{"driver", llvm::json::Object{{"name", "lockwright"},
                                                                {"version", Options.ToolVersion},
                                                                {"semanticVersion", Options.ToolVersion},
                                                                {"rules", std::move(Rules)}}}}},
      {"columnKind", "unicodeCodePoints"},
      {"invocations", llvm::json::Array{llvm::json::Object{{"executionSuccessful", Options.ExecutionSuccessful}}}},
      {"results", std::move(Results)}};
  if (!Options.Root.empty() && Options.DeclareRoot)
    Run["originalUriBaseIds"] =
        llvm::json::Object{{"SRCROOT", llvm::json::Object{{"uri", "file://" + uriPath(withSlash(Options.Root))}}}};
  llvm::json::Object Document{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                              {"version", "2.1.0"},
                              {"runs", llvm::json::Array{std::move(Run)}}};
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Document))) << "\n";
  OS.flush();
  return Text;
}

std::optional<std::set<std::string>> readBaseline(const std::string &Text, std::string &Error) {
  llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse(Text);
  if (!Parsed) {
    Error = llvm::toString(Parsed.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *Document = Parsed->getAsObject();
  const llvm::json::Array *Runs = Document ? Document->getArray("runs") : nullptr;
  if (!Runs) {
    Error = "not a SARIF document (no 'runs')";
    return std::nullopt;
  }
  std::set<std::string> Out;
  for (const llvm::json::Value &Run : *Runs)
    if (const llvm::json::Object *R = Run.getAsObject())
      if (const llvm::json::Array *Results = R->getArray("results"))
        for (const llvm::json::Value &Result : *Results)
          if (const llvm::json::Object *Res = Result.getAsObject())
            if (const llvm::json::Object *Prints = Res->getObject("partialFingerprints"))
              if (std::optional<llvm::StringRef> Print = Prints->getString(FingerprintName))
                Out.insert(Print->str());
  return Out;
}

SarifRule sarifRule(const std::string &Id, const std::string &Summary, const std::string &DocsDir,
                    const std::string &DocsUrl) {
  SarifRule Rule{Id, Summary, "", "", ""};
  llvm::SmallString<256> Page(DocsDir);
  llvm::sys::path::append(Page, "checks", Id + ".md");
  if (std::optional<std::string> Text = readFile(Page.str().str())) {
    Rule.HelpMarkdown = *Text;
    // The first paragraph after the title that describes the check (not a notice such as
    // "**Opt-in** ...").
    llvm::StringRef Rest(*Text);
    if (Rest.starts_with("#"))
      Rest = Rest.split('\n').second;
    llvm::StringRef Paragraph;
    while (!Rest.empty()) {
      Rest = Rest.ltrim("\n");
      std::tie(Paragraph, Rest) = Rest.split("\n\n");
      if (!Paragraph.starts_with("**") && !Paragraph.starts_with(">") && !Paragraph.starts_with("#"))
        break;
    }
    std::string Joined;
    for (char C : Paragraph)
      Joined += C == '\n' ? ' ' : C;
    Rule.FullDescription = Joined;
    Rule.HelpUri = DocsUrl.empty() ? "file://" + uriPath(Page.str()) : withSlash(DocsUrl) + Id + ".md";
  } else if (!DocsUrl.empty()) {
    Rule.HelpUri = withSlash(DocsUrl) + Id + ".md";
  }
  return Rule;
}

} // namespace lockwright
