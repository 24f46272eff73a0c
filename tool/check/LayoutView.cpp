#include "LayoutView.h"

#include "StringList.h"

#include "ParseTarget.h"

#include "api/ApiNames.h"
#include "analysis/Describe.h"
#include "analysis/LayoutMath.h"
#include "analysis/SharingPairs.h"
#include "analysis/SyncModel.h"
#include "CheckContext.h"
#include "CheckRunner.h"
#include "summary/SummaryBuilder.h"

#include "LockwrightConfig.h"
#include "spec/SpecLoader.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>

using namespace clang;
using namespace clang::tooling;

namespace lockwright {

namespace {

/// The record definitions a name given to --record names: its name, qualified name or typedef,
/// or the name clang prints for it ("Ring<char, 3>", "struct (unnamed at q.c:3:5)"), as the
/// checks' messages name it, with or without the tag keyword.
class FindRecord : public RecursiveASTVisitor<FindRecord> {
public:
  explicit FindRecord(const std::string &Name) : Name(Name) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitRecordDecl(RecordDecl *RD) {
    if (!RD->isCompleteDefinition() || RD->isDependentType() || RD->isInvalidDecl())
      return true;
    std::string Display = recordDisplayName(RD);
    std::string Untagged = Display;
    for (const char *Tag : {"struct ", "union ", "class "})
      if (llvm::StringRef(Untagged).starts_with(Tag))
        Untagged = Untagged.substr(std::strlen(Tag));
    const TypedefNameDecl *Typedef = RD->getTypedefNameForAnonDecl();
    if (RD->getNameAsString() == Name || RD->getQualifiedNameAsString() == Name || Display == Name ||
        Untagged == Name || (Typedef && Typedef->getNameAsString() == Name) || namesUnnamed(RD))
      if (std::find(Found.begin(), Found.end(), RD) == Found.end())
        Found.push_back(RD);
    return true;
  }
  const std::string &Name;
  std::vector<const RecordDecl *> Found;

private:
  /// "(unnamed at q.c:3:5)" (any tag and spelling around it) for the unnamed record defined at
  /// line 3, column 5 of a file whose path ends with q.c: the path is spelled as the run spelled it.
  bool namesUnnamed(const RecordDecl *RD) const {
    llvm::StringRef Text(Name);
    size_t At = Text.rfind(" at ");
    if (!RD->getName().empty() || At == llvm::StringRef::npos || !Text.ends_with(")") ||
        (!Text.take_front(At).contains("unnamed") && !Text.take_front(At).contains("anonymous")))
      return false;
    llvm::StringRef Place = Text.drop_front(At + 4).drop_back();
    auto [PathAndLine, Column] = Place.rsplit(':');
    auto [Path, Line] = PathAndLine.rsplit(':');
    const SourceManager &SM = RD->getASTContext().getSourceManager();
    PresumedLoc P = SM.getPresumedLoc(SM.getFileLoc(RD->getLocation()));
    return P.isValid() && Line == std::to_string(P.getLine()) && Column == std::to_string(P.getColumn()) &&
           !Path.empty() && llvm::StringRef(P.getFilename()).ends_with(Path);
  }
};

/// What one layout run asks for, and where its answer goes.
struct LayoutJob {
  const std::string &Record;
  const ApiNames &Names;
  const ResolvedSpec *Forced; // --arch; null: the spec of the TU's own target, as `check` decides
  SpecRepository &Repo;
  std::optional<LayoutReport> &Out;
  std::string &Error;
  std::optional<TripleSpec> Own = std::nullopt; // the TU's, when not forced
};

class LayoutConsumer : public ASTConsumer {
public:
  LayoutConsumer(CompilerInstance &CI, LayoutJob &Job, const ResolvedSpec &Spec)
      : Model(std::make_unique<SyncModel>(Job.Names, CI.getASTContext())), Job(Job), Spec(Spec) {
    CI.getPreprocessor().addPPCallbacks(Model->macroRecorder(CI.getPreprocessor()));
  }

