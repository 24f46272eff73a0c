// layout-hardcoded-line-size: cache-line sizes written into the code that are
// smaller than the target's destructive interference size (alignas(64) on
// ppc64's 128-byte lines, a 64-byte CACHE_LINE_SIZE on s390x's 256,
// std::hardware_destructive_interference_size where the spec says more).
// Over-padding (a memory cost when objects are many) only on request.
#include "layout/HardcodedLineSizeCheck.h"

#include "CheckContext.h"
#include "analysis/LayoutMath.h"
#include "analysis/Describe.h"
#include "spec/ArchModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/TypeLoc.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"


using namespace clang;
using namespace clang::ast_matchers;

namespace lockwright {

namespace {

/// Project macros that name a line size without being listed in an API table.
bool looksLikeLineSizeMacro(const std::string &Name) {
  // Called for every #define of every header: plain searches, no regex.
  std::string Upper = llvm::StringRef(Name).upper();
  for (const char *Word : {"CACHELINE", "CACHE_LINE", "LINESIZE", "LINE_SIZE", "DESTRUCTIVE"})
    if (Upper.find(Word) != std::string::npos)
      return true;
  return false;
}

/// The size a named constant should be compared with: a cache-line constant
/// (L1/SMP_CACHE_BYTES) is the SMP line; a padding constant the destructive size.
uint64_t thresholdFor(const ApiNames &Names, const std::string &Name, const TargetFacts &T) {
  std::optional<ApiNames::Constant> C = Names.constant(Name);
  if (C && *C == ApiNames::Constant::CacheLineSize)
    return T.SmpLine;
  return T.Destructive;
}

/// The note that says where Threshold comes from: the spec, or the machine `lockwright tune`
/// measured it on (an overlay's source starts so), which a reader weighs differently.
std::string thresholdNote(const TargetFacts &T, uint64_t Threshold) {
  std::string Value = std::to_string(Threshold);
  if (Threshold == T.Destructive && llvm::StringRef(T.DestructiveSource).starts_with(MeasuredSourcePrefix))
    return "the destructive interference size of " + T.label() + " was measured: " + Value + " bytes";
  return "the spec of " + T.label() + " says " + Value;
}

/// What a fix-it writes for the destructive size: the check's PaddingConstant, else the number.
std::string replacementFor(const CheckContext &Ctx, const std::string &CheckName) {
  std::string Named = Ctx.options().get(CheckName, "PaddingConstant");
  return Named.empty() ? std::to_string(Ctx.target().Destructive) : Named;
}

/// Reports a macro defined as a single number that names a line size.
class MacroDefinitions : public PPCallbacks {
public:
  MacroDefinitions(CheckContext &Ctx, std::string CheckName, Preprocessor &PP)
      : Ctx(Ctx), CheckName(std::move(CheckName)), PP(PP) {}

  void MacroDefined(const Token &NameTok, const MacroDirective *MD) override {
    // The shape first: most of a header's #defines are not one number.
    const MacroInfo *MI = MD->getMacroInfo();
    if (MI->isFunctionLike() || MI->getNumTokens() != 1 || MI->getReplacementToken(0).isNot(tok::numeric_constant))
      return;
    std::string Name = NameTok.getIdentifierInfo()->getName().str();
    const ApiNames &Names = Ctx.model().names();
    if (!Names.constant(Name) && !looksLikeLineSizeMacro(Name))
      return;
    const Token &Number = MI->getReplacementToken(0);
    SmallString<16> Buffer;
    StringRef Spelling = PP.getSpelling(Number, Buffer);
    uint64_t Value = 0;
    if (Spelling.getAsInteger(0, Value) || !isPowerOfTwo(Value) || Value < 16)
      return;
    const TargetFacts &T = Ctx.target();
    uint64_t Threshold = thresholdFor(Names, Name, T);
    bool Under = Value < Threshold, Over = Value > Threshold && Ctx.options().getBool(CheckName, "ReportOverPadding");
    if (!Under && !Over)
      return;
    std::string Message = "'" + Name + "' is " + std::to_string(Value) + (Under ? ", below " : ", above ") +
                          (Threshold == T.Destructive ? "the destructive interference size" : "the SMP cache line") +
                          " of " + T.label() + " (" + std::to_string(Threshold) + " bytes)";
    if (Over)
      Message += ": padding to it costs memory when objects are many";
    std::vector<FixItHint> Fixes;
    if (Under && editable(PP.getSourceManager(), Number.getLocation()))
      Fixes.push_back(FixItHint::CreateReplacement(CharSourceRange::getTokenRange(Number.getLocation()),
                                                   Threshold == T.Destructive ? replacementFor(Ctx, CheckName)
                                                                              : std::to_string(Threshold)));
    Ctx.report(CheckName, NameTok.getLocation(), Message,
               {{NameTok.getLocation(), thresholdNote(T, Threshold), {},
                 T.DestructiveSource}},
               Fixes);
  }

private:
  CheckContext &Ctx;
  std::string CheckName;
  Preprocessor &PP;
};

/// The first integer literal in E that looks like a line size (for `64 - sizeof(x)`).
const IntegerLiteral *lineSizeLiteral(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *IL = dyn_cast<IntegerLiteral>(E)) {
    uint64_t V = IL->getValue().getZExtValue();
    return isPowerOfTwo(V) && V >= 32 && V <= 4096 ? IL : nullptr;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (const IntegerLiteral *L = lineSizeLiteral(BO->getLHS()))
      return L;
    return lineSizeLiteral(BO->getRHS());
  }
  return nullptr;
}

} // namespace

