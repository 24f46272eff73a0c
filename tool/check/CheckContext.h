// What a check sees of the translation unit it runs on: the AST, the sync
// model, the target architecture's facts from its spec, the options, and the
// one way to report (which honours NOLINT and --warnings-as-errors).
#ifndef LOCKWRIGHT_TOOL_CHECK_CHECKCONTEXT_H
#define LOCKWRIGHT_TOOL_CHECK_CHECKCONTEXT_H

#include "CheckRegistry.h"
#include "analysis/SyncModel.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Regex.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Decl;
class LangOptions;
} // namespace clang

namespace lockwright {

class OrderingModel;
struct ResolvedSpec;

/// Format with each %N (N a digit) replaced by Args[N]; "%%" is a percent sign. An index
/// past Args is an error in the check, kept visible in the message as "%N".
std::string formatMessage(llvm::StringRef Format, llvm::ArrayRef<std::string> Args);

/// The target a TU is judged against.
struct TargetFacts {
  const ResolvedSpec *Spec = nullptr;
  std::string Arch, Cpu;
  uint64_t L1Line = 64, SmpLine = 64, Destructive = 64, LockWordAlign = 4, LockWordSize = 4;
  std::string DestructiveSource, LockWordSource;
  /// Set when clang has no target for the architecture and the host's layout stands in.
  std::string LayoutNote;
  /// "x86_64" or "parisc (cpu pa8800)", for messages.
  std::string label() const;
};

struct CheckOptions {
  std::string Checks = DefaultChecks;
  std::string WarningsAsErrors;
  /// Regular expressions on a header's path, as clang-tidy's: findings in a header are reported
  /// when it matches HeaderFilter (unset: every header outside the system's) and not
  /// ExcludeHeaderFilter. Findings in the main file always are.
  std::optional<std::string> HeaderFilter, ExcludeHeaderFilter;
  /// Report findings in system headers too (--system-headers).
  bool SystemHeaders = false;
  /// Each check's own options, as clang-tidy's CheckOptions: "check-name.Option" -> value.
  std::map<std::string, std::string> PerCheck;

  /// Check's Option, or Default when not set.
  std::string get(const std::string &Check, const std::string &Option, const std::string &Default = "") const;
  /// The same as a boolean ("true"/"1").
  bool getBool(const std::string &Check, const std::string &Option, bool Default = false) const;
};

/// The NOLINTBEGIN ... NOLINTEND blocks of one file, and the markers that match none.
struct NolintBlocks {
  struct Block {
    size_t Begin, End;       // offsets of the two markers
    llvm::StringRef Marker;  // the BEGIN marker's text to the end of its line
  };
  std::vector<Block> Blocks;
  std::vector<std::pair<size_t, std::string>> Errors; // (offset, message)
};

/// As clang-tidy: an END closes the latest open BEGIN with the same check list; an unmatched
/// BEGIN or END suppresses nothing and is an error.
NolintBlocks scanNolintBlocks(llvm::StringRef Buffer);

/// The name malformed NOLINT blocks are reported under (clang-tidy's clang-tidy-nolint).
extern const char *const NolintCheckName;
/// The name a file given up on after --timeout is reported under.
extern const char *const TimeoutCheckName;

class CheckContext {
public:
  struct Note {
    clang::SourceLocation Loc;
    std::string Message;
    /// Fixes shown with the note (where they apply far from the warning); --fix applies them too.
    std::vector<clang::FixItHint> Fixes = {};
    /// The spec's citation for the note's fact (FindingNote::Source).
    std::string Source = {};
  };

  /// Findings (and the records the whole-program checks judge) go to Out.
  CheckContext(clang::ASTContext &AST, const SyncModel &Model, const TargetFacts &Target,
               const CheckOptions &Options, TuSummary &Out, OrderingModel *Ordering = nullptr);

  clang::ASTContext &ast() const { return AST; }
  const SyncModel &model() const { return Model; }
  /// The ordering model (events per function, writer/reader pairs), built on first use.
  OrderingModel &ordering() const { return *Ordering; }
  const TargetFacts &target() const { return Target; }
  const CheckOptions &options() const { return Options; }
  const clang::LangOptions &langOpts() const;

  /// Reports `Message [Check]` at Loc with notes and fix-its, unless a NOLINT
  /// comment suppresses it or the location is in a system header. Where the layout is not
  /// the target's own (the host's, or freestanding), a last note says so, at LayoutAt (the
  /// record the verdict rests on) or else at Loc.
  void report(const std::string &Check, clang::SourceLocation Loc, const std::string &Message,
              const std::vector<Note> &Notes = {}, const std::vector<clang::FixItHint> &Fixes = {},
              clang::SourceLocation LayoutAt = {});

  /// Whether Loc is in code the run judges: not a builtin, not a system header (unless
  /// --system-headers).
  bool inUserCode(clang::SourceLocation Loc) const;

  /// What report() would do with a finding of Check at Loc: drop it (a system header, a file
  /// the header filters leave out), suppress it (NOLINT), or report it. For the checks judged
  /// after the TU (on summaries), which decide it while the source is at hand.
  enum class Disposition { Dropped, Suppressed, Reported };
  Disposition dispositionAt(const std::string &Check, clang::SourceLocation Loc) const;

  /// The summary this TU's run fills (findings, records, uses).
  TuSummary &summary() const { return Out; }
  /// Whether this TU's summary is reduced with other TUs' (several TUs, --summaries, the cache):
  /// only then is what the whole-program checks need beyond the TU's own findings written.
  bool wholeProgram() const { return WholeProgram; }
  void setWholeProgram(bool Whole) { WholeProgram = Whole; }

  /// The attribute text that aligns a declaration to N bytes in this language:
  /// alignas(N) in C++, _Alignas(N) in C11, __attribute__((aligned(N))) before that.
  std::string alignmentSpelling(uint64_t N) const;
  /// The fix that aligns D to N bytes. An alignment D already has, written as a number, is
  /// raised (the edit layout-hardcoded-line-size makes, so that --fix with several checks, or
  /// twice, writes one alignment); one written as an expression gets no fix (nullopt);
  /// otherwise Insert, which adds one.
  std::optional<clang::FixItHint> alignmentFix(const clang::Decl *D, uint64_t N, clang::FixItHint Insert) const;

  /// Reports each unmatched NOLINTBEGIN/NOLINTEND of the TU's reported files as an error.
  void reportNolintErrors();

  unsigned reported() const { return Reported; }
  unsigned suppressed() const { return Suppressed; }

private:
  bool nolintSuppresses(const std::string &Check, clang::SourceLocation Loc) const;
  /// Whether findings in Loc's file are reported (--header-filter, --exclude-header-filter).
  bool inReportedFile(clang::SourceLocation Loc) const;

  clang::ASTContext &AST;
  const SyncModel &Model;
  const TargetFacts &Target;
  const CheckOptions &Options;
  CheckFilter ErrorFilter;
  std::optional<llvm::Regex> HeaderFilter, ExcludeHeaderFilter; // compiled once per TU
  TuSummary &Out;
  OrderingModel *Ordering;
  unsigned Reported = 0, Suppressed = 0;
  bool WholeProgram = false;
  /// By FileID: its NOLINT blocks, unset when it has none.
  const NolintBlocks *nolintBlocks(clang::FileID Id) const;
  mutable std::map<unsigned, std::optional<NolintBlocks>> NolintBlocksByFile;
};

} // namespace lockwright

#endif
