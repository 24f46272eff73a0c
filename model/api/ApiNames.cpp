#include "api/ApiNames.h"

#include "Glob.h"

#include "spec/SpecLoader.h"

#include <algorithm>
#include <set>

namespace lockwright {

namespace {

/// `{prefix}` and `{PREFIX}` (lockwright's generated names) and '*' globs are
/// patterns; anything else is an exact name.
bool isPattern(const std::string &Name) {
  return Name.find('{') != std::string::npos || Name.find('*') != std::string::npos;
}

template <class T> std::optional<T> lookup(const std::unordered_map<std::string, T> &Map, const std::string &Key) {
  auto It = Map.find(Key);
  if (It == Map.end())
    return std::nullopt;
  return It->second;
}

std::optional<ApiNames::Access> accessForOp(const std::string &Op) {
  using A = ApiNames::Access;
  static const std::unordered_map<std::string, A> Map = {
      {"atomic_load", A::AtomicRead},        {"read_once", A::AtomicRead},
      {"acquire_load", A::AtomicRead},       {"cond_load_acquire", A::AtomicRead},
      {"cond_load_relaxed", A::AtomicRead},  {"counter_read", A::AtomicRead},
      {"atomic_store", A::AtomicWrite},      {"atomic_exchange", A::AtomicWrite},
      {"atomic_cmpxchg", A::AtomicWrite},    {"atomic_rmw", A::AtomicWrite},
      {"atomic_rmw_noreturn", A::AtomicWrite}, {"atomic_clear", A::AtomicWrite},
      {"write_once", A::AtomicWrite},        {"release_store", A::AtomicWrite},
      {"store_mb", A::AtomicWrite},          {"atomic_init", A::AtomicWrite},
      {"counter_add", A::AtomicWrite},       {"atomic_test_and_set", A::TasWord},
      {"lock_acquire", A::LockUse},          {"lock_release", A::LockUse},
      {"lock_try", A::LockUse},              {"lock_is_locked", A::LockUse},
      {"read_acquire", A::LockUse},          {"read_release", A::LockUse},
      {"write_acquire", A::LockUse},         {"write_release", A::LockUse},
      {"lock_init", A::LockUse},
      {"publish", A::AtomicWrite},           {"subscribe", A::AtomicRead},
  };
  return lookup(Map, Op);
}

/// Every order with the spec's spelling of it, in the enum's order.
const std::pair<const char *, ApiNames::MemoryOrder> OrderSpellings[] = {
    {"relaxed", ApiNames::MemoryOrder::Relaxed}, {"consume", ApiNames::MemoryOrder::Consume},
    {"acquire", ApiNames::MemoryOrder::Acquire}, {"release", ApiNames::MemoryOrder::Release},
    {"acq_rel", ApiNames::MemoryOrder::AcqRel},  {"seq_cst", ApiNames::MemoryOrder::SeqCst},
    {"full", ApiNames::MemoryOrder::Full}};

std::optional<ApiNames::MemoryOrder> memoryOrder(const std::string &Order) {
  for (const auto &[Spelling, Value] : OrderSpellings)
    if (Order == Spelling)
      return Value;
  return std::nullopt;
}

/// Ops that name a type, a constant or an attribute rather than something code does.
bool isDeclarationOp(const std::string &Op) {
  static const std::unordered_map<std::string, bool> Declarations = {
      {"atomic_type", true},      {"lock_type", true},         {"rwlock_type", true},
      {"lock_table_type", true},  {"counter_type", true},      {"cache_line_size", true},
      {"cacheline_aligned", true}, {"destructive_size", true}, {"constructive_size", true},
      {"cache_padded", true},     {"lock_constant", true},     {"order_constant", true},
      {"init_section", true},     {"per_cpu_section", true}};
  return Declarations.count(Op) != 0;
}

} // namespace

template <class T> uint64_t ApiNames::Table<T>::anchorKey(std::string_view Anchor) {
  uint64_t Key = Anchor.size();
  for (char C : Anchor)
    Key = Key << 8 | static_cast<unsigned char>(C);
  return Key;
}

template <class T> const T *ApiNames::Table<T>::findPtr(const std::string &Name) const {
  if (auto It = Exact.find(Name); It != Exact.end())
    return &It->second;
  if (Patterns.empty())
    return nullptr;
  auto It = PatternAnswers.find(Name);
  if (It == PatternAnswers.end()) {
    // The first pattern in spec order that matches.
    size_t First = Patterns.size();
    auto Try = [&](const std::vector<size_t> &Candidates) {
      for (size_t I : Candidates)
        if (I < First && Patterns[I].first.matches(Name))
          First = I;
    };
    Try(Unanchored);
    std::string_view View = Name;
    for (size_t Size = 1; Size <= std::min(AnchorSize, View.size()); ++Size) {
      if (auto B = ByHead.find(anchorKey(View.substr(0, Size))); B != ByHead.end())
        Try(B->second);
      if (auto B = ByTail.find(anchorKey(View.substr(View.size() - Size))); B != ByTail.end())
        Try(B->second);
    }
    std::optional<T> Answer;
    if (First < Patterns.size())
      Answer = Patterns[First].second;
    It = PatternAnswers.emplace(Name, std::move(Answer)).first;
  }
  return It->second ? &*It->second : nullptr;
}

template <class T> std::optional<T> ApiNames::Table<T>::find(const std::string &Name) const {
  if (const T *Found = findPtr(Name))
    return *Found;
  return std::nullopt;
}

template <class T> void ApiNames::Table<T>::add(const std::string &Name, T Value) {
  if (!isPattern(Name)) {
    Exact.emplace(Name, Value);
    return;
  }
  Glob Pattern(Name, {"{prefix}", "{PREFIX}"});
  size_t Index = Patterns.size();
  std::string_view Head = Pattern.head(), Tail = Pattern.tail();
  if (!Head.empty())
    ByHead[anchorKey(Head.substr(0, AnchorSize))].push_back(Index);
  else if (!Tail.empty())
    ByTail[anchorKey(Tail.substr(Tail.size() - std::min(AnchorSize, Tail.size())))].push_back(Index);
  else
    Unanchored.push_back(Index);
  Patterns.emplace_back(std::move(Pattern), Value);
}

ApiNames ApiNames::fromSpecs(const std::vector<ApiSpec> &Specs, const std::vector<std::string> &ExtraLocks,
                             const std::vector<std::string> &ExtraAtomics) {
  ApiNames Names;
  for (const ApiSpec &Spec : Specs) {
    for (const ApiNameEntry &Entry : Spec.Names) {
      std::string Name(Entry.Name);
      std::string Op(Entry.Op);
      Names.Dialect.emplace(Name, Spec.Dialect);
      std::optional<MemoryOrder> Order;
      if (!Entry.Order.empty())
        Order = memoryOrder(std::string(Entry.Order));
      if (Op == "order_constant") {
        if (Order)
          Names.OrderConstants.add(Name, *Order);
        continue;
      }
      // A configuration entry point is the user's own function, not an API primitive.
      if (Op == "configure") {
        Names.ConfigurationEntries.add(Name, Spec.Dialect);
        continue;
      }
      if (Op == "register") {
        Names.RegistrationEntries.add(Name, Spec.Dialect);
        continue;
      }
      if (Order)
        Names.FixedOrders.add(Name, *Order);
      if (!isDeclarationOp(Op)) {
        Operation Operation{Op, Order, Entry.OrderArg, Spec.Dialect};
        Operation.HardwareRmw = Entry.HardwareRmw;
        Operation.Member = std::string(Entry.Member);
        Operation.Callable = Entry.Kind == "function" || Entry.Kind == "template";
        Names.Operations.add(Name, Operation);
        std::string Key = Spec.Dialect + " " + Op;
        if (Names.FirstNameIndex.emplace(Key, Names.FirstNameOfOp.size()).second)
          Names.FirstNameOfOp.emplace_back(std::move(Key), Name);
      }
      if (Op == "lock_type" || Op == "rwlock_type" || Op == "lock_table_type")
        Names.Types.add(Name, TypeRole::Lock);
      else if (Op == "atomic_type" || Op == "counter_type") {
        if (Name == "_Atomic")
          Names.AtomicQualifier = true;
        else
          Names.Types.add(Name, TypeRole::Atomic);
      } else if (Op == "destructive_size")
        Names.Constants.add(Name, Constant::DestructiveSize);
      else if (Op == "cache_line_size")
        Names.Constants.add(Name, Constant::CacheLineSize);
      else if (Op == "init_section")
        Names.Sections.add(Name, Section::Init);
      else if (Op == "per_cpu_section")
        Names.Sections.add(Name, Section::PerCpu);
      else if (std::optional<Access> A = accessForOp(Op))
        Names.Accesses.add(Name, *A);
    }
  }
  for (const std::string &L : ExtraLocks)
    Names.Types.add(L, TypeRole::Lock);
  for (const std::string &A : ExtraAtomics)
    Names.Types.add(A, TypeRole::Atomic);
  return Names;
}

std::optional<ApiNames::Access> ApiNames::accessOf(const Operation &Op) { return accessForOp(Op.Op); }

std::optional<ApiNames::TypeRole> ApiNames::typeRole(const std::string &QualifiedName) const {
  return Types.find(QualifiedName);
}

std::optional<ApiNames::Access> ApiNames::access(const std::string &CalleeOrMacro) const {
  return Accesses.find(CalleeOrMacro);
}

std::optional<ApiNames::Access> ApiNames::methodAccess(const std::string &ClassName, const std::string &Method) const {
  return Accesses.find(ClassName + "::" + Method);
}

std::optional<ApiNames::Constant> ApiNames::constant(const std::string &Name) const { return Constants.find(Name); }

std::optional<ApiNames::Section> ApiNames::section(const std::string &Name) const { return Sections.find(Name); }

std::optional<std::string> ApiNames::configurationEntry(const std::string &Function) const {
  return ConfigurationEntries.find(Function);
}

std::optional<std::string> ApiNames::registrationEntry(const std::string &Function) const {
  return RegistrationEntries.find(Function);
}

std::optional<ApiNames::MemoryOrder> ApiNames::orderConstant(const std::string &Name) const {
  return OrderConstants.find(Name);
}

std::optional<ApiNames::MemoryOrder> ApiNames::fixedOrder(const std::string &CalleeOrMacro) const {
  return FixedOrders.find(CalleeOrMacro);
}

const char *ApiNames::orderName(MemoryOrder Order) {
  for (const auto &[Spelling, Value] : OrderSpellings)
    if (Value == Order)
      return Spelling;
  return "";
}

bool ApiNames::acquiresLock(const Operation &Op) {
  return Op.Op == "lock_acquire" || Op.Op == "lock_try" || Op.Op == "read_acquire" || Op.Op == "write_acquire";
}

bool ApiNames::releasesLock(const Operation &Op) {
  return Op.Op == "lock_release" || Op.Op == "read_release" || Op.Op == "write_release";
}

bool ApiNames::contends(const Operation &Op, bool OnPointer) {
  static const std::set<std::string> RmwsAndPolls = {
      "atomic_exchange", "atomic_cmpxchg",      "atomic_rmw",        "atomic_rmw_noreturn",
      "counter_add",     "atomic_test_and_set", "cond_load_acquire", "cond_load_relaxed"};
  static const std::set<std::string> Ordered = {"atomic_clear", "acquire_load", "release_store", "store_mb"};
  if (RmwsAndPolls.count(Op.Op))
    return true;
  if (OnPointer)
    return false;
  if (Ordered.count(Op.Op))
    return true;
  // smp_store_release-like names with a fixed order (C11's explicit ones spell it per call).
  bool LoadOrStore = Op.Op == "atomic_load" || Op.Op == "atomic_store";
  return LoadOrStore && Op.Order && *Op.Order != MemoryOrder::Relaxed && *Op.Order != MemoryOrder::Consume;
}

const ApiNames::Operation *ApiNames::operation(const std::string &CalleeOrMacro) const {
  return Operations.findPtr(CalleeOrMacro);
}

const ApiNames::Operation *ApiNames::methodOperation(const std::string &ClassName, const std::string &Method) const {
  return operation(ClassName + "::" + Method);
}

std::optional<std::string> ApiNames::nameFor(const std::string &Dialect, const std::string &Op) const {
  auto It = FirstNameIndex.find(Dialect + " " + Op);
  if (It == FirstNameIndex.end())
    return std::nullopt;
  return FirstNameOfOp[It->second].second;
}

std::optional<std::string> ApiNames::nameFor(const std::string &Dialect, const std::string &Op,
                                             const std::string &Like, const std::string &LikeOp) const {
  std::optional<std::string> Name = nameFor(Dialect, Op);
  if (!Name)
    return std::nullopt;
  const std::string Token = "{prefix}";
  size_t At = Name->find(Token);
  if (At == std::string::npos)
    return Name;
  std::optional<std::string> Own = nameFor(Dialect, LikeOp);
  if (!Own || Own->compare(0, Token.size(), Token) != 0)
    return std::nullopt;
  std::string Suffix = Own->substr(Token.size());
  if (Like.size() <= Suffix.size() || Like.compare(Like.size() - Suffix.size(), Suffix.size(), Suffix) != 0)
    return std::nullopt;
  return Name->substr(0, At) + Like.substr(0, Like.size() - Suffix.size()) + Name->substr(At + Token.size());
}

std::vector<std::string> ApiNames::namesOf(const std::string &Op) const {
  std::vector<std::string> Out;
  std::string Suffix = " " + Op;
  for (const auto &[Key, Name] : FirstNameOfOp)
    if (Key.size() > Suffix.size() && Key.compare(Key.size() - Suffix.size(), Suffix.size(), Suffix) == 0 &&
        !isPattern(Name))
      Out.push_back(Name);
  return Out;
}

std::string ApiNames::dialectOf(const std::string &Name) const {
  auto It = Dialect.find(Name);
  return It == Dialect.end() ? std::string() : It->second;
}

} // namespace lockwright
