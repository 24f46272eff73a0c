// SARIF 2.1.0 (OASIS), the format code-scanning services read: one document per run, however
// many TUs and workers, written to its own file. Fingerprints are what baselines compare.
#ifndef LOCKWRIGHT_TOOL_CHECK_OUTPUT_SARIF_H
#define LOCKWRIGHT_TOOL_CHECK_OUTPUT_SARIF_H

#include "output/ReportedFinding.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace lockwright {

/// A rule as SARIF describes it: the check's name, summary, and its documentation page.
struct SarifRule {
  std::string Id, Summary;
  std::string FullDescription; // the page's first paragraph
  std::string HelpMarkdown;    // the whole page
  std::string HelpUri;
  std::string Level = "warning"; // its findings' level unless --warnings-as-errors
};

struct SarifOptions {
  /// Whether the run did its work (invocations[].executionSuccessful): every TU parsed.
  bool ExecutionSuccessful = true;
  /// Paths under it are written relative to it, with uriBaseId SRCROOT.
  std::string Root;
  /// Whether the document says where SRCROOT is (originalUriBaseIds). Not where Root is only
  /// where this run happened (a Bazel sandbox): the consumer resolves SRCROOT itself, as code
  /// scanning does against the checkout.
  bool DeclareRoot = true;
  std::string ToolVersion;
  std::vector<SarifRule> Rules;
};

/// The name baselines compare fingerprints under (partialFingerprints' key).
extern const char *const FingerprintName;

/// Findings' fingerprints, in the order a run reports them: a finding's check, its file
/// (relative to Root), its message and the text of its line, with the count of identical ones
/// before it. Lines moving (an edit above it) do not change it; editing the line, the message
/// or the file's name does.
class Fingerprinter {
public:
  Fingerprinter(std::string Root, SourceOffsets &Offsets) : Root(std::move(Root)), Offsets(Offsets) {}
  std::string next(const Finding &F);

private:
  std::string Root;
  SourceOffsets &Offsets;
  std::map<std::string, unsigned> Occurrences;
};

std::string sarifDocument(const std::vector<ReportedFinding> &Findings, const SarifOptions &Options,
                          SourceOffsets &Offsets);

/// The fingerprints of a SARIF document's results (a baseline); nullopt and Error set when it
/// is not SARIF.
std::optional<std::set<std::string>> readBaseline(const std::string &Text, std::string &Error);

/// A check's rule from its documentation page under DocsDir/checks (or the summary alone).
SarifRule sarifRule(const std::string &Id, const std::string &Summary, const std::string &DocsDir,
                    const std::string &DocsUrl);

} // namespace lockwright

#endif
