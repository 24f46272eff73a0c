#include "summary/SampleProfile.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>
#include <vector>

namespace lockwright {

namespace {

bool isHex(std::string_view S) {
  if (S.empty())
    return false;
  for (char C : S)
    if (!std::isxdigit(static_cast<unsigned char>(C)))
      return false;
  return true;
}

std::string_view trimmed(std::string_view S) {
  while (!S.empty() && std::isspace(static_cast<unsigned char>(S.front())))
    S.remove_prefix(1);
  while (!S.empty() && std::isspace(static_cast<unsigned char>(S.back())))
    S.remove_suffix(1);
  return S;
}

bool endsWith(std::string_view S, std::string_view Tail) {
  return S.size() >= Tail.size() && S.substr(S.size() - Tail.size()) == Tail;
}

/// S without a last "(...)" group that closes at its end (perf's "(DSO)", a C++ parameter list);
/// S itself when it does not end in one.
std::string_view withoutTrailingGroup(std::string_view S) {
  if (S.empty() || S.back() != ')')
    return S;
  int Depth = 0;
  for (size_t I = S.size(); I-- > 0;) {
    if (S[I] == ')')
      ++Depth;
    else if (S[I] == '(' && --Depth == 0)
      return S.substr(0, I);
  }
  return S;
}

/// "ADDRESS SYMBOL+OFFSET (DSO)" as perf script prints a frame: the symbol's function.
std::string frameFunction(std::string_view Frame) {
  Frame = trimmed(Frame);
  size_t Space = Frame.find_first_of(" \t");
  if (Space == std::string_view::npos || !isHex(Frame.substr(0, Space)))
    return "";
  std::string_view Rest = trimmed(Frame.substr(Space));
  // "(DSO)" ends the frame unless perf script was told to leave it out (-F ip,sym).
  std::string_view Symbol = trimmed(withoutTrailingGroup(Rest));
  if (endsWith(Symbol, "operator")) // "f::operator()" without its DSO
    Symbol = Rest;
  return Symbol.empty() ? "" : profileFunctionName(Symbol);
}

/// The 1-based column of Part, a view into Line.
unsigned columnOf(std::string_view Line, std::string_view Part) {
  return static_cast<unsigned>(Part.data() - Line.data()) + 1;
}

/// S without every " [clone .isra.0]" (c++filt's spelling of a clone) and "[abi:cxx11]" tag.
std::string withoutDecorations(std::string_view S) {
  std::string Out(S);
  for (std::string_view Open : {" [clone ", "[abi:"})
    for (size_t At; (At = Out.find(Open)) != std::string::npos;) {
      size_t Close = Out.find(']', At);
      if (Close == std::string::npos)
        break;
      Out.erase(At, Close - At + 1);
    }
  return Out;
}

bool isIdentifierChar(char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; }

/// Where the word "operator" starts in S (not inside "run_operator" or "operators"), or npos.
size_t operatorWord(std::string_view S) {
  for (size_t At = S.find("operator"); At != std::string_view::npos; At = S.find("operator", At + 1))
    if ((At == 0 || !isIdentifierChar(S[At - 1])) && (At + 8 == S.size() || !isIdentifierChar(S[At + 8])))
      return At;
  return std::string_view::npos;
}

/// Whether S[I] is the first character after the word "operator" (operator< and operator() are names).
bool followsOperator(std::string_view S, size_t I) {
  return I >= 8 && S.substr(I - 8, 8) == "operator" && (I == 8 || !isIdentifierChar(S[I - 9]));
}

/// The end of the operator symbol of Op, which starts with "operator": "operator<", "operator()",
/// "operator new[]", a conversion's "operator bool".
size_t operatorSymbolEnd(std::string_view Op) {
  size_t I = 8;
  while (I < Op.size() && Op[I] == ' ')
    ++I;
  if (Op.substr(I, 2) == "()" || Op.substr(I, 2) == "[]")
    return I + 2;
  if (I < Op.size() && isIdentifierChar(Op[I])) {
    while (I < Op.size() && (isIdentifierChar(Op[I]) || Op[I] == ':'))
      ++I;
    return Op.substr(I, 2) == "[]" ? I + 2 : I;
  }
  while (I < Op.size() && std::string_view("+-*/%^&|~!=<>,").find(Op[I]) != std::string_view::npos)
    ++I;
  return I;
}

/// The positions in S outside every <...> and (...) group (template arguments, parameter lists,
/// "(anonymous namespace)"), as a predicate over indices.
std::vector<bool> outsideGroups(std::string_view S) {
  std::vector<bool> Outside(S.size());
  int Depth = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    bool Operator = followsOperator(S, I);
    if ((S[I] == '<' || S[I] == '(') && !Operator)
      ++Depth;
    Outside[I] = Depth == 0;
    if ((S[I] == '>' || S[I] == ')') && Depth > 0 && !Operator)
      --Depth;
  }
  return Outside;
}

/// Where the "::" between S's scopes start, outside template arguments and parameter lists.
std::vector<size_t> scopeSeparators(std::string_view S) {
  std::vector<bool> Outside = outsideGroups(S);
  std::vector<size_t> At;
  for (size_t I = 0; I + 1 < S.size(); ++I)
    if (Outside[I] && S[I] == ':' && S[I + 1] == ':')
      At.push_back(I);
  return At;
}

/// S without a template argument list that ends it and starts at or after From ("f<int>").
std::string_view withoutTrailingArguments(std::string_view S, size_t From) {
  if (S.empty() || S.back() != '>')
    return S;
  int Depth = 0;
  for (size_t I = S.size(); I-- > From;) {
    if (S[I] == '>')
      ++Depth;
    else if (S[I] == '<' && --Depth == 0)
      return I > 0 ? trimmed(S.substr(0, I)) : S;
  }
  return S;
}

} // namespace