  void HandleTranslationUnit(ASTContext &AST) override {
    if (AST.getDiagnostics().hasErrorOccurred()) {
      Job.Error = "the source does not compile";
      return;
    }
    Model->collect();
    FindRecord Finder(Job.Record);
    Finder.TraverseDecl(AST.getTranslationUnitDecl());
    if (Finder.Found.empty()) {
      Job.Error = "no definition of a record named '" + Job.Record + "'";
      return;
    }
    if (Finder.Found.size() > 1) {
      // Two instantiations of a template, or one name in two scopes: say which to pick.
      // A template instantiated a thousand times would make a 10 KB line: the first few, and a count.
      constexpr size_t Shown = 8;
      std::vector<std::string> Names;
      for (const RecordDecl *R : Finder.Found)
        if (Names.size() < Shown)
          Names.push_back("'" + recordDisplayName(R) + "'");
      if (Finder.Found.size() > Shown)
        Names.push_back("and " + std::to_string(Finder.Found.size() - Shown) + " more");
      Job.Error = "'" + Job.Record + "' names " + std::to_string(Finder.Found.size()) + " records: " +
                  joinList(Names, ", ") + "; give one of these names";
      return;
    }
    const RecordDecl *R = Finder.Found.front();
    LayoutReport Rep;
    Rep.Record = recordDisplayName(R);
    if (Rep.Record.find(' ') == std::string::npos || Rep.Record.find('<') != std::string::npos)
      Rep.Record = std::string(R->getKindName()) + " " + Rep.Record; // C++ prints no tag keyword
    Rep.Arch = Spec.Cpu.empty() ? Spec.Arch : Spec.Arch + " (cpu " + Spec.Cpu + ")";
    Rep.Line = Spec.model().Cache.L1Line.Value;
    Rep.Destructive = Spec.model().Cache.Destructive.Value;
    const ASTRecordLayout &L = AST.getASTRecordLayout(R);
    Rep.Size = L.getSize().getQuantity();
    Rep.Align = L.getAlignment().getQuantity();
    std::map<std::string, std::vector<std::string>> Shares; // by the record's member name
    // Straddling is judged as layout-split-atomic judges it: per access, for any base the
    // record's alignment allows (a packed record can start anywhere).
    std::set<const FieldDecl *> Straddling;
    for (const SyncObject &O : Model->flatten(R))
      if (accessMayStraddle(O.Offset, O.Size, O.AccessUnit, Rep.Line, Rep.Align))
        Straddling.insert(O.Top);
    // The pairs layout-false-sharing reports, judged on this TU's summary of R.
    TargetFacts Target = factsFor(Spec);
    CheckOptions Options;
    TuSummary Summary;
    CheckContext Ctx(AST, *Model, Target, Options, Summary);
    SummaryBuilder Builder(Ctx, "layout-false-sharing");
    Builder.addRecord(R);
    Builder.finish();
    auto Member = [](const SharedObject *O) { return O->Path.substr(0, O->Path.find('.')); };
    if (!Summary.Records.empty())
      for (const SharingPair &P : falseSharingPairs(Summary.Records.front(), Summary.Fields, Rep.Destructive)) {
        Shares[Member(P.First)].push_back(Member(P.Second));
        Shares[Member(P.Second)].push_back(Member(P.First));
      }
    for (const FieldDecl *F : R->fields()) {
      LayoutField LF;
      LF.Name = F->getNameAsString();
      LF.Type = F->getType().getAsString(AST.getPrintingPolicy());
      uint64_t BitOffset = L.getFieldOffset(F->getFieldIndex());
      LF.Offset = BitOffset / 8;
      if (F->isBitField()) {
        LF.BitWidth = F->getBitWidthValue(AST);
        LF.Size = (BitOffset + LF.BitWidth + 7) / 8 - LF.Offset;
      } else {
        LF.Size = AST.getTypeSizeInChars(F->getType()).getQuantity();
      }
      SyncKind K = Model->kindOf(F);
      if (K != SyncKind::None)
        LF.Kind = syncKindName(K);
      else if (const RecordDecl *Inner = F->getType()->getAsRecordDecl(); Inner && !Model->flatten(Inner).empty())
        LF.Kind = "holds sync objects";
      // Only a synchronisation word pays for straddling (split locks, torn or bus-locked atomics).
      LF.Straddles = Straddling.count(F) != 0;
      LF.SharesWith = Shares[LF.Name];
      Rep.Fields.push_back(LF);
    }
    Job.Out = Rep;
  }

private:
  std::unique_ptr<SyncModel> Model;
  LayoutJob &Job;
  const ResolvedSpec &Spec;
};

class LayoutAction : public ASTFrontendAction {
public:
  explicit LayoutAction(LayoutJob &Job) : Job(Job) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef) override {
    if (Job.Forced)
      return std::make_unique<LayoutConsumer>(CI, Job, *Job.Forced);
    // The TU's own target, as `check` judges it.
    DiagnosticList Diags;
    Job.Own = specForTriple(Job.Repo, CI.getTarget().getTriple().str(), Diags);
    if (!Job.Own) {
      Job.Error = Diags.str();
      return std::make_unique<ASTConsumer>();
    }
    return std::make_unique<LayoutConsumer>(CI, Job, Job.Own->Spec);
  }

private:
  LayoutJob &Job;
};

class LayoutFactory : public FrontendActionFactory {
public:
  explicit LayoutFactory(LayoutJob &Job) : Job(Job) {}
  std::unique_ptr<FrontendAction> create() override { return std::make_unique<LayoutAction>(Job); }

private:
  LayoutJob &Job;
};

std::string pad(std::string S, size_t Width) {
  if (S.size() < Width)
    S.resize(Width, ' ');
  return S;
}

std::string num(uint64_t N, int Width) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%*llu", Width, static_cast<unsigned long long>(N));
  return Buf;
}

