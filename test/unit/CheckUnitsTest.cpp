// Unit tests of the checker's pure parts: window arithmetic, check globs, and
// the API name table built from the shipped specs/api.
#include "CheckRegistry.h"
#include "api/ApiNames.h"
#include "Glob.h"
#include "analysis/LayoutMath.h"
#include "analysis/SharingPairs.h"
#include "barrier/ProgramPairs.h"
#include "spec/SpecLoader.h"
#include "summary/SampleProfile.h"
#include "summary/Summary.h"

#include <gtest/gtest.h>

namespace lockwright {
namespace {

TEST(LayoutMath, ShareWindowDependsOnTheGapAndTheRecordAlignment) {
  // 8-byte objects at 0 and 8 of a 64-aligned record: one window.
  EXPECT_TRUE(mayShareWindow(8, 8, 64, 64));
  // B a full window after A's last byte: never.
  EXPECT_FALSE(mayShareWindow(8, 71, 64, 64));
  // At 0 and 64: 57 bytes from A's last byte to B. Separated when the record
  // is 8-aligned (A's last byte is at least 7 into its window); in a 4-aligned
  // record the base can sit 60 bytes in, leaving A's last byte 3 into the next
  // window, and B 57 bytes later in that same window.
  EXPECT_FALSE(mayShareWindow(8, 64, 64, 64));
  EXPECT_FALSE(mayShareWindow(8, 64, 64, 8));
  EXPECT_TRUE(mayShareWindow(8, 64, 64, 4));
  // The same record judged at ppc64's 128.
  EXPECT_TRUE(mayShareWindow(8, 64, 128, 128));
}

TEST(LayoutMath, StraddleNeedsAMisalignedUnit) {
  EXPECT_FALSE(mayStraddle(0, 8, 64, 8));
  EXPECT_FALSE(mayStraddle(56, 8, 64, 64));
  EXPECT_TRUE(mayStraddle(60, 8, 64, 64));  // crosses byte 64
  EXPECT_TRUE(mayStraddle(3, 8, 64, 1));    // packed: the base can be anywhere
  EXPECT_FALSE(mayStraddle(4, 4, 64, 4));   // a word at a word offset never crosses
  EXPECT_TRUE(mayStraddle(0, 8, 64, 4));    // 8 bytes in a 4-aligned record can start at 60
}

TEST(LayoutMath, AccessMayStraddleJudgesEachAccessForAnyBase) {
  EXPECT_TRUE(accessMayStraddle(3, 8, 8, 64, 1));      // packed: the base can be anywhere
  EXPECT_FALSE(accessMayStraddle(8, 8, 8, 64, 8));     // natural alignment
  EXPECT_TRUE(accessMayStraddle(2, 4, 4, 64, 4));      // 4-aligned record, word at 2: 62..65
  EXPECT_TRUE(accessMayStraddle(1, 16, 4, 64, 1));     // an array of words at an odd offset
  EXPECT_FALSE(accessMayStraddle(4, 80, 4, 64, 4));    // an array of aligned words never does
  EXPECT_FALSE(accessMayStraddle(0, 40, 40, 64, 8));   // no single 40-byte access: nothing to split
  EXPECT_FALSE(accessMayStraddle(56, 8, 8, 64, 64));   // inside its line at a fixed offset
}

TEST(LayoutMath, EffectiveAlignIsTheLowestSetBitCappedByTheRecord) {
  EXPECT_EQ(effectiveAlign(0, 16), 16u);
  EXPECT_EQ(effectiveAlign(8, 16), 8u);
  EXPECT_EQ(effectiveAlign(48, 16), 16u);
  EXPECT_EQ(effectiveAlign(6, 64), 2u);
}

TEST(CheckFilter, GlobsApplyInOrderAndMinusRemoves) {
  EXPECT_TRUE(globMatches("layout-*", "layout-split-atomic"));
  EXPECT_FALSE(globMatches("layout-s*", "layout-false-sharing"));
  EXPECT_TRUE(globMatches("*", "anything"));
  CheckFilter OnlySplit("-*,layout-split-*");
  EXPECT_TRUE(OnlySplit.enabled("layout-split-atomic"));
  EXPECT_FALSE(OnlySplit.enabled("layout-false-sharing"));
  CheckFilter AllButArrays("*,-layout-unpadded-array");
  EXPECT_TRUE(AllButArrays.enabled("layout-false-sharing"));
  EXPECT_FALSE(AllButArrays.enabled("layout-unpadded-array"));
}

TEST(CheckFilter, ReportsGlobsThatMatchNoCheck) {
  CheckFilter Typo("-*,layut-*,layout-split-atomic");
  std::vector<std::string> Unmatched = Typo.unmatched();
  ASSERT_EQ(Unmatched.size(), 1u);
  EXPECT_EQ(Unmatched[0], "layut-*");
}

class ShippedApiNames : public ::testing::Test {
protected:
  void SetUp() override {
    SpecRepository Repo({LOCKWRIGHT_TEST_SPEC_DIR});
    DiagnosticList Diags;
    Specs = Repo.loadApis(Diags);
    ASSERT_FALSE(Diags.hasErrors());
    ASSERT_FALSE(Specs.empty());
  }
  std::vector<ApiSpec> Specs;
};

TEST_F(ShippedApiNames, TypesOfEveryDialect) {
  ApiNames Names = ApiNames::fromSpecs(Specs);
  EXPECT_EQ(Names.typeRole("spinlock_t"), ApiNames::TypeRole::Lock);
  EXPECT_EQ(Names.typeRole("pthread_mutex_t"), ApiNames::TypeRole::Lock);
  EXPECT_EQ(Names.typeRole("std::mutex"), ApiNames::TypeRole::Lock);
  EXPECT_EQ(Names.typeRole("rte_spinlock_t"), ApiNames::TypeRole::Lock);
  EXPECT_EQ(Names.typeRole("ck_rwlock_t"), ApiNames::TypeRole::Lock);
  EXPECT_EQ(Names.typeRole("atomic_t"), ApiNames::TypeRole::Atomic);
  EXPECT_EQ(Names.typeRole("std::atomic"), ApiNames::TypeRole::Atomic);
  EXPECT_TRUE(Names.atomicQualifier());
  EXPECT_FALSE(Names.typeRole("unsigned long").has_value());
  EXPECT_FALSE(Names.typeRole("my_lock").has_value());
}

// Sections and configuration entry points come from the specs, globs included.
TEST_F(ShippedApiNames, SectionsAndConfigurationEntries) {
  ApiNames Names = ApiNames::fromSpecs(Specs);
  EXPECT_EQ(Names.section(".init.text"), ApiNames::Section::Init);
  EXPECT_EQ(Names.section(".exit.text"), ApiNames::Section::Init);
  EXPECT_EQ(Names.section(".data..percpu..shared_aligned"), ApiNames::Section::PerCpu);
  EXPECT_FALSE(Names.section(".data..read_mostly").has_value());
  EXPECT_EQ(Names.configurationEntry("sk_setsockopt"), "kernel");
  EXPECT_EQ(Names.configurationEntry("sock_set_rcvbuf"), "kernel");
  EXPECT_FALSE(Names.configurationEntry("sk_forward_alloc_add").has_value());
  // An entry point is the user's own function, not an API primitive.
  EXPECT_EQ(Names.operation("sk_setsockopt"), nullptr);
}

// A name the specs give as a function is a primitive whose body the ordering model does not
// judge; a macro's name glob ("{prefix}_barrier") says nothing of a function (rcu_barrier).
TEST_F(ShippedApiNames, FunctionsAndTemplatesAreCallable) {
  ApiNames Names = ApiNames::fromSpecs(Specs);
  ASSERT_NE(Names.operation("ck_pr_load_int"), nullptr);
  EXPECT_TRUE(Names.operation("ck_pr_load_int")->Callable);
  ASSERT_NE(Names.operation("ck_pr_faa_64"), nullptr);
  EXPECT_TRUE(Names.operation("ck_pr_faa_64")->Callable);
  ASSERT_NE(Names.operation("smp_mb"), nullptr);
  EXPECT_FALSE(Names.operation("smp_mb")->Callable);
}

TEST_F(ShippedApiNames, CallsAndMacrosSayWhatTheyDoToTheirObject) {
  ApiNames Names = ApiNames::fromSpecs(Specs);
  EXPECT_EQ(Names.access("READ_ONCE"), ApiNames::Access::AtomicRead);
  EXPECT_EQ(Names.access("WRITE_ONCE"), ApiNames::Access::AtomicWrite);
  EXPECT_EQ(Names.access("atomic_inc"), ApiNames::Access::AtomicWrite);
  EXPECT_EQ(Names.access("spin_lock"), ApiNames::Access::LockUse);
  EXPECT_EQ(Names.access("pthread_mutex_lock"), ApiNames::Access::LockUse);
  EXPECT_FALSE(Names.access("printf").has_value());
  EXPECT_EQ(Names.methodAccess("std::atomic", "store"), ApiNames::Access::AtomicWrite);
  EXPECT_EQ(Names.constant("std::hardware_destructive_interference_size"), ApiNames::Constant::DestructiveSize);
}

TEST_F(ShippedApiNames, OrderArgumentsNameTheirOrderingInEveryDialect) {
  ApiNames Names = ApiNames::fromSpecs(Specs);
  using O = ApiNames::MemoryOrder;
  EXPECT_EQ(Names.orderConstant("memory_order_consume"), O::Consume);
  EXPECT_EQ(Names.orderConstant("memory_order_acquire"), O::Acquire);
  EXPECT_EQ(Names.orderConstant("std::memory_order_release"), O::Release);
  EXPECT_EQ(Names.orderConstant("std::memory_order::acq_rel"), O::AcqRel);
  EXPECT_EQ(Names.orderConstant("__ATOMIC_SEQ_CST"), O::SeqCst);
  EXPECT_EQ(Names.orderConstant("__ATOMIC_RELAXED"), O::Relaxed);
  EXPECT_EQ(Names.orderConstant("CMM_ACQUIRE"), O::Acquire);
  EXPECT_EQ(Names.orderConstant("rte_memory_order_release"), O::Release);
  EXPECT_FALSE(Names.orderConstant("memory_order").has_value());
  // An order constant is not an access or a type.
  EXPECT_FALSE(Names.access("memory_order_acquire").has_value());
  // Fixed orders come with the names that have one.
  EXPECT_EQ(Names.fixedOrder("atomic_set_release"), O::Release);
  EXPECT_EQ(Names.fixedOrder("atomic_inc_return"), O::Full);
  EXPECT_FALSE(Names.fixedOrder("atomic_load_explicit").has_value()); // an order argument instead
}

TEST_F(ShippedApiNames, PublishAndSubscribeInKernelAndLiburcu) {
  ApiNames Names = ApiNames::fromSpecs(Specs);
  using O = ApiNames::MemoryOrder;
  EXPECT_EQ(Names.access("rcu_assign_pointer"), ApiNames::Access::AtomicWrite);
  EXPECT_EQ(Names.fixedOrder("rcu_assign_pointer"), O::Release);
  EXPECT_EQ(Names.access("rcu_dereference"), ApiNames::Access::AtomicRead);
  EXPECT_EQ(Names.fixedOrder("rcu_dereference"), O::Consume);
  EXPECT_EQ(Names.fixedOrder("rcu_dereference_check"), O::Consume);
  EXPECT_EQ(Names.fixedOrder("rcu_set_pointer"), O::Release); // liburcu
  EXPECT_EQ(Names.dialectOf("rcu_set_pointer"), "liburcu");
  // RCU_INIT_POINTER publishes nothing: no ordering.
  EXPECT_EQ(Names.access("RCU_INIT_POINTER"), ApiNames::Access::AtomicWrite);
  EXPECT_FALSE(Names.fixedOrder("RCU_INIT_POINTER").has_value());
}

TEST_F(ShippedApiNames, UserNamesAndGlobsFromOptions) {
  ApiNames Names = ApiNames::fromSpecs(Specs, {"my_lock", "rt_*_mutex"}, {"counter_*"});
  EXPECT_EQ(Names.typeRole("my_lock"), ApiNames::TypeRole::Lock);
  EXPECT_EQ(Names.typeRole("rt_fast_mutex"), ApiNames::TypeRole::Lock);
  EXPECT_EQ(Names.typeRole("counter_hits"), ApiNames::TypeRole::Atomic);
  EXPECT_FALSE(Names.typeRole("rt_mutex_x").has_value());
}

TEST_F(ShippedApiNames, ContendedWordsAreThoseOfRmwsOrderedAccessesAndPolls) {
  ApiNames Names = ApiNames::fromSpecs(Specs);
  auto Contends = [&](const std::string &Name) {
    const ApiNames::Operation *Op = Names.operation(Name);
    return Op && ApiNames::contends(*Op);
  };
  EXPECT_TRUE(Contends("atomic_inc"));
  EXPECT_TRUE(Contends("xchg"));
  EXPECT_TRUE(Contends("smp_store_release"));
  EXPECT_TRUE(Contends("smp_load_acquire"));
  EXPECT_TRUE(Contends("smp_cond_load_relaxed"));
  EXPECT_TRUE(Contends("__atomic_exchange_n"));
  // Keeping a word whole for lockless readers is not contending for it: list links.
  EXPECT_FALSE(Contends("WRITE_ONCE"));
  EXPECT_FALSE(Contends("READ_ONCE"));
  EXPECT_FALSE(Contends("rcu_assign_pointer"));
  EXPECT_FALSE(Contends("rcu_dereference"));
  // On a pointer, a release store publishes what it points to; an exchange still contends.
  EXPECT_FALSE(ApiNames::contends(*Names.operation("smp_store_release"), /*OnPointer=*/true));
  EXPECT_TRUE(ApiNames::contends(*Names.operation("xchg"), /*OnPointer=*/true));
}


/// A side of a message-passing pair as a TU's summary holds it.
OrderingSide sideFor(bool Writer, const std::string &Function, const std::vector<std::string> &Data) {
  OrderingSide S;
  S.Writer = Writer;
  S.Function = Function;
  S.Label = "'" + Function + "'";
  S.Location = "record struct msg@/h.h:1:8.ready";
  S.Text = "msg.ready";
  S.Event = "'atomic_store_explicit' (relaxed)";
  S.At = {"/" + Function + ".c", 10, 3};
  S.Index = 5;
  S.StrayBarriers = {2};
  for (const std::string &D : Data) {
    SideAccess A;
    A.Location = "record struct msg@/h.h:1:8." + D;
    A.Text = "msg." + D;
    A.At = {"/" + Function + ".c", 8, 3};
    A.Index = Writer ? 1 : 7;
    A.Load = !Writer;
    A.Deliberate = true;
    S.Data.push_back(A);
  }
  return S;
}

TuSummary tuWith(const std::string &File, std::vector<OrderingSide> Sides) {
  TuSummary T;
  T.File = File;
  T.Target.Label = "x86_64";
  T.Sides = std::move(Sides);
  return T;
}

TEST(OrderingSides, SurviveTheSummaryFileAndABadRoleIsAnError) {
  TuSummary T = tuWith("/w.c", {sideFor(true, "send", {"data", "len"})});
  std::string Error;
  std::optional<TuSummary> Back = readSummary(writeSummary(T), Error);
  ASSERT_TRUE(Back) << Error;
  ASSERT_EQ(Back->Sides.size(), 1u);
  const OrderingSide &S = Back->Sides[0];
  EXPECT_TRUE(S.Writer);
  EXPECT_EQ(S.Location, "record struct msg@/h.h:1:8.ready");
  EXPECT_EQ(S.At.Line, 10u);
  EXPECT_EQ(S.StrayBarriers, std::vector<unsigned>{2});
  ASSERT_EQ(S.Data.size(), 2u);
  EXPECT_EQ(S.Data[1].Text, "msg.len");
  EXPECT_TRUE(S.Data[1].Deliberate);
  std::string Text = writeSummary(T);
  Text.replace(Text.find("\"writer\""), 8, "\"author\"");
  EXPECT_FALSE(readSummary(Text, Error));
  EXPECT_NE(Error.find("'role'"), std::string::npos) << Error;
}

TEST(OrderingSides, PairAcrossTusOnlyWhereNoTuSawBoth) {
  OrderingSide Writer = sideFor(true, "send", {"data", "len"});
  OrderingSide Reader = sideFor(false, "receive", {"data"});
  OrderingSide Unrelated = sideFor(false, "peek", {"other"});
  ProgramSummary Apart;
  Apart.add(tuWith("/w.c", {Writer}));
  Apart.add(tuWith("/r.c", {Reader, Unrelated}));
  Apart.add(tuWith("/r2.c", {Reader})); // a header's reader, seen twice: one side
  EXPECT_EQ(Apart.Sides.size(), 3u);
  std::vector<ProgramPair> Pairs = programPairs(Apart);
  ASSERT_EQ(Pairs.size(), 1u);
  EXPECT_EQ(Pairs[0].Reader->Function, "receive");
  EXPECT_EQ(Pairs[0].Data, std::vector<std::string>{"msg.data"});
  ASSERT_TRUE(Pairs[0].FirstLoad);
  EXPECT_EQ(Pairs[0].LastStore->Text, "msg.data");

  // A TU that saw both judged them itself.
  ProgramSummary Together;
  Together.add(tuWith("/w.c", {Writer}));
  Together.add(tuWith("/both.c", {Writer, Reader}));
  Together.add(tuWith("/r.c", {Reader}));
  EXPECT_TRUE(programPairs(Together).empty());

  // Judged for another architecture: not the same program.
  ProgramSummary OtherTarget;
  OtherTarget.add(tuWith("/w.c", {Writer}));
  TuSummary Arm = tuWith("/r.c", {Reader});
  Arm.Target.Label = "aarch64";
  OtherTarget.add(Arm);
  EXPECT_TRUE(programPairs(OtherTarget).empty());
}

// Writers' locks survive the summary file; two TUs that saw one function keep the locks both saw.
TEST(WriterLocks, SurviveTheSummaryFileAndMergeByIntersection) {
  TuSummary T = tuWith("/a.c", {});
  FieldFacts &F = T.Fields["struct s@/h.h:1:8::a"];
  F.Writers = {"set_a@/h.h:5:6"};
  F.WriterLocks["set_a@/h.h:5:6"] = {"struct s@/h.h:1:8::lock", "big_lock@/h.h:3:12"};
  std::string Error;
  std::optional<TuSummary> Back = readSummary(writeSummary(T), Error);
  ASSERT_TRUE(Back) << Error;
  EXPECT_EQ(Back->Fields["struct s@/h.h:1:8::a"].WriterLocks, F.WriterLocks);
  FieldFacts Other;
  Other.Writers = F.Writers;
  Other.WriterLocks["set_a@/h.h:5:6"] = {"struct s@/h.h:1:8::lock"};
  F.merge(Other);
  EXPECT_EQ(F.WriterLocks["set_a@/h.h:5:6"], std::set<std::string>{"struct s@/h.h:1:8::lock"});
}

// A writer every caller of which, across TUs, runs only at configuration is cold; one caller
// on the data path, or its address taken anywhere, keeps it hot.
TEST(ColdCallers, SurviveTheSummaryFileAndCoolWritersAcrossTus) {
  const std::string Field = "struct ep@/h.h:1:8::rcvbuf", Set = "ep_set@/h.h:5:6", Apply = "ep_apply@/h.h:6:6",
                    Root = "ep_setsockopt@/s.c:3:5", Hot = "ep_autotune@/t.c:2:6";
  TuSummary Writer = tuWith("/set.c", {}), Middle = tuWith("/apply.c", {}), Entry = tuWith("/s.c", {});
  Writer.Fields[Field].Writers = {Set};
  Writer.Fields[Field].WriterLocks[Set] = {};
  Middle.Callers[Set] = {Apply};
  Entry.Callers[Apply] = {Root};
  Entry.ColdFunctions[Root] = "'ep_setsockopt' runs when a setting changes";
  std::string Error;
  std::optional<TuSummary> Back = readSummary(writeSummary(Entry), Error);
  ASSERT_TRUE(Back) << Error;
  EXPECT_EQ(Back->Callers, Entry.Callers);
  EXPECT_EQ(Back->ColdFunctions, Entry.ColdFunctions);
  Entry.ExternNames[Root] = "ep_setsockopt";
  EXPECT_EQ(readSummary(writeSummary(Entry), Error)->ExternNames, Entry.ExternNames);

  auto Judge = [&](std::vector<const TuSummary *> Tus) {
    ProgramSummary P;
    for (const TuSummary *T : Tus)
      P.add(*T);
    P.coolWritersCalledOnlyFromCold();
    return P.Fields.at(Field);
  };
  FieldFacts Cooled = Judge({&Writer, &Middle, &*Back});
  EXPECT_TRUE(Cooled.Writers.empty());
  EXPECT_EQ(Cooled.ColdWriters, std::set<std::string>{Set});
  EXPECT_EQ(Cooled.ColdWhy.at(Set), "'ep_set' is called only from 'ep_apply'; 'ep_apply' is called only from "
                                    "'ep_setsockopt'; 'ep_setsockopt' runs when a setting changes");
  TuSummary DataPath = tuWith("/t.c", {});
  DataPath.Callers[Apply] = {Hot};
  EXPECT_EQ(Judge({&Writer, &Middle, &*Back, &DataPath}).Writers, std::set<std::string>{Set});
  TuSummary Table = tuWith("/ops.c", {});
  Table.AddressTaken = {Set};
  EXPECT_EQ(Judge({&Writer, &Middle, &*Back, &Table}).Writers, std::set<std::string>{Set});
  // Nobody in the run calls it: nothing says when it runs.
  EXPECT_EQ(Judge({&Writer}).Writers, std::set<std::string>{Set});
  // A TU that met another declaration first keys the same function apart; its external name
  // joins them, so a hot call there keeps the writer hot.
  TuSummary LocalPrototype = tuWith("/l.c", {});
  LocalPrototype.Callers["ep_set@/l.c:1:6"] = {Hot};
  LocalPrototype.ExternNames = {{"ep_set@/l.c:1:6", "ep_set"}};
  Writer.ExternNames = {{Set, "ep_set"}};
  EXPECT_EQ(Judge({&Writer, &Middle, &*Back, &LocalPrototype}).Writers, std::set<std::string>{Set});
  LocalPrototype.ExternNames.clear();
  EXPECT_TRUE(Judge({&Writer, &Middle, &*Back, &LocalPrototype}).Writers.empty());
}

// Thread starts survive the summary file; a writer every caller of which runs only on a thread
// started once (one start, not in a loop, in a function that runs once) is that thread's; a
// start in a loop, a second start, or the entry named in an ops table makes it nobody's.
TEST(ThreadRoles, SurviveTheSummaryFileAndFollowCallsAcrossTus) {
  const std::string Field = "struct gp@/h.h:1:8::seq", Advance = "gp_advance@/h.h:5:6", Thread = "gp_thread@/h.h:4:7",
                    Main = "main@/m.c:3:5", Spawn = "spawn@/m.c:2:13";
  TuSummary Writer = tuWith("/advance.c", {}), Start = tuWith("/m.c", {});
  Writer.Fields[Field].Writers = {Advance};
  Writer.Callers[Advance] = {Thread};
  Start.Callers[Spawn] = {Main};
  Start.RunsOnce[Main] = "'main' runs once";
  Start.AddressTaken = {Thread};
  Start.ThreadStarts = {{Thread, Spawn, {"/m.c", 2, 30}, false}};
  std::string Error;
  std::optional<TuSummary> Back = readSummary(writeSummary(Start), Error);
  ASSERT_TRUE(Back) << Error;
  ASSERT_EQ(Back->ThreadStarts.size(), 1u);
  EXPECT_EQ(Back->ThreadStarts[0].Entry, Thread);
  EXPECT_EQ(Back->ThreadStarts[0].Site, Spawn);
  EXPECT_EQ(Back->ThreadStarts[0].At, Start.ThreadStarts[0].At);
  EXPECT_FALSE(Back->ThreadStarts[0].InLoop);
  EXPECT_EQ(Back->RunsOnce, Start.RunsOnce);

  auto ThreadOf = [&](std::vector<const TuSummary *> Tus) {
    ProgramSummary P;
    for (const TuSummary *T : Tus)
      P.add(*T);
    P.assignThreadRoles();
    const FieldFacts &F = P.Fields.at(Field);
    return F.Thread.count(Advance) ? F.Thread.at(Advance) : std::string();
  };
  EXPECT_EQ(ThreadOf({&Writer, &*Back}), Thread);
  TuSummary Twice = *Back;
  Twice.RepeatedCalls[Spawn] = {Main}; // main calls spawn twice
  EXPECT_EQ(ThreadOf({&Writer, &Twice}), "");
  TuSummary Loop = *Back;
  Loop.ThreadStarts[0].InLoop = true;
  EXPECT_EQ(ThreadOf({&Writer, &Loop}), "");
  TuSummary Second = tuWith("/n.c", {});
  Second.ThreadStarts = {{Thread, Main, {"/n.c", 9, 2}, false}};
  Second.AddressTaken = {Thread};
  EXPECT_EQ(ThreadOf({&Writer, &*Back, &Second}), "");
  TuSummary Table = tuWith("/ops.c", {});
  Table.AddressTaken = {Thread};
  EXPECT_EQ(ThreadOf({&Writer, &*Back, &Table}), "");
  TuSummary Direct = tuWith("/d.c", {}); // someone calls gp_advance on its own thread
  Direct.Callers[Advance] = {"kick@/d.c:1:6"};
  EXPECT_EQ(ThreadOf({&Writer, &*Back, &Direct}), "");
}

// A record is per thread when every variable of its type, in any TU, is thread-local.
TEST(ThreadLocalRecords, SurviveTheSummaryFileAndNeedEveryVariableThreadLocal) {
  TuSummary Tls = tuWith("/tls.c", {}), Shared = tuWith("/shared.c", {});
  RecordSummary R;
  R.Key = "struct reader@/r.h:1:8";
  R.ThreadLocal = true;
  Tls.Records.push_back(R);
  R.ThreadLocal = false;
  R.SharedGlobal = true;
  Shared.Records.push_back(R);
  std::string Error;
  std::optional<TuSummary> Back = readSummary(writeSummary(Tls), Error);
  ASSERT_TRUE(Back) << Error;
  ASSERT_EQ(Back->Records.size(), 1u);
  EXPECT_TRUE(Back->Records[0].ThreadLocal);
  EXPECT_TRUE(Back->Records[0].perCpuOrThread());
  ProgramSummary P;
  P.add(*Back);
  P.add(*readSummary(writeSummary(Shared), Error));
  ASSERT_EQ(P.Records.size(), 1u);
  EXPECT_FALSE(P.Records[0].second.perCpuOrThread());
}

TEST(SampleProfile, FunctionNamesLoseOffsetsClonesAndParameters) {
  // As perf 6.1 prints C++ by default (no parameters), as c++filt does, and versioned symbols.
  EXPECT_EQ(profileFunctionName("app::Bumper::operator()"), "app::Bumper::operator()");
  EXPECT_EQ(profileFunctionName("app::Bumper::operator()(int) const"), "app::Bumper::operator()");
  EXPECT_EQ(profileFunctionName("app::name[abi:cxx11]()"), "app::name");
  EXPECT_EQ(profileFunctionName("foo(int) [clone .isra.0]"), "foo");
  EXPECT_EQ(profileFunctionName("pthread_mutex_lock@@GLIBC_2.2.5"), "pthread_mutex_lock");
  EXPECT_EQ(profileFunctionName("void ns::f<int>(int)"), "ns::f");
  EXPECT_EQ(profileFunctionName("ns::f<1.5>"), "ns::f");
  EXPECT_EQ(profileFunctionName("(anonymous namespace)::g()"), "(anonymous namespace)::g");
  EXPECT_EQ(profileFunctionName("std::vector<int>::operator[](unsigned long)"), "std::vector<int>::operator[]");
  // Names of hex letters are names; long runs of hex digits are addresses.
  EXPECT_EQ(profileFunctionName("add+0x1d"), "add");
  EXPECT_EQ(profileFunctionName("fade_[k]"), "fade");
  EXPECT_EQ(profileFunctionName("dec"), "dec");
  // Operators of templates, and names that only contain the word.
  EXPECT_EQ(profileFunctionName("bool ns::operator< <int>(ns::X<int> const&, ns::X<int> const&)"), "ns::operator<");
  EXPECT_EQ(profileFunctionName("auto ns::C::operator()<int>(int) const"), "ns::C::operator()");
  EXPECT_EQ(profileFunctionName("void ns::run_operator<int>(int)"), "ns::run_operator");
  EXPECT_EQ(profileFunctionName("app::operator<<(std::ostream&, app::X const&)"), "app::operator<<");
  EXPECT_EQ(profileFunctionName("ns::X::operator<=>(ns::X const&) const"), "ns::X::operator<=>");
  EXPECT_EQ(profileFunctionName("ns::X::operator->()"), "ns::X::operator->");
  EXPECT_EQ(profileFunctionName("operator new[](unsigned long)"), "operator new[]");
  // bpftrace's decimal offsets.
  EXPECT_EQ(profileFunctionName("tcp_recvmsg+808"), "tcp_recvmsg");
  EXPECT_EQ(profileFunctionName("ns::X::operator+(int)"), "ns::X::operator+");
  EXPECT_FALSE(profileCanName("main()::(anonymous class)::operator()"));
  EXPECT_TRUE(profileCanName("app::Bumper::operator()"));
  EXPECT_EQ(profileFunctionName("tcp_sendmsg+0x1d"), "tcp_sendmsg");
  EXPECT_EQ(profileFunctionName("finish_task_switch.isra.0+0x9b"), "finish_task_switch");
  EXPECT_EQ(profileFunctionName("copy_page_range.cold"), "copy_page_range");
  EXPECT_EQ(profileFunctionName("sk_wait_data_[k]"), "sk_wait_data");
  EXPECT_EQ(profileFunctionName("ck_ring::push(int, char*) const"), "ck_ring::push");
  EXPECT_EQ(profileFunctionName("ns::C<int>::f(std::vector<int> const&)"), "ns::C<int>::f");
  EXPECT_EQ(profileFunctionName("[unknown]"), "");
  EXPECT_EQ(profileFunctionName("7f2dc40198b4"), "");
  EXPECT_EQ(profileFunctionName("0x7f2dc40198b4"), "");
}

TEST(SampleProfile, ReadsPerfScriptWithAndWithoutCallChains) {
  // perf record -g: a header, tab-indented frames, a blank line; a recursive frame counts once.
  const char *Chains = "perf 20671 [001]   230.529537:     250000 cpu-clock: \n"
                       "\tffffffff81ba822d pipe_write+0xcd ([kernel.kallsyms])\n"
                       "\tffffffff816dd0ec vfs_write+0x29c ([kernel.kallsyms])\n"
                       "\tffffffff816dd0ec vfs_write+0x29c ([kernel.kallsyms])\n"
                       "\t           f838f __GI___libc_write+0x4f (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
                       "\t    7f2dc40198b4 [unknown] ([unknown])\n"
                       "\n"
                       "# a comment\n"
                       "grpc sync 20061 [000]   230.529457:     250000 cpu-clock: \n"
                       "\tffffffff816dd0ec vfs_write+0x29c ([kernel.kallsyms])\n";
  std::string Error;
  std::optional<SampleProfile> P = readSampleProfile(Chains, Error);
  ASSERT_TRUE(P) << Error;
  EXPECT_EQ(P->Samples, 2u);
  EXPECT_EQ(P->samplesOf("vfs_write"), 2u);
  EXPECT_EQ(P->samplesOf("pipe_write"), 1u);
  EXPECT_EQ(P->samplesOf("__GI___libc_write"), 1u);
  EXPECT_EQ(P->samplesOf("pipe_read"), 0u);
  EXPECT_EQ(P->Inclusive.size(), 3u);
  // With --call-graph dwarf, an inlined function's frame says so instead of naming a DSO.
  P = readSampleProfile("u 32456 [001] 4159.9: 250000 cpu-clock: \n"
                        "\t            11ab bump_b+0xb (inlined)\n"
                        "\t            11ab w2+0xb (/tmp/inl/u)\n",
                        Error);
  ASSERT_TRUE(P) << Error;
  EXPECT_EQ(P->samplesOf("bump_b"), 1u);
  EXPECT_EQ(P->samplesOf("w2"), 1u);
  // -F +srcline: each frame's source line under it belongs to the sample.
  P = readSampleProfile("u 32455 [000] 4159.6: 250000 cpu-clock: \n"
                        "\t            11e6 w1+0x16 (/tmp/inl/u)\n"
                        "  u.c:4\n"
                        "\t           891f4 start_thread+0x304 (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
                        "  pthread_create.c:442\n"
                        "\n",
                        Error);
  ASSERT_TRUE(P) << Error;
  EXPECT_EQ(P->Samples, 1u);
  EXPECT_EQ(P->samplesOf("start_thread"), 1u);
  // ... and without call chains, where each header holds its frame and may be right-aligned.
  P = readSampleProfile("         swapper     0 [000]   106.5:     250000 cpu-clock:  ffffffff8224379b "
                        "pv_native_safe_halt+0xb ([kernel.kallsyms])\n"
                        "  [kernel.kallsyms][ffffffff8224379b]\n"
                        "            dpkg  2075 [001]   106.6:     250000 cpu-clock:  ffffffff816069df "
                        "copy_page_range+0x7ef ([kernel.kallsyms])\n"
                        "  memory.c:1234\n"
                        "            dpkg  2075 [001]   106.7:     250000 cpu-clock:  ffffffff816069df "
                        "copy_page_range+0x7ef ([kernel.kallsyms])\n",
                        Error);
  ASSERT_TRUE(P) << Error;
  EXPECT_EQ(P->Samples, 3u);
  EXPECT_EQ(P->samplesOf("copy_page_range"), 2u);
  // A right-aligned header after a sample's blank line starts the next sample.
  P = readSampleProfile("perf 1 [001] 1.0: 250000 cpu-clock: \n\tffff81 f+0x1 ([kernel.kallsyms])\n\n"
                        "         swapper     0 [000] 1.1: 250000 cpu-clock: \n\tffff82 g+0x1 ([kernel.kallsyms])\n",
                        Error);
  ASSERT_TRUE(P) << Error;
  EXPECT_EQ(P->Samples, 2u);
  EXPECT_EQ(P->samplesOf("g"), 1u);
  // Without -g each line is a sample ending in its frame.
  const char *Flat = "         swapper     0 [000]   106.524251:     250000 cpu-clock:  ffffffff8224379b "
                     "pv_native_safe_halt+0xb ([kernel.kallsyms])\n"
                     "            dpkg  2075 [001]   106.524283:     250000 cpu-clock:  ffffffff816069df "
                     "copy_page_range.isra.0+0x7ef ([kernel.kallsyms])\r\n"
                     "            dpkg  2075 [001]   106.524284:     250000 cpu-clock:  7f12 [unknown] ([unknown])\n";
  P = readSampleProfile(Flat, Error);
  ASSERT_TRUE(P) << Error;
  EXPECT_EQ(P->Samples, 3u);
  EXPECT_EQ(P->samplesOf("copy_page_range"), 1u);
  EXPECT_EQ(P->samplesOf("pv_native_safe_halt"), 1u);
}

TEST(SampleProfile, ReadsFoldedStacksAndSaysWhereInputIsWrong) {
  std::string Error;
  std::optional<SampleProfile> P =
      readSampleProfile("entry_SYSCALL_64_[k];ksys_write_[k];pipe_write_[k] 30\nmain;pipe_write 5\nkswapd 2\n", Error);
  ASSERT_TRUE(P) << Error;
  EXPECT_EQ(P->Samples, 37u);
  EXPECT_EQ(P->samplesOf("pipe_write"), 35u);
  EXPECT_EQ(P->samplesOf("kswapd"), 2u);
  // Inline namespaces: perf prints them, summaries do not.
  P = readSampleProfile("main;app::v1::push 4\nmain;std::__cxx11::basic_string<char>::append 2\n", Error);
  ASSERT_TRUE(P) << Error;
  EXPECT_EQ(P->samplesOf("app::push"), 4u);
  EXPECT_EQ(P->samplesOf("app::v1::push"), 4u);
  EXPECT_EQ(P->samplesOf("std::basic_string<char>::append"), 2u);
  // A tracepoint's header with a call chain.
  P = readSampleProfile("sh 9 [000] 1.0: sched:sched_switch: prev_comm=sh prev_pid=9\n\tffff81 __schedule+0x1 ([kernel.kallsyms])\n",
                        Error);
  ASSERT_TRUE(P) << Error;
  EXPECT_EQ(P->samplesOf("__schedule"), 1u);
  // A stack no sample fell in names no function (fuzz/regressions/sample_profile).
  P = readSampleProfile("main;f 3\nmain;g 0\n", Error);
  ASSERT_TRUE(P) << Error;
  EXPECT_EQ(P->Samples, 3u);
  EXPECT_EQ(P->Inclusive.count("g"), 0u);
  EXPECT_FALSE(readSampleProfile("", Error));
  EXPECT_EQ(Error, "1:1: no samples");
  EXPECT_FALSE(readSampleProfile("main;f 3\n\tffff81 f+0x1 ([kernel.kallsyms])\n", Error));
  EXPECT_EQ(Error, "2:1: not a folded stack ('frame;...;frame COUNT'): 'ffff81 f+0x1 ([kernel.kallsyms])'");
  EXPECT_FALSE(readSampleProfile("comm 1 [000] 1.0: 1 cpu-clock: ffff81 f+0x1 ([kernel.kallsyms])\nmain;f 3\n", Error));
  EXPECT_EQ(Error, "2:1: a folded stack line in perf script output: 'main;f 3'");
  EXPECT_FALSE(readSampleProfile("\tffff81 f+0x1 ([kernel.kallsyms])\n", Error));
  EXPECT_EQ(Error, "1:1: a call-chain frame outside a sample (no sample header line above it)");
  EXPECT_FALSE(readSampleProfile("main;f 3\nmain;g 12345678901234567\n", Error));
  EXPECT_EQ(Error, "2:8: a sample count over 10^15");
  ASSERT_TRUE(readSampleProfile("main;f 0000000000000000001\n", Error)) << Error;
  EXPECT_FALSE(readSampleProfile("\x1f\x8b\x08", Error));
  EXPECT_EQ(Error, "1:1: a gzip file: gunzip it first");
  // perf script -F ip,sym: frames without their DSO.
  P = readSampleProfile("srv 1 [000] 1.0: 1 cpu-clock: \n\t55d0 app::hit(app::stats&)+0x9\n", Error);
  ASSERT_TRUE(P) << Error;
  EXPECT_EQ(P->samplesOf("app::hit"), 1u);
  EXPECT_FALSE(readSampleProfile("hello world\n", Error));
  EXPECT_EQ(Error.substr(0, 21), "1:1: neither a perf s");
  EXPECT_FALSE(readSampleProfile(std::string("main;f 3\nx\0y 1\n", 15), Error));
  EXPECT_EQ(Error, "2:2: a NUL byte: not a text profile");
}

TEST(SampleProfile, CoolsWritersItNeverSawRunAndKeepsWhatCallersInlined) {
  const std::string Field = "struct pipe@/pipe.h:1:8::head", Write = "pipe_write@/pipe.h:9:9",
                    Helper = "pipe_advance@/pipe.c:3:13", Resize = "pipe_resize@/pipe.h:10:6",
                    Extern = "pipe_account@/pipe.h:11:6", Other = "pipe_hot@/other.c:2:6";
  TuSummary Tu = tuWith("/pipe.c", {}), OtherTu = tuWith("/other.c", {});
  Tu.Fields[Field].Writers = {Helper, Resize, Extern};
  Tu.Callers[Helper] = {Write};       // static: may be inlined into pipe_write
  Tu.Callers[Extern] = {Write};       // external, defined elsewhere: would show up itself
  Tu.ExternNames = {{Write, "pipe_write"}, {Resize, "pipe_resize"}, {Extern, "pipe_account"}};
  Tu.DefinedHere = {Write, Resize};
  OtherTu.Callers[Extern] = {Other};
  OtherTu.ExternNames = {{Extern, "pipe_account"}, {Other, "pipe_hot"}};
  std::string Error;
  std::optional<TuSummary> Back = readSummary(writeSummary(Tu), Error);
  ASSERT_TRUE(Back) << Error;
  EXPECT_EQ(Back->DefinedHere, Tu.DefinedHere);
  std::optional<SampleProfile> Profile = readSampleProfile("main;pipe_write 40\nmain;pipe_hot 2\n", Error);
  ASSERT_TRUE(Profile) << Error;
  Profile->Path = "p.folded";
  auto Judge = [&](std::vector<const TuSummary *> Tus, const SampleProfile &With, size_t *Seen = nullptr) {
    ProgramSummary P;
    for (const TuSummary *T : Tus)
      P.add(*T);
    ProfileMatch M = P.coolWritersOffProfile(With);
    if (Seen)
      *Seen = M.Ran;
    return P.Fields.at(Field);
  };
  size_t Seen = 0;
  FieldFacts F = Judge({&*Back, &OtherTu}, *Profile, &Seen);
  EXPECT_EQ(Seen, 1u);
  EXPECT_TRUE(F.IdleReaders.empty());
  EXPECT_EQ(F.Writers, std::set<std::string>{Helper});
  EXPECT_EQ(F.SampledWhy.at(Helper), "'pipe_advance' may be inlined into 'pipe_write' (40 samples)");
  EXPECT_EQ(F.ColdWriters, (std::set<std::string>{Resize, Extern}));
  EXPECT_EQ(F.ProfileCooled, F.ColdWriters); // they still join what they write
  EXPECT_EQ(F.ColdWhy.at(Resize), "'pipe_resize' has no sample in the profile p.folded (42 samples), nor has a "
                                  "caller that can have inlined it");
  // Defined in the TU of a sampled caller: that caller may hold its code.
  OtherTu.DefinedHere = {Extern};
  F = Judge({&*Back, &OtherTu}, *Profile);
  EXPECT_EQ(F.Writers, (std::set<std::string>{Helper, Extern}));
  EXPECT_EQ(F.SampledWhy.at(Extern), "'pipe_account' may be inlined into 'pipe_hot' (2 samples)");
  // Sampled itself.
  Profile->Inclusive["pipe_resize"] = 1;
  EXPECT_EQ(Judge({&*Back, &OtherTu}, *Profile).SampledWhy.at(Resize), "'pipe_resize' in 1 sample");
  // Under a hot share of 5%, pipe_hot's 2 samples of 42 are as rare as none.
  Profile->HotShare = 0.05;
  F = Judge({&*Back, &OtherTu}, *Profile);
  EXPECT_EQ(F.Writers, (std::set<std::string>{Helper}));
  EXPECT_EQ(F.ColdWhy.at(Extern), "'pipe_account' may be inlined into 'pipe_hot' (2 samples) of the 42 samples in the "
                                  "profile p.folded, below its hot share (5%)");
  EXPECT_EQ(F.ColdWhy.at(Resize), "'pipe_resize' in 1 sample of the 42 samples in the profile p.folded, below its hot "
                                  "share (5%)");
  Profile->HotShare = 0;
  // A header's function may run inlined into callers no summary shows: the profile cannot cool it.
  Tu.DefinedInHeaders = {Resize};
  Profile->Inclusive.erase("pipe_resize");
  Back = readSummary(writeSummary(Tu), Error);
  ASSERT_TRUE(Back) << Error;
  EXPECT_EQ(Back->DefinedInHeaders, Tu.DefinedInHeaders);
  EXPECT_EQ(Judge({&*Back, &OtherTu}, *Profile).Writers, (std::set<std::string>{Helper, Resize, Extern}));
  // Readers the profile never saw run are idle (a lock only they take is not taken), but for a
  // header's.
  // pipe_poll ran, though it calls nothing and writes nothing.
  Tu.Fields[Field].Readers = {Write, "pipe_stat@/pipe.c:20:13", "pipe_peek@/pipe.h:12:20", "pipe_poll@/pipe.c:30:13"};
  Tu.DefinedInHeaders.insert("pipe_peek@/pipe.h:12:20");
  Profile->Inclusive["pipe_poll"] = 3;
  Back = readSummary(writeSummary(Tu), Error);
  EXPECT_EQ(Judge({&*Back, &OtherTu}, *Profile).IdleReaders, std::set<std::string>{"pipe_stat@/pipe.c:20:13"});
  // A profile of another program changes nothing.
  std::optional<SampleProfile> Elsewhere = readSampleProfile("main;unrelated 9\n", Error);
  F = Judge({&*Back, &OtherTu}, *Elsewhere, &Seen);
  EXPECT_EQ(Seen, 0u);
  EXPECT_EQ(F.Writers, (std::set<std::string>{Helper, Resize, Extern}));
  EXPECT_TRUE(F.ColdWriters.empty());
}

// Two fields written only under one lock take turns; one writer without it makes them contend.
TEST(WriterLocks, OneLockAtEveryWriteOfBothMakesThemOneObject) {
  auto Object = [](const std::string &Name) {
    SharedObject O;
    O.Name = Name;
    O.Leaf = O.Top = "struct s::" + Name;
    O.InUnion = {false};
    O.TypeKind = ObjectKind::Atomic;
    return O;
  };
  SharedObject A = Object("a"), B = Object("b");
  UseTable Uses;
  Uses[A.Leaf].Writers = {"set_a"};
  Uses[A.Leaf].WriterLocks["set_a"] = {"struct s::lock"};
  Uses[B.Leaf].Writers = {"set_b", "bump_b"};
  Uses[B.Leaf].WriterLocks["set_b"] = {"struct s::lock"};
  Uses[B.Leaf].WriterLocks["bump_b"] = {"struct s::lock", "other"};
  EXPECT_EQ(commonLock(A, B, Uses), "struct s::lock");
  Uses[B.Leaf].Writers.insert("race_b"); // no lock held
  EXPECT_EQ(commonLock(A, B, Uses), "");
}

// Found by fuzz/checker: a fix whose text comes from source bytes that are not UTF-8 (a Latin-1
// comment, a string literal) must come back from a summary byte for byte; JSON strings would
// have replaced each byte with U+FFFD, and --fix from the cache written those into the file.
TEST(Summary, TextThatIsNotUtf8SurvivesByteForByte) {
  TuSummary T;
  T.File = "/src/caf\xe9.c";
  Finding F;
  F.Check = "barrier-misplaced-write-barrier";
  F.Message = "'x\xff' is written after the barrier";
  F.At = {T.File, 3, 5};
  F.Fixes.push_back({T.File, 10, 4, "smp_store_release(&x, \"\xe9t\xe9\")"});
  T.Findings.push_back(F);
  T.Inputs.push_back({T.File, "0123456789abcdef"});
  std::string Error;
  std::optional<TuSummary> Back = readSummary(writeSummary(T), Error);
  ASSERT_TRUE(Back) << Error;
  EXPECT_EQ(Back->File, T.File);
  ASSERT_EQ(Back->Findings.size(), 1u);
  EXPECT_EQ(Back->Findings[0].Message, F.Message);
  ASSERT_EQ(Back->Findings[0].Fixes.size(), 1u);
  EXPECT_EQ(Back->Findings[0].Fixes[0].Text, F.Fixes[0].Text);
  EXPECT_EQ(Back->Findings[0].Fixes[0].File, T.File);
  EXPECT_EQ(Back->Inputs[0].first, T.File);
  EXPECT_EQ(writeSummary(*Back), writeSummary(T));
  // A malformed byte string is an error, not garbage.
  std::string Bad = writeSummary(T);
  Bad.replace(Bad.find("\"bytes\": \"") + 10, 1, "z");
  EXPECT_FALSE(readSummary(Bad, Error));
}

} // namespace
} // namespace lockwright
