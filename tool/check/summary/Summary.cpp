#include "summary/Summary.h"

#include "analysis/LayoutMath.h"
#include "summary/SampleProfile.h"

#include "SetOps.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include "llvm/Support/xxhash.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

namespace lockwright {

const char *syncKindName(ObjectKind K) {
  switch (K) {
  case ObjectKind::Lock:
    return "lock";
  case ObjectKind::Atomic:
    return "atomic";
  case ObjectKind::None:
    break;
  }
  return "object";
}

std::set<std::string> FieldFacts::accessors() const {
  std::set<std::string> All = Readers;
  All.insert(Writers.begin(), Writers.end());
  All.insert(ColdWriters.begin(), ColdWriters.end());
  return All;
}

std::set<std::string>::iterator FieldFacts::cool(std::set<std::string>::iterator It, std::string Why) {
  ColdWriters.insert(*It);
  ColdWhy[*It] = std::move(Why);
  WriterLocks.erase(*It);
  return Writers.erase(It);
}

std::string functionName(const std::string &Key) { return Key.substr(0, Key.find('@')); }

void FieldFacts::merge(const FieldFacts &Other) {
  Readers.insert(Other.Readers.begin(), Other.Readers.end());
  Writers.insert(Other.Writers.begin(), Other.Writers.end());
  ColdWriters.insert(Other.ColdWriters.begin(), Other.ColdWriters.end());
  ColdWhy.insert(Other.ColdWhy.begin(), Other.ColdWhy.end());
  SampledWhy.insert(Other.SampledWhy.begin(), Other.SampledWhy.end());
  IdleReaders.insert(Other.IdleReaders.begin(), Other.IdleReaders.end());
  ProfileCooled.insert(Other.ProfileCooled.begin(), Other.ProfileCooled.end());
  // One function seen by two TUs (a header's inline function): the locks both saw held.
  for (const auto &[Function, Locks] : Other.WriterLocks)
    if (auto [It, New] = WriterLocks.emplace(Function, Locks); !New)
      keepCommon(It->second, Locks);
  AtomicAccess |= Other.AtomicAccess;
  LockUse |= Other.LockUse;
  TasWord |= Other.TasWord;
  auto Keep = [](std::string &Name, std::string &In, const std::string &OtherName, const std::string &OtherIn) {
    if (Name.empty() && !OtherName.empty()) {
      Name = OtherName;
      In = OtherIn;
    }
  };
  Keep(FirstApi, FirstApiIn, Other.FirstApi, Other.FirstApiIn);
  if (Other.Contended)
    Keep(ContendingApi, ContendingApiIn, Other.ContendingApi, Other.ContendingApiIn);
  if (Other.ContendedAsPointer)
    Keep(PointerContendingApi, PointerContendingApiIn, Other.PointerContendingApi, Other.PointerContendingApiIn);
  Contended |= Other.Contended;
  ContendedAsPointer |= Other.ContendedAsPointer;
}

void ProgramSummary::add(const TuSummary &S) {
  Targets.emplace(S.Target.Label, S.Target);
  for (const RecordSummary &R : S.Records) {
    auto [It, New] = RecordIndex.emplace(std::make_pair(S.Target.Label, R.Key), Records.size());
    if (New) {
      Records.push_back({S.Target.Label, R});
      continue;
    }
    RecordSummary &Known = Records[It->second].second;
    // Another TU saw other fields of the record used as sync objects.
    for (const SharedObject &O : R.Objects)
      if (std::none_of(Known.Objects.begin(), Known.Objects.end(),
                       [&](const SharedObject &K) { return K.Path == O.Path; }))
        Known.Objects.push_back(O);
    Known.NewBeforeCxx17 |= R.NewBeforeCxx17;
    Known.PerCpu |= R.PerCpu;
    Known.ThreadLocal |= R.ThreadLocal;
    Known.SharedGlobal |= R.SharedGlobal;
  }
  for (const auto &[Key, Facts] : S.Fields)
    Fields[Key].merge(Facts);
  for (const auto &[Callee, Locks] : S.CallLocks)
    if (auto [It, New] = CallLocks.emplace(Callee, Locks); !New)
      keepCommon(It->second, Locks);
  AddressTaken.insert(S.AddressTaken.begin(), S.AddressTaken.end());
  for (const auto &[Callee, Set] : S.Callers) {
    Callers[Callee].insert(Set.begin(), Set.end());
    if (!S.ExternNames.count(Callee) || S.DefinedHere.count(Callee))
      InlinableCallers[Callee].insert(Set.begin(), Set.end());
  }
  ColdFunctions.insert(S.ColdFunctions.begin(), S.ColdFunctions.end());
  DefinedInHeaders.insert(S.DefinedInHeaders.begin(), S.DefinedInHeaders.end());
  ExternNames.insert(S.ExternNames.begin(), S.ExternNames.end());
  for (const ThreadStartSummary &T : S.ThreadStarts)
    if (std::none_of(ThreadStarts.begin(), ThreadStarts.end(), [&](const ThreadStartSummary &K) {
          return K.Entry == T.Entry && K.Site == T.Site && K.At == T.At;
        }))
      ThreadStarts.push_back(T);
  // A function this TU names, other than as what a thread it starts runs or in a registration
  // to run once, has callers nobody sees.
  for (const std::string &Key : S.AddressTaken)
    if (S.NamedApartFromThreadStarts.count(Key) ||
        (!S.RunsOnce.count(Key) && std::none_of(S.ThreadStarts.begin(), S.ThreadStarts.end(),
                                                [&](const ThreadStartSummary &T) { return T.Entry == Key; })))
      NamedApartFromThreadStarts.insert(Key);
  for (const auto &[Callee, Set] : S.RepeatedCalls)
    RepeatedCalls[Callee].insert(Set.begin(), Set.end());
  RunsOnce.insert(S.RunsOnce.begin(), S.RunsOnce.end());
  size_t Tu = TuCount++;
  for (const OrderingSide &Side : S.Sides) {
    auto [It, New] = SideIndex.emplace(std::make_tuple(S.Target.Label, Side.Writer, Side.Function, Side.Index), Sides.size());
    if (New)
      Sides.push_back({S.Target.Label, Side, {}});
    Sides[It->second].Tus.insert(Tu);
  }
}

void ProgramSummary::inheritCallerLocks() {
  for (auto &[Key, Facts] : Fields)
    for (auto &[Writer, Locks] : Facts.WriterLocks)
      if (auto It = CallLocks.find(Writer); It != CallLocks.end() && !AddressTaken.count(Writer))
        Locks.insert(It->second.begin(), It->second.end());
}

const std::string &ProgramSummary::named(const std::string &Key) const {
  auto It = ExternNames.find(Key);
  return It == ExternNames.end() ? Key : It->second;
}

std::set<std::string> ProgramSummary::named(const std::set<std::string> &Keys) const {
  std::set<std::string> Out;
  for (const std::string &Key : Keys)
    Out.insert(named(Key));
  return Out;
}

std::map<std::string, std::set<std::string>>
ProgramSummary::named(const std::map<std::string, std::set<std::string>> &Calls) const {
  std::map<std::string, std::set<std::string>> Out;
  for (const auto &[Callee, Set] : Calls)
    Out[named(Callee)].merge(named(Set));
  return Out;
}

void ProgramSummary::coolWritersCalledOnlyFromCold() {
  auto Named = [&](const std::string &Key) -> const std::string & { return named(Key); };
  std::map<std::string, std::set<std::string>> CallersOf = named(Callers);
  std::set<std::string> Taken = named(AddressTaken);
  // Functions cold in the program: those a rule of their own says run rarely, then every
  // function whose callers are all cold; a function named other than in a call (a callback, an
  // ops table) has callers nobody sees, and one that calls itself is not cooled by its own call.
  std::map<std::string, std::string> Cold;
  for (const auto &[Key, Why] : ColdFunctions)
    Cold.emplace(Named(Key), Why);
  std::map<std::string, unsigned> Depth; // links in a cooled function's reason, to keep notes short
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const auto &[Callee, Set] : CallersOf) {
      if (Set.empty() || Cold.count(Callee) || Taken.count(Callee) || Set.count(Callee))
        continue;
      if (std::all_of(Set.begin(), Set.end(), [&](const std::string &C) { return Cold.count(C) != 0; })) {
        const std::string &Caller = *Set.begin();
        unsigned Links = Depth[Caller] + 1;
        Depth[Callee] = Links;
        Cold[Callee] = "'" + functionName(Callee) + "' is called only from '" + functionName(Caller) + "'" +
                       (Set.size() > 1 ? " and " + std::to_string(Set.size() - 1) + " more like it" : "") +
                       (Links <= 3 ? "; " + Cold.at(Caller) : "; ...");
        Changed = true;
      }
    }
  }
  for (auto &[Key, Facts] : Fields)
    for (auto It = Facts.Writers.begin(); It != Facts.Writers.end();) {
      auto Why = Cold.find(Named(*It));
      if (Why == Cold.end()) {
        ++It;
        continue;
      }
      // The program's reason replaces a TU's (a fresh object at one of its writes).
      It = Facts.cool(It, Why->second);
    }
}