std::string profileFunctionName(std::string_view Frame) {
  std::string_view View = trimmed(Frame);
  // stackcollapse-perf.pl's annotations: kernel, JIT, inlined, waker frames.
  for (std::string_view Tag : {"_[k]", "_[j]", "_[i]", "_[w]"})
    if (View.size() > Tag.size() && endsWith(View, Tag))
      View.remove_suffix(Tag.size());
  if (size_t Plus = View.rfind("+0x"); Plus != std::string_view::npos && Plus > 0 && isHex(View.substr(Plus + 3)))
    View = View.substr(0, Plus);
  // stackcollapse-bpftrace.pl's decimal offsets ("tcp_recvmsg+808"); not operator+.
  if (size_t Plus = View.rfind('+'); Plus != std::string_view::npos && Plus > 0 && Plus + 1 < View.size() &&
                                     isIdentifierChar(View[Plus - 1]) &&
                                     View.find_first_not_of("0123456789", Plus + 1) == std::string_view::npos)
    View = View.substr(0, Plus);
  // An address where a symbol was not found: perf's "[unknown]", a "0x..." or a bare address of
  // 12 or more hex digits (a name of hex letters, "add" or "fade", is a name).
  if (View.empty() || View.front() == '[' || (View.size() > 2 && View.substr(0, 2) == "0x" && isHex(View.substr(2))) ||
      (View.size() >= 12 && isHex(View)))
    return "";
  // A versioned symbol ("pthread_mutex_lock@@GLIBC_2.2.5"): demangled C++ never holds '@'.
  View = View.substr(0, View.find('@'));
  std::string Name = withoutDecorations(View);
  std::string_view S = trimmed(Name);
  // A C++ name as perf demangles it: the parameter list and its qualifiers go, but not the
  // "()" of "operator()", which perf prints without parameters by default.
  for (bool Again = true; Again;) {
    Again = false;
    for (std::string_view Qualifier : {" const", " volatile", " &&", " &"})
      if (S.size() > Qualifier.size() && endsWith(S, Qualifier)) {
        S.remove_suffix(Qualifier.size());
        Again = true;
      }
  }
  if (!S.empty() && S.back() == ')') {
    std::string_view Stripped = trimmed(withoutTrailingGroup(S));
    if (!Stripped.empty() && !endsWith(Stripped, "operator"))
      S = Stripped;
  }
  // A function template's return type ("void ns::f<int>") and arguments ("ns::f<int>",
  // "ns::operator< <int>"): the summaries name the template ("ns::f", "ns::operator<").
  size_t Op = operatorWord(S);
  std::string_view Head = Op == std::string_view::npos ? S : S.substr(0, Op);
  std::string_view Tail = Op == std::string_view::npos ? std::string_view() : S.substr(Op);
  std::vector<bool> HeadOutside = outsideGroups(Head);
  for (size_t I = Head.size(); I-- > 0;)
    if (Head[I] == ' ' && HeadOutside[I]) {
      Head = Head.substr(I + 1);
      break;
    }
  if (Tail.empty())
    Head = withoutTrailingArguments(Head, 1);
  else
    Tail = withoutTrailingArguments(Tail, operatorSymbolEnd(Tail));
  std::string Joined = std::string(Head) + std::string(Tail);
  S = Joined;
  // A compiler's clone or split part of a function is that function's code: "f.isra.0",
  // "f.constprop.0", "f.part.0", "f.cold", "f.llvm.123". Only after the last scope, outside
  // template arguments, and never a leading dot.
  std::vector<bool> Outside = outsideGroups(S);
  std::vector<size_t> Scopes = scopeSeparators(S);
  size_t From = Scopes.empty() ? 0 : Scopes.back() + 2;
  for (size_t I = From + 1; I < S.size(); ++I)
    if (S[I] == '.' && Outside[I]) {
      S = S.substr(0, I);
      break;
    }
  return std::string(S);
}