void HardcodedLineSizeCheck::registerPPCallbacks(Preprocessor &PP) {
  PP.addPPCallbacks(std::make_unique<MacroDefinitions>(context(), name(), PP));
}

void HardcodedLineSizeCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(decl(hasAttr(attr::Aligned)).bind("aligned"), this);
  Finder.addMatcher(fieldDecl(hasType(constantArrayType()), matchesName("[Pp][Aa][Dd]")).bind("pad"), this);
  // std::hardware_destructive_interference_size and friends are C++ names; in C
  // the constants are macros. Matching every expression of a C TU cost ck a fifth
  // of its checking time for nothing.
  MatchesConstantUses = context().langOpts().CPlusPlus;
  if (MatchesConstantUses)
    Finder.addMatcher(declRefExpr(to(varDecl(hasGlobalStorage()))).bind("ref"), this);
}

void HardcodedLineSizeCheck::check(const MatchFinder::MatchResult &Result) {
  if (const auto *D = Result.Nodes.getNodeAs<Decl>("aligned"))
    checkAligned(D);
  else if (const auto *F = Result.Nodes.getNodeAs<FieldDecl>("pad"))
    checkPadding(F);
  else if (const auto *Ref = Result.Nodes.getNodeAs<DeclRefExpr>("ref"))
    checkConstantUse(Ref);
}

void HardcodedLineSizeCheck::reportLiteral(SourceLocation At, const Expr *Literal, uint64_t Value,
                                           const std::string &What, uint64_t Threshold) {
  CheckContext &Ctx = context();
  const TargetFacts &T = Ctx.target();
  bool Under = Value < Threshold, Over = Value > Threshold && Ctx.options().getBool(name(), "ReportOverPadding");
  if (!Under && !Over)
    return;
  std::vector<FixItHint> Fixes;
  if (Under && Literal && isa<IntegerLiteral>(Literal->IgnoreParenImpCasts()) &&
      editable(Ctx.ast().getSourceManager(), Literal->getBeginLoc()))
    Fixes.push_back(FixItHint::CreateReplacement(Literal->getSourceRange(), replacementFor(Ctx, name())));
  std::vector<CheckContext::Note> Notes = {
      {At, thresholdNote(T, Threshold), {}, T.DestructiveSource}};
  report(At, "%0 of %1 bytes is %2 the destructive interference size of %3 (%4 bytes)%5",
         {What, std::to_string(Value), Under ? "below" : "above", T.label(), std::to_string(Threshold),
          Over ? ": padding to it costs memory when objects are many" : ""},
         Notes, Fixes);
}

void HardcodedLineSizeCheck::reportConstant(const DeclRefExpr *Ref, uint64_t Value) {
  CheckContext &Ctx = context();
  const TargetFacts &T = Ctx.target();
  if (Value >= T.Destructive || !Ctx.inUserCode(Ref->getBeginLoc()))
    return;
  std::string Name = Ref->getDecl()->getQualifiedNameAsString();
  report(Ref->getBeginLoc(), "'%0' is %1 here, below the destructive interference size of %2 (%3 bytes)",
         {Name, std::to_string(Value), T.label(), std::to_string(T.Destructive)},
         {{Ref->getBeginLoc(),
           "the value is the compiler's choice for this target and is not ABI-stable "
           "(GCC warns with -Winterference-size); " + thresholdNote(T, T.Destructive),
           {},
           T.DestructiveSource}});
}