void ProgramSummary::assignThreadRoles() {
  if (ThreadStarts.empty())
    return;
  auto Named = [&](const std::string &Key) -> const std::string & { return named(Key); };
  std::map<std::string, std::set<std::string>> CallersOf = named(Callers), Repeated = named(RepeatedCalls);
  std::set<std::string> Taken = named(AddressTaken), NamedOtherwise = named(NamedApartFromThreadStarts),
                        Headers = named(DefinedInHeaders);
  // Functions that run once per run of the program: by a rule of their own (main, a
  // constructor, an initcall) when nothing calls them or names them otherwise, or called at
  // one place, not in a loop, from one that does. A header's function is compiled into every
  // file that includes it (a static constructor there runs once per file), may have calls in
  // files no summary describes, and its repeated calls are not kept.
  std::set<std::string> Once, OwnRule;
  for (const auto &[Key, Why] : RunsOnce) {
    const std::string &F = Named(Key);
    OwnRule.insert(F);
    auto Calls = CallersOf.find(F);
    if ((Calls == CallersOf.end() || Calls->second.empty()) && !NamedOtherwise.count(F) && !Headers.count(F))
      Once.insert(F);
  }
  // (A constructor main also calls runs twice: a function with a rule of its own is never once
  // by its one caller.)
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const auto &[Callee, Set] : CallersOf) {
      if (Set.size() != 1 || Once.count(Callee) || OwnRule.count(Callee) || Taken.count(Callee) ||
          Headers.count(Callee))
        continue;
      const std::string &Caller = *Set.begin();
      if (Caller != Callee && Once.count(Caller) && !Repeated[Callee].count(Caller))
        Changed |= Once.insert(Callee).second;
    }
  }
  // Threads started once: one start in the program, not in a loop, in a function that runs once
  // (not in an initialiser outside any function: a member's default, a thread-local, a header's
  // global in every file), their entry named nowhere else and called by nobody.
  std::map<std::string, std::vector<const ThreadStartSummary *>> StartsOf;
  for (const ThreadStartSummary &T : ThreadStarts)
    StartsOf[Named(T.Entry)].push_back(&T);
  std::map<std::string, std::string> Role; // function -> the entry of the one thread it runs on
  for (const auto &[Entry, Starts] : StartsOf) {
    const ThreadStartSummary &T = *Starts.front();
    auto Calls = CallersOf.find(Entry);
    bool Called = Calls != CallersOf.end() && !(Calls->second.size() == 1 && Calls->second.count(Entry));
    if (Starts.size() == 1 && !T.InLoop && !NamedOtherwise.count(Entry) && !Called && !T.Site.empty() &&
        Once.count(Named(T.Site)))
      Role[Entry] = Entry;
  }
  // Functions every caller of which runs only on one such thread (a call to itself aside), and
  // that are named nowhere but in calls.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const auto &[Callee, Set] : CallersOf) {
      if (Role.count(Callee) || Taken.count(Callee))
        continue;
      std::optional<std::string> Thread;
      bool One = true;
      for (const std::string &Caller : Set) {
        if (Caller == Callee)
          continue;
        auto R = Role.find(Caller);
        if (R == Role.end() || (Thread && *Thread != R->second)) {
          One = false;
          break;
        }
        Thread = R->second;
      }
      if (One && Thread) {
        Role[Callee] = *Thread;
        Changed = true;
      }
    }
  }
  for (auto &[Key, Facts] : Fields)
    for (const std::set<std::string> *Set : {&Facts.Writers, &Facts.Readers, &Facts.ColdWriters})
      for (const std::string &F : *Set)
        if (auto R = Role.find(Named(F)); R != Role.end())
          Facts.Thread[F] = R->second;
}