bool profileCanName(const std::string &Function) {
  // Lambdas and other unnamed classes: perf prints "main::{lambda()#2}", the summaries
  // "main()::(anonymous class)::operator()".
  for (const char *Unnamed : {"(anonymous class)", "(anonymous struct)", "(anonymous union)", "(lambda", "(unnamed"})
    if (Function.find(Unnamed) != std::string::npos)
      return false;
  return true;
}

uint64_t SampleProfile::hotSamples() const {
  double Needed = std::ceil(HotShare * static_cast<double>(Samples));
  return Needed < 1 ? 1 : static_cast<uint64_t>(Needed);
}

std::string SampleProfile::hotShareText() const {
  char Text[32];
  std::snprintf(Text, sizeof Text, "%g%%", HotShare * 100);
  return Text;
}

uint64_t SampleProfile::samplesOf(const std::string &Function) const {
  if (auto It = Inclusive.find(Function); It != Inclusive.end())
    return It->second;
  auto It = WithoutOneScope.find(Function);
  return It == WithoutOneScope.end() ? 0 : It->second;
}

std::optional<SampleProfile> readSampleProfile(std::string_view Text, std::string &Error) {
  SampleProfile Out;
  enum class Format { Unknown, PerfScript, Folded } Seen = Format::Unknown;
  std::set<std::string> Stack; // the current perf script sample's functions, each once
  bool InSample = false, AfterFrame = false;
  auto EndSample = [&] {
    if (InSample) {
      for (const std::string &F : Stack)
        ++Out.Inclusive[F];
      ++Out.Samples;
    }
    Stack.clear();
    InSample = false;
  };
  auto Fail = [&](unsigned Line, unsigned Column, const std::string &What) {
    Error = std::to_string(Line) + ":" + std::to_string(Column) + ": " + What;
    return std::nullopt;
  };
  auto Expect = [&](Format F, unsigned Line, std::string_view Whole) -> bool {
    if (Seen == Format::Unknown)
      Seen = F;
    if (Seen == F)
      return true;
    std::string Quoted = "'" + std::string(trimmed(Whole).substr(0, 60)) + "'";
    Fail(Line, 1,
         Seen == Format::Folded ? "not a folded stack ('frame;...;frame COUNT'): " + Quoted
                                : "a folded stack line in perf script output: " + Quoted);
    return false;
  };
  unsigned LineNo = 0;
  for (size_t Start = 0; Start <= Text.size();) {
    size_t End = Text.find('\n', Start);
    if (End == std::string_view::npos)
      End = Text.size();
    std::string_view Line = Text.substr(Start, End - Start);
    Start = End + 1;
    ++LineNo;
    if (!Line.empty() && Line.back() == '\r')
      Line.remove_suffix(1);
    if (LineNo == 1 && Line.size() >= 2 && Line[0] == '\x1f' && Line[1] == '\x8b')
      return Fail(1, 1, "a gzip file: gunzip it first");
    if (Line.find('\0') != std::string_view::npos)
      return Fail(LineNo, columnOf(Line, Line.substr(Line.find('\0'))), "a NUL byte: not a text profile");
    std::string_view Content = trimmed(Line);
    if (Content.empty()) {
      EndSample();
      AfterFrame = false;
      continue;
    }
    if (Content.front() == '#')
      continue;
    if (Line.front() == '\t') { // perf script: one frame of the current sample's call chain
      if (!Expect(Format::PerfScript, LineNo, Line))
        return std::nullopt;
      if (!InSample)
        return Fail(LineNo, 1, "a call-chain frame outside a sample (no sample header line above it)");
      if (std::string F = frameFunction(Line); !F.empty())
        Stack.insert(F);
      AfterFrame = true;
      continue;
    }
    // perf script -F +srcline: a frame's source line ("  u.c:4", "  rtld.c:497 (inlined)"),
    // indented with spaces under it. A sample's header may be indented too (perf right-aligns
    // the command name), but it holds "time: " and "event: ".
    if (Seen == Format::PerfScript && AfterFrame && Line.front() == ' ' && Content.find(": ") == std::string_view::npos)
      continue;
    AfterFrame = false;
    // Folded: "a;b;c COUNT".
    size_t Gap = Content.find_last_of(" \t");
    std::string_view Count = Gap == std::string_view::npos ? std::string_view() : Content.substr(Gap + 1);
    bool FoldedLine = !Count.empty() && Count.find_first_not_of("0123456789") == std::string_view::npos;
    if (FoldedLine) {
      if (!Expect(Format::Folded, LineNo, Line))
        return std::nullopt;
      std::string_view Digits = Count.substr(std::min(Count.find_first_not_of('0'), Count.size() - 1));
      if (Digits.size() > 15)
        return Fail(LineNo, columnOf(Line, Count), "a sample count over 10^15");
      uint64_t N = std::stoull(std::string(Digits));
      if (N == 0)
        continue; // a stack no sample fell in
      std::set<std::string> Frames;
      std::string_view Stacked = trimmed(Content.substr(0, Gap));
      for (size_t From = 0; From <= Stacked.size();) {
        size_t Semi = Stacked.find(';', From);
        if (Semi == std::string_view::npos)
          Semi = Stacked.size();
        if (std::string F = profileFunctionName(Stacked.substr(From, Semi - From)); !F.empty())
          Frames.insert(F);
        From = Semi + 1;
      }
      for (const std::string &F : Frames)
        Out.Inclusive[F] += N;
      Out.Samples += N;
      if (Out.Samples > (uint64_t(1) << 62))
        return Fail(LineNo, columnOf(Line, Count), "more than 2^62 samples in all");
      continue;
    }
    // perf script: a sample's header line, its frame at the end when recorded without -g
    // ("comm pid [cpu] time: period event:  ADDRESS SYMBOL+OFFSET (DSO)").
    if (!Expect(Format::PerfScript, LineNo, Line))
      return std::nullopt;
    EndSample();
    InSample = true;
    if (Content.back() == ':')
      continue; // the call chain follows, one frame per line
    // The frame starts at the address after the last "event:" token.
    std::vector<std::string_view> Tokens;
    for (size_t From = 0; From < Content.size();) {
      size_t Begin = Content.find_first_not_of(" \t", From);
      if (Begin == std::string_view::npos)
        break;
      size_t Stop = Content.find_first_of(" \t", Begin);
      if (Stop == std::string_view::npos)
        Stop = Content.size();
      Tokens.push_back(Content.substr(Begin, Stop - Begin));
      From = Stop;
    }
    std::string F;
    for (size_t I = Tokens.size(); I-- > 1;)
      if (Tokens[I - 1].back() == ':' && isHex(Tokens[I])) {
        F = frameFunction(Content.substr(Tokens[I].data() - Content.data()));
        break;
      }
    // A tracepoint's header ends in its fields ("sched:sched_switch: prev_comm=..."): still a header.
    if (F.empty() && Content.back() != ')' && Content.find(": ") == std::string_view::npos)
      return Fail(LineNo, 1,
                  "neither a perf script sample ('comm pid [cpu] time: period event: ADDRESS SYMBOL (DSO)', "
                  "then one tab-indented frame per line with -g) nor a folded stack ('frame;frame COUNT')");
    if (!F.empty())
      Stack.insert(F);
    AfterFrame = true; // its source line may follow
  }
  EndSample();
  if (Out.Samples == 0)
    return Fail(LineNo, 1, "no samples");
  // Summaries name functions without their inline namespaces (std::__cxx11, app::v1), perf with
  // them: the profile's names with one inner scope left out stand in.
  for (const auto &[Name, Samples] : Out.Inclusive) {
    std::vector<size_t> Scopes = scopeSeparators(Name);
    for (size_t K = 0; K + 1 < Scopes.size(); ++K) {
      uint64_t &Known = Out.WithoutOneScope[Name.substr(0, Scopes[K]) + Name.substr(Scopes[K + 1])];
      Known = std::max(Known, Samples);
    }
  }
  return Out;
}

} // namespace lockwright
