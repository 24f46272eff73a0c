// The shared helpers of support/: glob matching and comma lists.
#include "Glob.h"
#include "StringList.h"

#include <gtest/gtest.h>

using namespace lockwright;

TEST(Glob, StarMatchesAnyRunIncludingNone) {
  EXPECT_TRUE(globMatches("layout-*", "layout-split-atomic"));
  EXPECT_TRUE(globMatches("layout-*", "layout-"));
  EXPECT_FALSE(globMatches("layout-s*", "layout-false-sharing"));
  EXPECT_TRUE(globMatches("armv7*-*", "armv7l-unknown-linux-gnueabihf"));
  EXPECT_FALSE(globMatches("arm-*", "armv7l-linux"));
  EXPECT_TRUE(globMatches("*", ""));
  EXPECT_FALSE(globMatches("", "x"));
}

TEST(Glob, IdentifierTokensMatchANonEmptyIdentifier) {
  std::vector<std::string_view> Prefix = {"{prefix}", "{PREFIX}"};
  EXPECT_TRUE(globMatches("{prefix}_spin_lock", "lw_spin_lock", Prefix));
  EXPECT_TRUE(globMatches("{PREFIX}_SPINLOCK_INIT", "MY2_SPINLOCK_INIT", Prefix));
  EXPECT_FALSE(globMatches("{prefix}_spin_lock", "spin_lock", Prefix));
  EXPECT_FALSE(globMatches("{prefix}_mb", "2x_mb", Prefix)); // an identifier cannot start with a digit
  EXPECT_FALSE(globMatches("{prefix}::mb", "a.b::mb", Prefix));
  // Without the token list the braces are literal.
  EXPECT_TRUE(globMatches("{prefix}_mb", "{prefix}_mb"));
  EXPECT_FALSE(globMatches("{prefix}_mb", "lw_mb"));
}

TEST(Glob, CompiledPatternAgreesWithGlobMatches) {
  std::vector<std::string_view> Prefix = {"{prefix}", "{PREFIX}"};
  const char *Patterns[] = {"{prefix}_spin_lock", "ck_pr_load_*", "*_relaxed", "a*a", "{prefix}", "*",
                            "smp_mb", "{prefix}::mb", "x*{prefix}_y", "{prefix}__load_acquire_*", "*a*b*"};
  const char *Texts[] = {"lw_spin_lock", "spin_lock", "_spin_lock", "ck_pr_load_int", "ck_pr_load_",
                         "atomic_read_relaxed", "a", "aa", "aba", "lw", "", "smp_mb", "smp_mb2",
                         "lw::mb", "x_y", "xz_y", "xab_c_y", "2x_mb", "lw__load_acquire_u32", "lw__load_acquire_",
                         "__load_acquire_u32", "ab", "ba", "xaxbx", "bab"};
  for (const char *P : Patterns) {
    Glob G(P, Prefix);
    EXPECT_EQ(G.pattern(), P);
    for (const char *T : Texts)
      EXPECT_EQ(G.matches(T), globMatches(P, T, Prefix)) << P << " against " << T;
  }
  EXPECT_TRUE(Glob("a*a").matches("aa"));
  EXPECT_FALSE(Glob("a*a").matches("a")); // the head and the tail cannot share a character
}

TEST(StringList, SplitTrimsAndDropsEmptyItemsJoinIsItsInverse) {
  EXPECT_EQ(splitList("tas, ticket,,mcs ,"), (std::vector<std::string>{"tas", "ticket", "mcs"}));
  EXPECT_EQ(splitList(""), std::vector<std::string>{});
  EXPECT_EQ(splitList("a|b", '|'), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(joinList({"tas", "ticket", "mcs"}), "tas, ticket, mcs");
  EXPECT_EQ(joinList({"tas", "mcs"}, "|"), "tas|mcs");
  EXPECT_EQ(joinList({}), "");
}

TEST(StringList, ShellQuotedReadsBackAsOneWord) {
  EXPECT_EQ(shellQuoted("../specs/tuned/epyc.yaml"), "../specs/tuned/epyc.yaml");
  EXPECT_EQ(shellQuoted("../with space/my overlay.yaml"), "'../with space/my overlay.yaml'");
  EXPECT_EQ(shellQuoted("it's"), "'it'\\''s'");
  EXPECT_EQ(shellQuoted("$HOME"), "'$HOME'");
  EXPECT_EQ(shellQuoted(""), "''");
}