ProfileMatch ProgramSummary::coolWritersOffProfile(const SampleProfile &Profile) {
  // How often each function ran: the most of its own samples and those of a caller that ran
  // and may have inlined it (sampled code is attributed to the function it was compiled into,
  // so a static helper shows up only as its callers); and, for notes, its own count and the
  // caller the inlined count is of.
  std::map<std::string, uint64_t> Ran, Own;
  std::map<std::string, std::string> InlinedInto;
  auto Consider = [&](const std::string &Key) {
    const std::string &Name = named(Key);
    if (!Ran.count(Name))
      if (uint64_t N = Profile.samplesOf(functionName(Name)))
        Ran[Name] = Own[Name] = N;
  };
  for (const auto &[Callee, Set] : Callers) {
    Consider(Callee);
    for (const std::string &Caller : Set)
      Consider(Caller);
  }
  for (const auto &[Key, Facts] : Fields) {
    for (const std::string &Writer : Facts.Writers)
      Consider(Writer);
    for (const std::string &Reader : Facts.Readers)
      Consider(Reader);
  }
  std::map<std::string, std::set<std::string>> Inlinable = named(InlinableCallers);
  for (bool Changed = true; Changed;) { // counts only grow, to one of the finitely many sampled
    Changed = false;
    for (const auto &[Callee, Set] : Inlinable)
      for (const std::string &Caller : Set) {
        auto From = Ran.find(Caller);
        if (From == Ran.end() || From->second <= (Ran.count(Callee) ? Ran.at(Callee) : 0))
          continue;
        Ran[Callee] = From->second;
        // The sampled function the count is of: the caller, or the one it got its count from.
        InlinedInto[Callee] =
            Own.count(Caller) && Own.at(Caller) == From->second ? Caller : InlinedInto.at(Caller);
        Changed = true;
      }
  }
  // A function the profile cannot answer for: a header's, which runs inlined into callers
  // anywhere, also in files outside the run (mmgrab in context_switch), and one perf names its
  // own way (a lambda).
  auto Unjudged = [&](const std::string &Key) {
    return DefinedInHeaders.count(Key) || !profileCanName(functionName(named(Key)));
  };
  // Whether it is a profile of this program: writers it saw, but main, which every program has,
  // and what main may have inlined.
  ProfileMatch Match;
  std::set<std::string> Counted;
  auto SeenApartFromMain = [&](const std::string &Name) {
    if (Own.count(Name))
      return true;
    auto Into = InlinedInto.find(Name);
    return Into != InlinedInto.end() && functionName(Into->second) != "main";
  };
  for (const auto &[Key, Facts] : Fields)
    for (const std::string &Writer : Facts.Writers)
      if (!Writer.empty() && !Unjudged(Writer) && functionName(named(Writer)) != "main" &&
          Counted.insert(named(Writer)).second) {
        ++Match.Writers;
        Match.Ran += SeenApartFromMain(named(Writer));
      }
  if (Match.Ran == 0)
    return Match;
  auto Samples = [](uint64_t N) { return std::to_string(N) + (N == 1 ? " sample" : " samples"); };
  uint64_t Enough = Profile.hotSamples();
  auto How = [&](const std::string &Name) {
    auto Self = Own.find(Name);
    if (Self != Own.end() && (Self->second >= Enough || !InlinedInto.count(Name)))
      return "'" + functionName(Name) + "' in " + Samples(Self->second);
    const std::string &Caller = InlinedInto.at(Name);
    return "'" + functionName(Name) + "' may be inlined into '" + functionName(Caller) + "' (" +
           Samples(Ran.at(Name)) + ")";
  };
  auto Rare = [&](const std::string &Key) {
    auto Count = Ran.find(named(Key));
    return Count == Ran.end() || Count->second < Enough;
  };
  for (auto &[Key, Facts] : Fields)
    for (const std::string &Reader : Facts.Readers)
      if (!Reader.empty() && !Unjudged(Reader) && Rare(Reader))
        Facts.IdleReaders.insert(Reader);
  std::string Of = " of the " + Samples(Profile.Samples) + InTheProfile + Profile.Path;
  for (auto &[Key, Facts] : Fields)
    for (auto It = Facts.Writers.begin(); It != Facts.Writers.end();) {
      // An initializer outside any function writes no field at run time; and see Unjudged.
      if (It->empty() || Unjudged(*It)) {
        ++It;
        continue;
      }
      const std::string &Name = named(*It);
      if (!Rare(*It)) {
        Facts.SampledWhy[*It] = How(Name);
        ++It;
        continue;
      }
      Facts.ProfileCooled.insert(*It);
      It = Facts.cool(It, Ran.count(Name) ? How(Name) + Of + ", below its hot share (" + Profile.hotShareText() + ")"
                                          : "'" + functionName(*It) + "' has no sample" + InTheProfile +
                                                Profile.Path + " (" + Samples(Profile.Samples) +
                                                "), nor has a caller that can have inlined it");
    }
  return Match;
}