// SVG coordinates: whole numbers without a fraction, others to two places.
std::string px(double V) {
  char Buf[32];
  if (V == double(int64_t(V)))
    std::snprintf(Buf, sizeof Buf, "%lld", static_cast<long long>(V));
  else
    std::snprintf(Buf, sizeof Buf, "%.2f", V);
  return Buf;
}

std::string xmlEscape(const std::string &S) {
  std::string Out;
  for (char C : S) {
    switch (C) {
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '&':
      Out += "&amp;";
      break;
    case '"':
      Out += "&quot;";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

} // namespace

std::optional<LayoutReport> computeLayout(const std::string &File, const LayoutSource &Source,
                                          const std::string &RecordName, const ResolvedSpec *Forced,
                                          SpecRepository &Repo, const ApiNames &Names, std::string &Error) {
  std::unique_ptr<CompilationDatabase> DB;
  if (Source.BuildPath) {
    std::string Why;
    DB = CompilationDatabase::autoDetectFromDirectory(*Source.BuildPath, Why);
    if (!DB) {
      Error = Why;
      return std::nullopt;
    }
  } else {
    DB = std::make_unique<FixedCompilationDatabase>(".", Source.CompilerArgs);
  }
  ClangTool Tool(*DB, {File});
  std::string LayoutNoteText;
  if (Forced) {
    ParseTarget How = parseTargetFor(*Forced);
    if (How.WhyHost.empty()) {
      Tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(How.TargetFlags, ArgumentInsertPosition::BEGIN));
      LayoutNoteText = How.Note;
    } else {
      LayoutNoteText = "offsets and sizes are those of the host (" LOCKWRIGHT_HOST_TRIPLE "): " + How.WhyHost;
    }
  }
  std::optional<LayoutReport> Out;
  LayoutJob Job{RecordName, Names, Forced, Repo, Out, Error};
  LayoutFactory Factory(Job);
  if (Tool.run(&Factory) != 0 && Error.empty())
    Error = "the source does not compile";
  if (Out)
    Out->LayoutNote = Forced ? LayoutNoteText : Job.Own->Note;
  return Out;
}

std::string renderLayoutText(const LayoutReport &R) {
  std::string Out = R.Record + " {\n";
  uint64_t End = 0, Holes = 0, HoleBytes = 0, Members = 0, Line = R.Line;
  uint64_t NextBoundary = Line;
  for (const LayoutField &F : R.Fields) {
    if (F.Offset > End) {
      Out += "\n\t/* XXX " + std::to_string(F.Offset - End) + " byte" + (F.Offset - End == 1 ? "" : "s") +
             " hole, try to pack */\n\n";
      ++Holes;
      HoleBytes += F.Offset - End;
    }
    while (F.Offset >= NextBoundary) {
      Out += "\t/* --- cacheline " + std::to_string(NextBoundary / Line) + " boundary (" +
             std::to_string(NextBoundary) + " bytes) --- */\n";
      NextBoundary += Line;
    }
    std::string Name = F.BitWidth ? F.Name + ":" + std::to_string(F.BitWidth) : F.Name;
    std::string Row = "\t" + pad(F.Type, 28) + " " + pad(Name + ";", 20) + " /* " + num(F.Offset, 5) + " " +
                      num(F.Size, 5) + " */";
    std::vector<std::string> Notes;
    if (F.Kind != "data")
      Notes.push_back("[" + F.Kind + "]");
    if (F.Straddles)
      Notes.push_back("can straddle a cache line");
    if (!F.SharesWith.empty())
      Notes.push_back("false-shares with " + joinList(F.SharesWith));
    if (!Notes.empty())
      Row += "  " + joinList(Notes, "; ");
    Out += Row + "\n";
    End = std::max(End, F.Offset + F.Size);
    ++Members;
  }
  uint64_t Tail = R.Size > End ? R.Size - End : 0;
  Out += "\n\t/* size: " + std::to_string(R.Size) + ", cachelines: " +
         std::to_string((R.Size + R.Line - 1) / R.Line) + ", members: " + std::to_string(Members) + " */\n";
  Out += "\t/* sum members: " + std::to_string(R.Size - HoleBytes - Tail) + ", holes: " + std::to_string(Holes) +
         ", sum holes: " + std::to_string(HoleBytes) + " */\n";
  if (Tail)
    Out += "\t/* padding: " + std::to_string(Tail) + " */\n";
  Out += "\t/* " + R.Arch + ": cache line " + std::to_string(R.Line) + ", destructive interference size " +
         std::to_string(R.Destructive) + ", record aligned to " + std::to_string(R.Align) + " */\n";
  if (!R.LayoutNote.empty())
    Out += "\t/* " + R.LayoutNote + " */\n";
  return Out + "};\n";
}

std::string renderLayoutJson(const LayoutReport &R) {
  llvm::json::Array Fields;
  for (const LayoutField &F : R.Fields) {
    llvm::json::Array Shares;
    for (const std::string &S : F.SharesWith)
      Shares.push_back(S);
    Fields.push_back(llvm::json::Object{{"name", F.Name},
                                        {"type", F.Type},
                                        {"offset", (int64_t)F.Offset},
                                        {"size", (int64_t)F.Size},
                                        {"kind", F.Kind},
                                        {"bit_width", (int64_t)F.BitWidth},
                                        {"straddles_line", F.Straddles},
                                        {"false_shares_with", std::move(Shares)}});
  }
  llvm::json::Object Root{{"record", R.Record},
                          {"arch", R.Arch},
                          {"size", (int64_t)R.Size},
                          {"align", (int64_t)R.Align},
                          {"cache_line", (int64_t)R.Line},
                          {"destructive_size", (int64_t)R.Destructive},
                          {"fields", std::move(Fields)}};
  if (!R.LayoutNote.empty())
    Root["note"] = R.LayoutNote;
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Root))) << "\n";
  return OS.str();
}

