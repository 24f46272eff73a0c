#include "analysis/SharingPairs.h"

#include "analysis/LayoutMath.h"
#include "SetOps.h"

#include <algorithm>
#include <optional>

namespace lockwright {

namespace {

const FieldFacts *factsOf(const std::string &Key, const UseTable &Uses) {
  auto It = Uses.find(Key);
  return It == Uses.end() ? nullptr : &It->second;
}

/// O's uses: its field's own (through a pointer to its record) and those through the embedded
/// paths that end at it in this record. Empty facts where there are none.
std::optional<FieldFacts> objectFacts(const SharedObject &O, const UseTable &Uses) {
  const FieldFacts *Own = factsOf(O.Leaf, Uses);
  std::optional<FieldFacts> All;
  if (Own)
    All = *Own;
  for (const std::string &Key : O.PathKeys)
    if (const FieldFacts *Path = factsOf(Key, Uses)) {
      if (!All)
        All.emplace();
      All->Readers.insert(Path->Readers.begin(), Path->Readers.end());
      All->Writers.insert(Path->Writers.begin(), Path->Writers.end());
      All->ColdWriters.insert(Path->ColdWriters.begin(), Path->ColdWriters.end());
      All->ColdWhy.insert(Path->ColdWhy.begin(), Path->ColdWhy.end());
      All->SampledWhy.insert(Path->SampledWhy.begin(), Path->SampledWhy.end());
      All->IdleReaders.insert(Path->IdleReaders.begin(), Path->IdleReaders.end());
      All->ProfileCooled.insert(Path->ProfileCooled.begin(), Path->ProfileCooled.end());
      All->Thread.insert(Path->Thread.begin(), Path->Thread.end());
    }
  return All;
}

/// The entry of the one thread that runs every hot write of an object (a lock's: also every
/// taker that ran, whoever writes it), or "" when some writer may run on another thread or
/// nothing in the program writes it.
std::string writingThread(const FieldFacts &F, bool Lock) {
  std::string Thread;
  auto Runs = [&](const std::string &Function) {
    auto It = F.Thread.find(Function);
    if (It == F.Thread.end() || (!Thread.empty() && Thread != It->second))
      return false;
    Thread = It->second;
    return true;
  };
  for (const std::string &W : F.Writers)
    if (!Runs(W))
      return "";
  if (Lock)
    for (const std::string &R : F.Readers)
      if (!F.IdleReaders.count(R) && !Runs(R))
        return "";
  return Thread;
}

/// The locks held at every hot write of O: the intersection over its writers (none when some
/// writer holds none, or O has no writer).
std::set<std::string> locksAtEveryWrite(const FieldFacts &F) {
  std::optional<std::set<std::string>> Common;
  for (const std::string &Writer : F.Writers) {
    auto It = F.WriterLocks.find(Writer);
    if (It == F.WriterLocks.end())
      return {};
    if (!Common)
      Common = It->second;
    else
      keepCommon(*Common, It->second);
  }
  return Common ? *Common : std::set<std::string>();
}

/// "'f'", or "the code" when the use was outside any function (an initializer).
std::string who(const std::string &Function) { return Function.empty() ? "the code" : "'" + Function + "'"; }

/// Whether A and B lie in different members of one union: never both live (struct page's
/// overlays), so never written at once.
bool exclusive(const SharedObject &A, const SharedObject &B) {
  size_t N = std::min(A.Containers.size(), B.Containers.size());
  for (size_t I = 0; I <= N; ++I) {
    const std::string &PA = I < A.Containers.size() ? A.Containers[I] : A.Leaf;
    const std::string &PB = I < B.Containers.size() ? B.Containers[I] : B.Leaf;
    if (PA != PB)
      return A.InUnion[I] && B.InUnion[I];
  }
  return false;
}

} // namespace

ObjectKind kindOf(const SharedObject &O, const UseTable &Uses) {
  if (O.TypeKind != ObjectKind::None)
    return O.TypeKind;
  if (const FieldFacts *F = factsOf(O.Leaf, Uses)) {
    if (F->LockUse || F->TasWord)
      return ObjectKind::Lock;
    if (F->AtomicAccess && (!O.Link || F->ContendedAsPointer))
      return ObjectKind::Atomic;
  }
  return ObjectKind::None;
}

std::string reasonFor(const SharedObject &O, const UseTable &Uses) {
  std::string Name = "'" + O.Name + "'";
  if (O.TypeKind != ObjectKind::None)
    return Name + " is " + (O.TypeKind == ObjectKind::Lock ? "a lock" : "an atomic") + " by its type '" + O.TypeName +
           "'";
  const FieldFacts *F = factsOf(O.Leaf, Uses);
  if (!F)
    return "";
  if (F->LockUse || F->TasWord)
    return Name + " is a lock: " + who(F->FirstApiIn) + " passes it to '" + F->FirstApi + "'";
  if (O.Link)
    return Name + " is a link contended for: " + who(F->PointerContendingApiIn) + " passes it to '" +
           F->PointerContendingApi + "'";
  if (F->Contended)
    return Name + " is contended: " + who(F->ContendingApiIn) + " passes it to '" + F->ContendingApi + "'";
  return Name + " is shared lock-free: " + who(F->FirstApiIn) + " passes it to '" + F->FirstApi + "'";
}

std::string oneWritingThread(const SharedObject &A, const SharedObject &B, const UseTable &Uses) {
  std::optional<FieldFacts> FA = objectFacts(A, Uses), FB = objectFacts(B, Uses);
  if (!FA || !FB)
    return "";
  std::string TA = writingThread(*FA, kindOf(A, Uses) == ObjectKind::Lock);
  return !TA.empty() && TA == writingThread(*FB, kindOf(B, Uses) == ObjectKind::Lock) ? TA : "";
}

std::string commonLock(const SharedObject &A, const SharedObject &B, const UseTable &Uses) {
  std::optional<FieldFacts> FA = objectFacts(A, Uses), FB = objectFacts(B, Uses);
  if (!FA || !FB)
    return "";
  std::set<std::string> LA = locksAtEveryWrite(*FA), LB = locksAtEveryWrite(*FB);
  // A lock and the data written only under it are one object, as are two fields written
  // only under one lock: their writers take turns.
  if (kindOf(A, Uses) == ObjectKind::Lock)
    LA.insert(A.Leaf);
  if (kindOf(B, Uses) == ObjectKind::Lock)
    LB.insert(B.Leaf);
  for (const std::string &L : LA)
    if (LB.count(L))
      return L;
  return "";
}

bool usedTogether(const SharedObject &A, const SharedObject &B, const UseTable &Uses) {
  // Records that hold both (the struct around the pair) say nothing about the pair.
  size_t Shared = 0;
  while (Shared < A.Containers.size() && Shared < B.Containers.size() && A.Containers[Shared] == B.Containers[Shared])
    ++Shared;
  // Writers are the hot ones: a write at init or to an object not yet handed on contends with
  // nobody. A writer a sample profile made cold still writes what it writes together.
  auto Gather = [&](const SharedObject &O, std::set<std::string> &Writers, std::set<std::string> &Accessors) {
    auto Add = [&](const FieldFacts *F) {
      if (F) {
        for (const std::set<std::string> *Set : {&F->Writers, &F->ProfileCooled}) {
          Writers.insert(Set->begin(), Set->end());
          Accessors.insert(Set->begin(), Set->end());
        }
        Accessors.insert(F->Readers.begin(), F->Readers.end());
      }
    };
    std::optional<FieldFacts> Own = objectFacts(O, Uses);
    Add(Own ? &*Own : nullptr);
    for (size_t I = Shared; I < O.Containers.size(); ++I)
      Add(factsOf(O.Containers[I], Uses));
  };
  std::set<std::string> WA, AA, WB, AB;
  Gather(A, WA, AA);
  Gather(B, WB, AB);
  bool Accessed = false, HandsAToB = false, HandsBToA = false;
  for (const std::string &F : AA) {
    if (!AB.count(F))
      continue;
    bool WritesA = WA.count(F) != 0, WritesB = WB.count(F) != 0;
    if (WritesA && WritesB)
      return true; // one function writes both: one object
    // A function that only reads both (a statistics summer: `return s->hits + s->misses;`)
    // does not make them one object: their writers still contend.
    if (!WritesA && !WritesB)
      continue;
    Accessed = true;
    HandsAToB |= WritesA;
    HandsBToA |= WritesB;
  }
  // Each side writes its own and reads the other's (a ring's head and tail):
  // two parties handing off through the pair, the textbook false-sharing case.
  return Accessed && !(HandsAToB && HandsBToA);
}

std::string writersNote(const SharedObject &A, const SharedObject &B, const UseTable &Uses) {
  auto List = [](const std::set<std::string> &Keys) {
    std::string Out;
    size_t N = 0;
    for (const std::string &K : Keys) {
      if (N == 3) {
        Out += " and " + std::to_string(Keys.size() - 3) + " more";
        break;
      }
      Out += std::string(N ? ", " : "") + "'" + functionName(K) + "'";
      ++N;
    }
    return Out;
  };
  std::optional<FieldFacts> OwnA = objectFacts(A, Uses), OwnB = objectFacts(B, Uses);
  const FieldFacts *FA = OwnA ? &*OwnA : nullptr, *FB = OwnB ? &*OwnB : nullptr;
  auto Written = [&](const SharedObject &O, const FieldFacts *F) {
    if (!F || F->Writers.empty())
      return "'" + O.Name + "' by whoever uses its type";
    return "'" + O.Name + "' by " + List(F->Writers);
  };
  std::string Note = "no function writes both: " + Written(B, FB) + "; " + Written(A, FA);
  std::set<std::string> OnlyRead;
  std::map<std::string, std::string> Why;
  if (FA && FB) {
    for (const std::string &F : FA->accessors())
      if (FB->accessors().count(F) && !FA->Writers.count(F) && !FB->Writers.count(F) && FA->Readers.count(F) &&
          FB->Readers.count(F))
        OnlyRead.insert(F);
  }
  // The writes that do not count, by the code's own rules and by a profile, each with the first
  // reason and how many more.
  std::map<std::string, std::string> ByProfile;
  for (const FieldFacts *F : {FA, FB})
    if (F)
      for (const auto &[Function, Reason] : F->ColdWhy)
        if (!F->Writers.count(Function))
          (Reason.find(InTheProfile) != std::string::npos ? ByProfile : Why).emplace(Function, Reason);
  if (!OnlyRead.empty())
    Note += "; " + List(OnlyRead) + " only read" + (OnlyRead.size() == 1 ? "s" : "") + " both, which does not make "
            "them one object";
  auto DoNotCount = [&](const char *Which, const std::map<std::string, std::string> &Reasons) {
    if (!Reasons.empty())
      Note += std::string("; writes ") + Which + " do not count (" + Reasons.begin()->second +
              (Reasons.size() > 1 ? ", and " + std::to_string(Reasons.size() - 1) + " more" : "") + ")";
  };
  DoNotCount("at init, teardown, configuration or before publication", Why);
  DoNotCount("on paths the profile saw rarely or never", ByProfile);
  // A side written only on one thread: the other is written on other threads (by another
  // thread of its own, or by more than one).
  std::string ThreadA = FA ? writingThread(*FA, kindOf(A, Uses) == ObjectKind::Lock) : "";
  std::string ThreadB = FB ? writingThread(*FB, kindOf(B, Uses) == ObjectKind::Lock) : "";
  auto OnlyBy = [](const SharedObject &O, const std::string &Thread) {
    return "'" + O.Name + "' is written only by the one thread that runs '" + functionName(Thread) + "'";
  };
  if (!ThreadA.empty() && !ThreadB.empty())
    Note += "; " + OnlyBy(B, ThreadB) + ", '" + A.Name + "' only by the one that runs '" + functionName(ThreadA) + "'";
  else if (!ThreadA.empty() || !ThreadB.empty())
    Note += "; " + (ThreadB.empty() ? OnlyBy(A, ThreadA) + ", '" + B.Name : OnlyBy(B, ThreadB) + ", '" + A.Name) +
            "' on other threads too";
  // Under a sample profile: the measured frequency that keeps the pair.
  std::map<std::string, std::string> Sampled;
  for (const FieldFacts *F : {FA, FB})
    if (F)
      for (const auto &[Function, Reason] : F->SampledWhy)
        if (F->Writers.count(Function))
          Sampled.emplace(Function, Reason);
  if (!Sampled.empty()) {
    Note += "; the profile saw them written: ";
    size_t Shown = 0;
    for (const auto &[Function, Reason] : Sampled)
      if (Shown < 3)
        Note += std::string(Shown++ ? ", " : "") + Reason;
    if (Sampled.size() > Shown)
      Note += ", and " + std::to_string(Sampled.size() - Shown) + " more";
  }
  return Note;
}

bool mayBeWritten(const SharedObject &O, const UseTable &Uses) {
  if (O.Const)
    return false;
  std::optional<FieldFacts> Own = objectFacts(O, Uses);
  const FieldFacts *F = Own ? &*Own : nullptr;
  // Nothing in the program uses it: the claim that it is written while shared would rest on
  // nothing (a header record of which the files checked use other parts).
  if (!F || F->accessors().empty())
    return false;
  // A lock is written by whoever takes it, also through wrappers (lock_guard) that name it
  // without a lock call we recognise; one that only init or teardown touches is not taken.
  // Under a profile, a lock only functions that never ran take is not taken.
  if (kindOf(O, Uses) == ObjectKind::Lock)
    return !F->Writers.empty() || std::any_of(F->Readers.begin(), F->Readers.end(), [&](const std::string &R) {
             return !F->IdleReaders.count(R);
           });
  return !F->Writers.empty();
}

std::set<std::string> perCpuRecords(const std::vector<std::pair<std::string, RecordSummary>> &Records) {
  auto RecordOf = [](const std::string &FieldKey) { return FieldKey.substr(0, FieldKey.rfind("::")); };
  std::set<std::string> PerCpu;
  std::map<std::string, std::set<std::string>> Embedders; // record -> the records holding it
  for (const auto &[Label, R] : Records) {
    if (R.perCpuOrThread())
      PerCpu.insert(R.Key);
    for (const SharedObject &O : R.Objects)
      for (size_t I = 1; I <= O.Containers.size(); ++I)
        Embedders[RecordOf(I < O.Containers.size() ? O.Containers[I] : O.Leaf)].insert(R.Key);
  }
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const auto &[Record, Holders] : Embedders)
      if (!PerCpu.count(Record) &&
          std::all_of(Holders.begin(), Holders.end(), [&](const std::string &H) { return PerCpu.count(H) != 0; }))
        Changed |= PerCpu.insert(Record).second;
  }
  return PerCpu;
}