std::string absolutePath(const std::string &Path) {
  llvm::SmallString<256> Absolute(Path);
  llvm::sys::fs::make_absolute(Absolute);
  llvm::sys::path::remove_dots(Absolute, true);
  return Absolute.str().str();
}

std::string contentHash(std::string_view Bytes) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << llvm::format_hex_no_prefix(llvm::xxh3_64bits(llvm::StringRef(Bytes.data(), Bytes.size())), 16);
  return Out;
}

// JSON: short keys would save bytes, but a summary is read by people debugging a build.
namespace {

/// Text from the source or the file system (a fix's replacement, a message quoting code, a
/// path), which need not be UTF-8 as JSON strings must be: such a string is kept byte for byte
/// as {"bytes": hex} (JSON would have replaced each bad byte with U+FFFD, and a fix read back
/// from the cache would have written those into the file).
Value text(const std::string &S) {
  if (llvm::json::isUTF8(S))
    return S;
  return Object{{"bytes", llvm::toHex(S, /*LowerCase=*/true)}};
}

Value point(const SourcePoint &P) {
  if (!P.valid())
    return nullptr;
  return Array{text(P.File), P.Line, P.Column};
}

Value edit(const Edit &E) {
  return Object{{"file", text(E.File)}, {"offset", E.Offset}, {"length", E.Length}, {"text", text(E.Text)}};
}

Value edits(const std::vector<Edit> &List) {
  Array A;
  for (const Edit &E : List)
    A.push_back(edit(E));
  return A;
}

template <class Container> Value strings(const Container &List) {
  Array A;
  for (const std::string &S : List)
    A.push_back(text(S));
  return A;
}

/// A map of function keys to sets of keys (call_locks, callers), as an object of arrays.
Value stringSets(const std::map<std::string, std::set<std::string>> &Map) {
  Object O;
  for (const auto &[Key, Set] : Map)
    O[Key] = strings(Set);
  return O;
}

/// A map of function keys to text (cold_functions, extern_names), as an object of strings.
Value texts(const std::map<std::string, std::string> &Map) {
  Object O;
  for (const auto &[Key, Text] : Map)
    O[Key] = text(Text);
  return O;
}

const char *kindName(ObjectKind K) { return K == ObjectKind::Lock ? "lock" : K == ObjectKind::Atomic ? "atomic" : ""; }

Value finding(const Finding &F) {
  Array Notes;
  for (const FindingNote &N : F.Notes)
    Notes.push_back(
        Object{{"at", point(N.At)}, {"message", text(N.Message)}, {"fixes", edits(N.Fixes)}, {"source", text(N.Source)}});
  return Object{{"check", F.Check},
                {"level", F.Severity == Finding::Level::Error ? "error" : "warning"},
                {"message", text(F.Message)},
                {"at", point(F.At)},
                {"fixes", edits(F.Fixes)},
                {"notes", std::move(Notes)}};
}

Value object(const SharedObject &O) {
  Object J{{"path", O.Path},        {"name", O.Name},         {"leaf", O.Leaf},
           {"top", O.Top},          {"containers", strings(O.Containers)},
           {"path_keys", strings(O.PathKeys)},
           {"in_union", [&] {
              Array A;
              for (bool B : O.InUnion)
                A.push_back(B);
              return A;
            }()},
           {"offset", O.Offset},    {"size", O.Size},         {"type_kind", kindName(O.TypeKind)},
           {"type_name", O.TypeName}, {"link", O.Link},       {"const", O.Const},
           {"at", point(O.At)},     {"reportable", O.Reportable}, {"suppressed", O.Suppressed}};
  if (O.AlignAt)
    J["align_at"] = edit(*O.AlignAt);
  return J;
}

Value record(const RecordSummary &R) {
  Array Objects;
  for (const SharedObject &O : R.Objects)
    Objects.push_back(object(O));
  return Object{{"key", R.Key},
                {"label", R.Label},
                {"at", point(R.At)},
                {"align", R.Align},
                {"align_spelling", R.AlignSpelling},
                {"new_before_cxx17", R.NewBeforeCxx17},
                {"per_cpu", R.PerCpu},
                {"thread_local", R.ThreadLocal},
                {"shared_global", R.SharedGlobal},
                {"objects", std::move(Objects)}};
}

Value facts(const FieldFacts &F) {
  return Object{{"readers", strings(F.Readers)},
                {"writers", strings(F.Writers)},
                {"cold_writers", strings(F.ColdWriters)},
                {"cold_why", [&] {
                   Object Why;
                   for (const auto &[Function, Reason] : F.ColdWhy)
                     Why[Function] = Reason;
                   return Why;
                 }()},
                {"writer_locks", [&] {
                   Object Locks;
                   for (const auto &[Function, Held] : F.WriterLocks)
                     Locks[Function] = strings(Held);
                   return Locks;
                 }()},
                {"atomic_access", F.AtomicAccess},
                {"contended", F.Contended},
                {"contended_as_pointer", F.ContendedAsPointer},
                {"lock_use", F.LockUse},
                {"tas_word", F.TasWord},
                {"first_api", Array{F.FirstApi, F.FirstApiIn}},
                {"contending_api", Array{F.ContendingApi, F.ContendingApiIn}},
                {"pointer_contending_api", Array{F.PointerContendingApi, F.PointerContendingApiIn}}};
}

Value side(const OrderingSide &S) {
  Array Data, Stray;
  for (const SideAccess &A : S.Data)
    Data.push_back(Object{{"location", A.Location},   {"text", A.Text},         {"at", point(A.At)},
                          {"index", A.Index},         {"load", A.Load},         {"ordered", A.Ordered},
                          {"deliberate", A.Deliberate}, {"dependent", A.Dependent}, {"in_one_callee", A.InOneCallee}});
  for (unsigned I : S.StrayBarriers)
    Stray.push_back(I);
  return Object{{"role", S.Writer ? "writer" : "reader"},
                {"function", S.Function},
                {"label", S.Label},
                {"location", S.Location},
                {"text", S.Text},
                {"event", S.Event},
                {"at", point(S.At)},
                {"index", S.Index},
                {"plain", S.Plain},
                {"rmw", S.Rmw},
                {"dependency_orders", S.DependencyOrders},
                {"stray_barriers", std::move(Stray)},
                {"data", std::move(Data)},
                {"fixes", edits(S.Fixes)},
                {"hardware_note", S.HardwareNote},
                {"reportable", S.Reportable},
                {"suppressed", S.Suppressed}};
}

/// Reads JSON back, remembering the first thing missing or mistyped.
class Reader {
public:
  std::string Error;