void HardcodedLineSizeCheck::checkAligned(const Decl *D) {
  CheckContext &Ctx = context();
  const ASTContext &AST = Ctx.ast();
  const SourceManager &SM = AST.getSourceManager();
  const TargetFacts &T = Ctx.target();
  const SyncModel &Model = Ctx.model();
  if (!Ctx.inUserCode(D->getLocation()))
    return;
  // Alignment matters here when the declaration is, or holds, a sync object.
  bool Sync = false;
  if (const auto *VD = dyn_cast<ValueDecl>(D))
    Sync = Model.kindOf(VD) != SyncKind::None ||
           (VD->getType()->getAsRecordDecl() && !Model.flatten(VD->getType()->getAsRecordDecl()).empty());
  else if (const auto *RD = dyn_cast<RecordDecl>(D))
    Sync = RD->isCompleteDefinition() && !Model.flatten(RD).empty();
  else if (const auto *TD = dyn_cast<TypedefNameDecl>(D))
    Sync = Model.kindOfType(TD->getUnderlyingType()) != SyncKind::None ||
           (TD->getUnderlyingType()->getAsRecordDecl() &&
            !Model.flatten(TD->getUnderlyingType()->getAsRecordDecl()).empty());
  const RecordDecl *OwnRecord = dyn_cast<RecordDecl>(D);
  if (const auto *TD = dyn_cast<TypedefNameDecl>(D))
    OwnRecord = TD->getUnderlyingType()->getAsRecordDecl();
  for (const AlignedAttr *A : D->specific_attrs<AlignedAttr>()) {
    if (!A->isAlignmentExpr() || !A->getAlignmentExpr() || A->isAlignmentDependent())
      continue;
    const Expr *E = A->getAlignmentExpr();
    uint64_t Value = A->getAlignment(const_cast<ASTContext &>(AST)) / AST.getCharWidth();
    if (!isPowerOfTwo(Value) || Value < 32)
      continue;
    // Spelled through a macro: judge by that macro's kind; the literal is fixed at its definition.
    SourceLocation Loc = E->getBeginLoc();
    // alignas(std::hardware_destructive_interference_size): the compiler's value, reported as such.
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts())) {
      std::optional<ApiNames::Constant> C = Model.names().constant(Ref->getDecl()->getQualifiedNameAsString());
      if (C && *C == ApiNames::Constant::DestructiveSize) {
        reportConstant(Ref, Value);
        continue;
      }
    }
    std::string Macro = Loc.isMacroID() ? Lexer::getImmediateMacroName(Loc, SM, Ctx.langOpts()).str() : "";
    bool NamedConstant = !Macro.empty() && (Model.names().constant(Macro) || looksLikeLineSizeMacro(Macro));
    if (!Sync && !NamedConstant)
      continue;
    // A record aligned to its own size (a 32-byte hash entry, a double-word CAS
    // pair) is aligned for whole-object access, not separated from a neighbour.
    if (!NamedConstant && OwnRecord && OwnRecord->isCompleteDefinition() &&
        (uint64_t)AST.getASTRecordLayout(OwnRecord).getDataSize().getQuantity() == Value)
      continue;
    uint64_t Threshold = NamedConstant ? thresholdFor(Model.names(), Macro, T) : T.Destructive;
    reportLiteral(A->getLocation(), Loc.isMacroID() ? nullptr : E, Value,
                  NamedConstant ? "alignment to '" + Macro + "'" : "alignment", Threshold);
  }
}

void HardcodedLineSizeCheck::checkPadding(const FieldDecl *F) {
  CheckContext &Ctx = context();
  const TargetFacts &T = Ctx.target();
  if (!Ctx.inUserCode(F->getLocation()) || !F->getTypeSourceInfo())
    return;
  TypeLoc TL = F->getTypeSourceInfo()->getTypeLoc();
  auto ATL = TL.getAsAdjusted<ConstantArrayTypeLoc>();
  if (!ATL)
    return;
  const IntegerLiteral *L = lineSizeLiteral(ATL.getSizeExpr());
  if (!L || L->getBeginLoc().isMacroID())
    return;
  reportLiteral(L->getBeginLoc(), L, L->getValue().getZExtValue(), "padding computed from a line", T.Destructive);
}

void HardcodedLineSizeCheck::checkConstantUse(const DeclRefExpr *Ref) {
  const SyncModel &Model = context().model();
  const ASTContext &AST = context().ast();
  const auto *VD = cast<VarDecl>(Ref->getDecl());
  std::optional<ApiNames::Constant> C = Model.names().constant(VD->getQualifiedNameAsString());
  if (!C || *C != ApiNames::Constant::DestructiveSize)
    return;
  const Expr *Init = VD->getAnyInitializer();
  if (std::optional<llvm::APSInt> Value = Init ? Init->getIntegerConstantExpr(AST) : std::nullopt)
    reportConstant(Ref, Value->getZExtValue());
}

} // namespace lockwright