std::vector<SharingPair> falseSharingPairs(const RecordSummary &R, const UseTable &Uses, uint64_t Window) {
  std::vector<SharingPair> Pairs;
  // Each CPU writes its own copy of a per-CPU record: its fields do not contend with other
  // CPUs' writes (a remote CPU's rare write aside).
  if (R.perCpuOrThread())
    return Pairs;
  std::vector<const SharedObject *> Objects;
  for (const SharedObject &O : R.Objects)
    if (kindOf(O, Uses) != ObjectKind::None && mayBeWritten(O, Uses))
      Objects.push_back(&O);
  std::stable_sort(Objects.begin(), Objects.end(),
                   [](const SharedObject *A, const SharedObject *B) { return A->Offset < B->Offset; });
  for (size_t J = 1; J < Objects.size(); ++J) {
    const SharedObject &B = *Objects[J];
    for (size_t I = J; I-- > 0;) {
      const SharedObject &A = *Objects[I];
      uint64_t AEnd = A.Offset + std::max<uint64_t>(A.Size, 1);
      // Two parts of one embedded member (a lock's words, a work item's list link and data)
      // are judged where that member's record is declared, once, not again in every record
      // that embeds it.
      bool OneEmbeddedObject = A.Top == B.Top && A.Top != A.Leaf && B.Top != B.Leaf;
      if (B.Offset < AEnd || OneEmbeddedObject || exclusive(A, B) ||
          !mayShareWindow(AEnd, B.Offset, Window, R.Align) || usedTogether(A, B, Uses) ||
          !commonLock(A, B, Uses).empty() || !oneWritingThread(A, B, Uses).empty())
        continue;
      // A member beside an embedded object shares with the object: one finding, not one per
      // part of it.
      bool Reported = std::any_of(Pairs.begin(), Pairs.end(), [&](const SharingPair &P) {
        return P.First->Top == A.Top && P.Second->Top == B.Top;
      });
      if (!Reported)
        Pairs.push_back({&A, &B});
      break;
    }
  }
  return Pairs;
}

} // namespace lockwright