  bool fail(const std::string &What) {
    if (Error.empty())
      Error = What;
    return false;
  }
  const Object *obj(const Value *V, const char *What) {
    const Object *O = V ? V->getAsObject() : nullptr;
    if (!O)
      fail(std::string("expected an object for '") + What + "'");
    return O;
  }
  const Array *arr(const Object &O, const char *Key) {
    const Array *A = O.getArray(Key);
    if (!A)
      fail(std::string("expected an array '") + Key + "'");
    return A;
  }
  std::string str(const Object &O, const char *Key) {
    const Value *V = O.get(Key);
    if (!V || (V->kind() != Value::String && V->kind() != Value::Object)) {
      fail(std::string("expected a string '") + Key + "'");
      return "";
    }
    return str(*V);
  }
  std::string str(const Value &V) {
    std::optional<llvm::StringRef> S = V.getAsString();
    if (S)
      return S->str();
    // text()'s form of a string that is not UTF-8.
    std::optional<llvm::StringRef> Hex = V.getAsObject() ? V.getAsObject()->getString("bytes") : std::nullopt;
    std::string Bytes;
    // An odd count of digits is refused too (tryGetFromHex would read a leading 0).
    if (!Hex || Hex->size() % 2 || !llvm::tryGetFromHex(*Hex, Bytes)) {
      fail("expected a string");
      return "";
    }
    return Bytes;
  }
  uint64_t num(const Object &O, const char *Key) {
    std::optional<int64_t> N = O.getInteger(Key);
    if (!N || *N < 0)
      fail(std::string("expected a count '") + Key + "'");
    return N ? static_cast<uint64_t>(*N) : 0;
  }
  bool flag(const Object &O, const char *Key) {
    std::optional<bool> B = O.getBoolean(Key);
    if (!B)
      fail(std::string("expected true or false for '") + Key + "'");
    return B.value_or(false);
  }
  SourcePoint point(const Object &O, const char *Key) {
    SourcePoint P;
    const Value *V = O.get(Key);
    if (!V || V->kind() == Value::Null)
      return P;
    const Array *A = V->getAsArray();
    if (!A || A->size() != 3 || !(*A)[1].getAsInteger() || !(*A)[2].getAsInteger()) {
      fail(std::string("expected [file, line, column] for '") + Key + "'");
      return P;
    }
    P.File = str((*A)[0]);
    P.Line = static_cast<unsigned>(*(*A)[1].getAsInteger());
    P.Column = static_cast<unsigned>(*(*A)[2].getAsInteger());
    return P;
  }
  Edit edit(const Value &V) {
    Edit E;
    if (const Object *O = obj(&V, "fix")) {
      E.File = str(*O, "file");
      E.Offset = static_cast<unsigned>(num(*O, "offset"));
      E.Length = static_cast<unsigned>(num(*O, "length"));
      E.Text = str(*O, "text");
    }
    return E;
  }
  std::vector<Edit> edits(const Object &O, const char *Key) {
    std::vector<Edit> Out;
    if (const Array *A = arr(O, Key))
      for (const Value &V : *A)
        Out.push_back(edit(V));
    return Out;
  }
  template <class Container> Container strings(const Object &O, const char *Key) {
    Container Out;
    if (const Array *A = arr(O, Key))
      for (const Value &V : *A)
        Out.insert(Out.end(), str(V));
    return Out;
  }
  /// stringSets' form read back; What names the items for the error ("locks").
  std::map<std::string, std::set<std::string>> stringSets(const Object &O, const char *Key, const char *What) {
    std::map<std::string, std::set<std::string>> Out;
    if (const Object *Map = obj(O.get(Key), Key))
      for (const auto &[Name, Set] : *Map)
        if (const Array *A = Set.getAsArray()) {
          std::set<std::string> &Into = Out[Name.str()]; // kept when empty (call_locks: no lock held)
          for (const Value &V : *A)
            Into.insert(str(V));
        } else
          fail(std::string("expected an array of ") + What + " in '" + Key + "'");
    return Out;
  }
  /// texts' form read back.
  std::map<std::string, std::string> texts(const Object &O, const char *Key) {
    std::map<std::string, std::string> Out;
    if (const Object *Map = obj(O.get(Key), Key))
      for (const auto &[Name, Text] : *Map)
        Out[Name.str()] = str(Text);
    return Out;
  }
  std::pair<std::string, std::string> named(const Object &O, const char *Key) {
    const Array *A = arr(O, Key);
    if (!A || A->size() != 2) {
      fail(std::string("expected [api, function] for '") + Key + "'");
      return {};
    }
    return {str((*A)[0]), str((*A)[1])};
  }
  ObjectKind kind(const Object &O, const char *Key) {
    std::string K = str(O, Key);
    if (K == "lock")
      return ObjectKind::Lock;
    if (K == "atomic")
      return ObjectKind::Atomic;
    if (!K.empty())
      fail("unknown kind '" + K + "'");
    return ObjectKind::None;
  }