std::string renderLayoutSvg(const LayoutReport &R) {
  // One row per cache line; a byte is Scale pixels, so every row is 512 pixels wide.
  const double Width = 512, RowHeight = 44, Left = 90, Top = 40;
  double Scale = Width / double(R.Line);
  uint64_t Rows = std::max<uint64_t>(1, (R.Size + R.Line - 1) / R.Line);
  double Height = Top + Rows * RowHeight + 90;
  auto Color = [](const LayoutField &F) {
    if (F.Kind == "lock")
      return "#d9534f";
    if (F.Kind == "atomic")
      return "#f0ad4e";
    if (F.Kind != "data")
      return "#9b59b6";
    return "#5bc0de";
  };
  std::string S = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + px((Left + Width + 30)) +
                  "\" height=\"" + px((Height)) + "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  S += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  S += "<text x=\"" + px((Left)) + "\" y=\"20\" font-size=\"14\" font-weight=\"bold\">" +
       xmlEscape(R.Record + " on " + R.Arch) + " (" + px(R.Size) + " bytes; line " +
       px(R.Line) + ", destructive " + px(R.Destructive) + ")</text>\n";
  for (uint64_t Row = 0; Row < Rows; ++Row) {
    double Y = Top + Row * RowHeight;
    S += "<text x=\"8\" y=\"" + px((Y + RowHeight / 2 + 4)) + "\">line " + px(Row) +
         " @" + px(Row * R.Line) + "</text>\n";
    S += "<rect x=\"" + px((Left)) + "\" y=\"" + px((Y + 4)) + "\" width=\"" +
         px((Width)) + "\" height=\"" + px((RowHeight - 8)) +
         "\" fill=\"#f7f7f7\" stroke=\"#999\" stroke-dasharray=\"3,2\"/>\n";
    // A destructive window spans several lines where it is larger: mark its starts.
    if (R.Destructive > R.Line && (Row * R.Line) % R.Destructive == 0)
      S += "<line x1=\"" + px((Left - 4)) + "\" y1=\"" + px((Y + 2)) + "\" x2=\"" +
           px((Left + Width + 4)) + "\" y2=\"" + px((Y + 2)) +
           "\" stroke=\"black\" stroke-width=\"2\"/>\n";
  }
  for (const LayoutField &F : R.Fields) {
    uint64_t Start = F.Offset, End = F.Offset + std::max<uint64_t>(F.Size, 1);
    bool Flagged = !F.SharesWith.empty();
    for (uint64_t Pos = Start; Pos < End;) {
      uint64_t Row = Pos / R.Line, RowEnd = std::min(End, (Row + 1) * R.Line);
      double X = Left + (Pos % R.Line) * Scale, W = (RowEnd - Pos) * Scale, Y = Top + Row * RowHeight + 4;
      S += "<rect class=\"field\" data-name=\"" + xmlEscape(F.Name) + "\" data-kind=\"" + xmlEscape(F.Kind) + "\" x=\"" + px(X) + "\" y=\"" +
           px(Y) + "\" width=\"" + px(W) + "\" height=\"" + px(RowHeight - 8) +
           "\" fill=\"" + Color(F) + "\" stroke=\"" + (Flagged ? "black" : F.Straddles ? "#c00" : "white") +
           "\" stroke-width=\"" + (Flagged || F.Straddles ? "3" : "1") + "\"" +
           (F.Straddles ? " stroke-dasharray=\"6,3\"" : "") + "><title>" +
           xmlEscape(F.Name + ": " + F.Type + ", offset " + px(F.Offset) + ", " + px(F.Size) +
                     (F.Size == 1 ? " byte [" : " bytes [") + F.Kind + "]" + (F.Straddles ? ", can straddle a cache line" : "") +
                     (Flagged ? ", false-shares with " + joinList(F.SharesWith) : "")) +
           "</title></rect>\n";
      // About 6.5 pixels a character at font-size 11: shorten the label to its box.
      size_t Fits = size_t((W - 6) / 6.5);
      if (Fits >= 2) {
        std::string Label = F.Name.size() <= Fits ? F.Name : F.Name.substr(0, Fits - 1) + "\u2026";
        S += "<text x=\"" + px(X + 3) + "\" y=\"" + px(Y + RowHeight / 2) + "\">" +
             xmlEscape(Label) + "</text>\n";
      }
      Pos = RowEnd;
    }
  }
  double LegendY = Top + Rows * RowHeight + 25;
  const char *Items[][2] = {{"#d9534f", "lock"},
                            {"#f0ad4e", "atomic"},
                            {"#9b59b6", "holds sync objects"},
                            {"#5bc0de", "plain data"}};
  double X = Left;
  for (const auto &Item : Items) {
    S += "<rect x=\"" + px(X) + "\" y=\"" + px(LegendY - 10) +
         "\" width=\"12\" height=\"12\" fill=\"" + Item[0] + "\"/><text x=\"" + px(X + 16) + "\" y=\"" +
         px(LegendY) + "\">" + Item[1] + "</text>\n";
    X += 120;
  }
  S += "<text x=\"" + px(Left) + "\" y=\"" + px(LegendY + 22) +
       "\">black outline: a false-sharing pair; red dashes: can straddle a cache line; grey: holes and padding</text>\n";
  if (!R.LayoutNote.empty())
    S += "<text x=\"" + px(Left) + "\" y=\"" + px(LegendY + 40) + "\">" +
         xmlEscape(R.LayoutNote) + "</text>\n";
  return S + "</svg>\n";
}

