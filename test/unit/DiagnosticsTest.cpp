#include "spec/Diagnostics.h"

#include <gtest/gtest.h>

using namespace lockwright;

TEST(Diagnostics, FormatsLikeACompiler) {
  Diagnostic D{Diagnostic::Level::Error, {"specs/arch/x.yaml", 12, 5}, "cache.l1_line", "missing required key"};
  EXPECT_EQ(D.format(), "specs/arch/x.yaml:12:5: error: cache.l1_line: missing required key");
}

TEST(Diagnostics, FileLevelErrorsHaveNoLineOrPath) {
  Diagnostic D{Diagnostic::Level::Error, {"x.yaml", 0, 0}, "", "cannot open: No such file or directory"};
  EXPECT_EQ(D.format(), "x.yaml: error: cannot open: No such file or directory");
}

TEST(Diagnostics, CountsErrorsButNotNotes) {
  DiagnosticList L;
  L.note({"a", 1, 1}, "", "context");
  EXPECT_FALSE(L.hasErrors());
  L.error({"a", 2, 1}, "k", "bad");
  L.error({"a", 3, 1}, "k", "worse");
  EXPECT_EQ(L.errorCount(), 2u);
  EXPECT_EQ(L.all().size(), 3u);
  EXPECT_EQ(L.str(), "a:1:1: note: context\na:2:1: error: k: bad\na:3:1: error: k: worse\n");
}

TEST(Diagnostics, EditDistance) {
  EXPECT_EQ(editDistance("", ""), 0u);
  EXPECT_EQ(editDistance("l1_line", "l1_line"), 0u);
  EXPECT_EQ(editDistance("l1_lne", "l1_line"), 1u);
  EXPECT_EQ(editDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(editDistance("abc", ""), 3u);
}

TEST(Diagnostics, ClosestMatchSuggestsOnlyPlausibleTypos) {
  std::vector<std::string> Keys = {"l1_line", "smp_line", "destructive", "constructive"};
  EXPECT_EQ(closestMatch("l1_lne", Keys), "l1_line");
  EXPECT_EQ(closestMatch("destructiv", Keys), "destructive");
  EXPECT_EQ(closestMatch("banana", Keys), "");
  EXPECT_EQ(closestMatch("2", {"4", "8"}), "");
}