  Finding finding(const Value &V) {
    Finding F;
    const Object *O = obj(&V, "finding");
    if (!O)
      return F;
    F.Check = str(*O, "check");
    F.Severity = str(*O, "level") == "error" ? Finding::Level::Error : Finding::Level::Warning;
    F.Message = str(*O, "message");
    F.At = point(*O, "at");
    F.Fixes = edits(*O, "fixes");
    if (const Array *Notes = arr(*O, "notes"))
      for (const Value &NV : *Notes)
        if (const Object *N = obj(&NV, "note"))
          F.Notes.push_back({point(*N, "at"), str(*N, "message"), edits(*N, "fixes"), str(*N, "source")});
    return F;
  }

  SharedObject object(const Value &V) {
    SharedObject S;
    const Object *O = obj(&V, "object");
    if (!O)
      return S;
    S.Path = str(*O, "path");
    S.Name = str(*O, "name");
    S.Leaf = str(*O, "leaf");
    S.Top = str(*O, "top");
    S.Containers = strings<std::vector<std::string>>(*O, "containers");
    S.PathKeys = strings<std::vector<std::string>>(*O, "path_keys");
    if (const Array *A = arr(*O, "in_union"))
      for (const Value &V : *A)
        S.InUnion.push_back(V.getAsBoolean().value_or(false));
    if (S.InUnion.size() != S.Containers.size() + 1)
      fail("'in_union' must have one entry per container and one for the object");
    S.Offset = num(*O, "offset");
    S.Size = num(*O, "size");
    S.TypeKind = kind(*O, "type_kind");
    S.TypeName = str(*O, "type_name");
    S.Link = flag(*O, "link");
    S.Const = flag(*O, "const");
    S.At = point(*O, "at");
    S.Reportable = flag(*O, "reportable");
    S.Suppressed = flag(*O, "suppressed");
    if (const Value *A = O->get("align_at"))
      S.AlignAt = edit(*A);
    return S;
  }