std::string renderLayoutHtml(const LayoutReport &R) {
  std::string H = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" +
                  xmlEscape(R.Record + " on " + R.Arch) +
                  "</title>\n<style>body{font-family:sans-serif;margin:24px}table{border-collapse:collapse}"
                  "td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}td.n{text-align:right}"
                  ".flag{font-weight:bold;color:#b00}</style></head>\n<body>\n<h1>" +
                  xmlEscape(R.Record) + " on " + xmlEscape(R.Arch) + "</h1>\n";
  H += renderLayoutSvg(R);
  H += "<table>\n<tr><th>offset</th><th>size</th><th>field</th><th>type</th><th>kind</th><th>false-shares with</th></tr>\n";
  for (const LayoutField &F : R.Fields)
    H += std::string("<tr") + (F.SharesWith.empty() ? "" : " class=\"flag\"") + "><td class=\"n\">" +
         std::to_string(F.Offset) + "</td><td class=\"n\">" + std::to_string(F.Size) + "</td><td>" +
         xmlEscape(F.Name) + "</td><td>" + xmlEscape(F.Type) + "</td><td>" + xmlEscape(F.Kind) + "</td><td>" +
         xmlEscape(joinList(F.SharesWith)) + "</td></tr>\n";
  H += "</table>\n<pre>" + xmlEscape(renderLayoutText(R)) + "</pre>\n</body></html>\n";
  return H;
}

} // namespace lockwright