  RecordSummary record(const Value &V) {
    RecordSummary R;
    const Object *O = obj(&V, "record");
    if (!O)
      return R;
    R.Key = str(*O, "key");
    R.Label = str(*O, "label");
    R.At = point(*O, "at");
    R.Align = num(*O, "align");
    // The layout arithmetic divides by it (fuzz/summary found a summary with 0).
    if (!isPowerOfTwo(R.Align))
      fail("a record's 'align' must be a power of two");
    R.AlignSpelling = str(*O, "align_spelling");
    R.NewBeforeCxx17 = flag(*O, "new_before_cxx17");
    R.PerCpu = flag(*O, "per_cpu");
    R.ThreadLocal = flag(*O, "thread_local");
    R.SharedGlobal = flag(*O, "shared_global");
    if (const Array *A = arr(*O, "objects"))
      for (const Value &OV : *A)
        R.Objects.push_back(object(OV));
    return R;
  }

  OrderingSide side(const Value &V) {
    OrderingSide S;
    const Object *O = obj(&V, "side");
    if (!O)
      return S;
    std::string Role = str(*O, "role");
    if (Role != "writer" && Role != "reader")
      fail("expected 'writer' or 'reader' for 'role'");
    S.Writer = Role == "writer";
    S.Function = str(*O, "function");
    S.Label = str(*O, "label");
    S.Location = str(*O, "location");
    S.Text = str(*O, "text");
    S.Event = str(*O, "event");
    S.At = point(*O, "at");
    S.Index = static_cast<unsigned>(num(*O, "index"));
    S.Plain = flag(*O, "plain");
    S.Rmw = flag(*O, "rmw");
    S.DependencyOrders = flag(*O, "dependency_orders");
    if (const Array *A = arr(*O, "stray_barriers"))
      for (const Value &I : *A) {
        std::optional<int64_t> N = I.getAsInteger();
        if (!N || *N < 0)
          fail("expected event indices in 'stray_barriers'");
        S.StrayBarriers.push_back(static_cast<unsigned>(N.value_or(0)));
      }
    if (const Array *A = arr(*O, "data"))
      for (const Value &DV : *A)
        if (const Object *D = obj(&DV, "data")) {
          SideAccess Access;
          Access.Location = str(*D, "location");
          Access.Text = str(*D, "text");
          Access.At = point(*D, "at");
          Access.Index = static_cast<unsigned>(num(*D, "index"));
          Access.Load = flag(*D, "load");
          Access.Ordered = flag(*D, "ordered");
          Access.Deliberate = flag(*D, "deliberate");
          Access.Dependent = flag(*D, "dependent");
          Access.InOneCallee = flag(*D, "in_one_callee");
          S.Data.push_back(std::move(Access));
        }
    S.Fixes = edits(*O, "fixes");
    S.HardwareNote = str(*O, "hardware_note");
    S.Reportable = flag(*O, "reportable");
    S.Suppressed = flag(*O, "suppressed");
    return S;
  }

  FieldFacts facts(const Value &V) {
    FieldFacts F;
    const Object *O = obj(&V, "field");
    if (!O)
      return F;
    F.Readers = strings<std::set<std::string>>(*O, "readers");
    F.Writers = strings<std::set<std::string>>(*O, "writers");
    F.ColdWriters = strings<std::set<std::string>>(*O, "cold_writers");
    if (const Object *Why = obj(O->get("cold_why"), "cold_why"))
      for (const auto &[Function, Reason] : *Why)
        F.ColdWhy[Function.str()] = str(Reason);
    if (const Object *Locks = obj(O->get("writer_locks"), "writer_locks"))
      for (const auto &[Function, Held] : *Locks)
        if (const Array *A = Held.getAsArray()) {
          std::set<std::string> &Out = F.WriterLocks[Function.str()]; // empty: writes without a lock
          for (const Value &Lock : *A)
            Out.insert(str(Lock));
        }
    F.AtomicAccess = flag(*O, "atomic_access");
    F.Contended = flag(*O, "contended");
    F.ContendedAsPointer = flag(*O, "contended_as_pointer");
    F.LockUse = flag(*O, "lock_use");
    F.TasWord = flag(*O, "tas_word");
    std::tie(F.FirstApi, F.FirstApiIn) = named(*O, "first_api");
    std::tie(F.ContendingApi, F.ContendingApiIn) = named(*O, "contending_api");
    std::tie(F.PointerContendingApi, F.PointerContendingApiIn) = named(*O, "pointer_contending_api");
    return F;
  }
};

} // namespace

std::string writeSummary(const TuSummary &S) {
  Array Inputs, Findings, Records;
  for (const auto &[Path, Hash] : S.Inputs)
    Inputs.push_back(Array{text(Path), Hash});
  for (const Finding &F : S.Findings)
    Findings.push_back(finding(F));
  for (const RecordSummary &R : S.Records)
    Records.push_back(record(R));
  Object Fields;
  for (const auto &[Key, F] : S.Fields)
    Fields[Key] = facts(F);
  Array Sides;
  for (const OrderingSide &O : S.Sides)
    Sides.push_back(side(O));
  Array Starts;
  for (const ThreadStartSummary &T : S.ThreadStarts)
    Starts.push_back(Object{{"entry", text(T.Entry)}, {"site", text(T.Site)}, {"at", point(T.At)}, {"in_loop", T.InLoop}});
  Object Root{{"format", SummaryFormat},
              {"version", SummaryVersion},
              {"file", text(S.File)},
              {"directory", text(S.Directory)},
              {"command", strings(S.Command)},
              {"target", Object{{"label", S.Target.Label},
                                {"destructive", S.Target.Destructive},
                                {"destructive_source", S.Target.DestructiveSource},
                                {"layout_note", S.Target.LayoutNote}}},
              {"checks", S.Checks},
              {"warnings_as_errors", S.WarningsAsErrors},
              {"inputs", std::move(Inputs)},
              {"compile_errors", S.CompileErrors},
              {"suppressed", S.Suppressed},
              {"findings", std::move(Findings)},
              {"records", std::move(Records)},
              {"fields", std::move(Fields)},
              {"ordering_sides", std::move(Sides)},
              {"call_locks", stringSets(S.CallLocks)},
              {"address_taken", strings(S.AddressTaken)},
              {"callers", stringSets(S.Callers)},
              {"cold_functions", texts(S.ColdFunctions)},
              {"extern_names", texts(S.ExternNames)},
              {"defined_here", strings(S.DefinedHere)},
              {"defined_in_headers", strings(S.DefinedInHeaders)},
              {"thread_starts", std::move(Starts)},
              {"named_apart_from_thread_starts", strings(S.NamedApartFromThreadStarts)},
              {"repeated_calls", stringSets(S.RepeatedCalls)},
              {"runs_once", texts(S.RunsOnce)}};
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << llvm::formatv("{0:1}", Value(std::move(Root))) << "\n";
  return Out;
}

std::optional<TuSummary> readSummary(const std::string &Text, std::string &Error) {
  llvm::Expected<Value> Parsed = llvm::json::parse(Text);
  if (!Parsed) {
    Error = "not JSON: " + llvm::toString(Parsed.takeError());
    return std::nullopt;
  }
  Reader In;
  const Object *Root = In.obj(&*Parsed, "summary");
  if (!Root) {
    Error = In.Error;
    return std::nullopt;
  }
  if (Root->getString("format") != llvm::StringRef(SummaryFormat)) {
    Error = std::string("not a ") + SummaryFormat + " file";
    return std::nullopt;
  }
  if (Root->getInteger("version") != SummaryVersion) {
    Error = "summary format version " + std::to_string(Root->getInteger("version").value_or(0)) +
            ", this lockwright reads version " + std::to_string(SummaryVersion);
    return std::nullopt;
  }
  TuSummary S;
  S.File = In.str(*Root, "file");
  S.Directory = In.str(*Root, "directory");
  S.Command = In.strings<std::vector<std::string>>(*Root, "command");
  if (const Object *T = In.obj(Root->get("target"), "target")) {
    S.Target.Label = In.str(*T, "label");
    S.Target.Destructive = In.num(*T, "destructive");
    if (!isPowerOfTwo(S.Target.Destructive))
      In.fail("the target's 'destructive' size must be a power of two");
    S.Target.DestructiveSource = In.str(*T, "destructive_source");
    S.Target.LayoutNote = In.str(*T, "layout_note");
  }
  S.Checks = In.str(*Root, "checks");
  S.WarningsAsErrors = In.str(*Root, "warnings_as_errors");
  if (const Array *A = In.arr(*Root, "inputs"))
    for (const Value &V : *A) {
      const Array *Pair = V.getAsArray();
      if (!Pair || Pair->size() != 2) {
        In.fail("expected [path, hash] in 'inputs'");
        break;
      }
      S.Inputs.push_back({In.str((*Pair)[0]), In.str((*Pair)[1])});
    }
  S.CompileErrors = In.flag(*Root, "compile_errors");
  S.Suppressed = static_cast<unsigned>(In.num(*Root, "suppressed"));
  if (const Array *A = In.arr(*Root, "findings"))
    for (const Value &V : *A)
      S.Findings.push_back(In.finding(V));
  if (const Array *A = In.arr(*Root, "records"))
    for (const Value &V : *A)
      S.Records.push_back(In.record(V));
  if (const Object *Fields = In.obj(Root->get("fields"), "fields"))
    for (const auto &[Key, V] : *Fields)
      S.Fields[Key.str()] = In.facts(V);
  if (const Array *A = In.arr(*Root, "ordering_sides"))
    for (const Value &V : *A)
      S.Sides.push_back(In.side(V));
  S.CallLocks = In.stringSets(*Root, "call_locks", "locks");
  for (const auto &Callee : In.strings<std::set<std::string>>(*Root, "address_taken"))
    S.AddressTaken.insert(Callee);
  S.Callers = In.stringSets(*Root, "callers", "functions");
  S.ColdFunctions = In.texts(*Root, "cold_functions");
  S.ExternNames = In.texts(*Root, "extern_names");
  S.DefinedHere = In.strings<std::set<std::string>>(*Root, "defined_here");
  S.DefinedInHeaders = In.strings<std::set<std::string>>(*Root, "defined_in_headers");
  if (const Array *A = In.arr(*Root, "thread_starts"))
    for (const Value &V : *A)
      if (const Object *O = In.obj(&V, "thread start"))
        S.ThreadStarts.push_back({In.str(*O, "entry"), In.str(*O, "site"), In.point(*O, "at"), In.flag(*O, "in_loop")});
  S.NamedApartFromThreadStarts = In.strings<std::set<std::string>>(*Root, "named_apart_from_thread_starts");
  S.RepeatedCalls = In.stringSets(*Root, "repeated_calls", "functions");
  S.RunsOnce = In.texts(*Root, "runs_once");
  if (!In.Error.empty()) {
    Error = In.Error;
    return std::nullopt;
  }
  return S;
}

} // namespace lockwright
