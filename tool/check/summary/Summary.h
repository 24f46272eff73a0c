// What one translation unit's check run leaves behind (the map step of the whole-program
// checks), as plain data without Clang types: its findings, and what the use-dependent checks
// need from beyond the TU: the records holding sync objects, with their layout, and the uses of
// each of their fields keyed so that two TUs name the same field alike. Summaries are written
// as versioned JSON, one file per TU; merged (the reduce step), they are judged as one program.
#ifndef LOCKWRIGHT_TOOL_CHECK_SUMMARY_SUMMARY_H
#define LOCKWRIGHT_TOOL_CHECK_SUMMARY_SUMMARY_H

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace lockwright {

struct SampleProfile;

/// The format's name and version; a reader refuses any other version.
inline constexpr const char *SummaryFormat = "lockwright-summary";
inline constexpr int SummaryVersion = 7; // 2: ordering sides; 3: the locks held by each writer; 4: note sources;
                                          // 5: the calls, functions that run rarely, external names;
                                          // 6: the functions each TU can inline (defined_here, defined_in_headers);
                                          // 7: threads started, repeated calls, functions that run once

/// A point in a source file: an absolute path and 1-based line and column. Line 0: none.
struct SourcePoint {
  std::string File;
  unsigned Line = 0, Column = 0;
  bool valid() const { return Line != 0; }
  bool operator<(const SourcePoint &O) const {
    return std::tie(File, Line, Column) < std::tie(O.File, O.Line, O.Column);
  }
  bool operator==(const SourcePoint &O) const {
    return File == O.File && Line == O.Line && Column == O.Column;
  }
};

/// One replacement in a file: Length bytes at Offset become Text (clang-apply-replacements').
struct Edit {
  std::string File;
  unsigned Offset = 0, Length = 0;
  std::string Text;
};

struct FindingNote {
  SourcePoint At;
  std::string Message;
  std::vector<Edit> Fixes;
  /// The spec's citation behind the note's fact; printed once per run (--show-sources: always).
  std::string Source = {};
  /// Message with its citation, as files read by tools (SARIF, exported fixes) carry it.
  std::string fullText() const { return Source.empty() ? Message : Message + " (" + Source + ")"; }
};

/// A diagnostic as printed: one of ours (Check set) or a compiler error (Check empty).
struct Finding {
  enum class Level { Warning, Error };
  std::string Check;
  Level Severity = Level::Warning; // Error: a compiler error, or a check in --warnings-as-errors
  std::string Message;              // without the "[check]" tag
  SourcePoint At;
  std::vector<Edit> Fixes;
  std::vector<FindingNote> Notes;
};

/// What a synchronisation object is: a lock, an atomic, or neither.
enum class ObjectKind { None, Lock, Atomic };
/// "lock", "atomic", "object".
const char *syncKindName(ObjectKind K);

/// How the functions of a program use one field (or global), keyed by FieldKey.
struct FieldFacts {
  /// Function keys. ColdWriters write it only while no other thread can reach it (an object
  /// they allocated, or at init, teardown or registration: ObjectUse's); ColdWhy says why.
  std::set<std::string> Readers, Writers, ColdWriters;
  std::map<std::string, std::string> ColdWhy;
  /// For each of Writers: the locks (field or global keys) it holds at every write of the field,
  /// taken in it or by every caller of a static function. Two fields written only under one
  /// lock are never written at once.
  std::map<std::string, std::set<std::string>> WriterLocks;
  bool AtomicAccess = false, Contended = false, ContendedAsPointer = false, LockUse = false, TasWord = false;
  /// The first API it was passed to, the first that contended it (as a word, as a link), and
  /// the function each was seen in: why it is a sync object, for notes.
  std::string FirstApi, ContendingApi, PointerContendingApi;
  std::string FirstApiIn, ContendingApiIn, PointerContendingApiIn;
  /// The reduce step's (never in a summary file): for each of Writers and Readers that runs only
  /// on one thread (ProgramSummary::assignThreadRoles), the function that thread starts with.
  std::map<std::string, std::string> Thread;
  /// The reduce step's, under a sample profile (never in a summary file): for each of Writers,
  /// how often the profile saw it run ("'f' in 120 samples", "'g' may be inlined into 'f' (120 samples)").
  std::map<std::string, std::string> SampledWhy;
  /// ... and the readers it never saw run (none of a header's functions): a lock only such
  /// functions take is not taken. ProfileCooled: the writers it made cold, which still make
  /// the fields they write together one object (a profile measures how often, not what
  /// belongs together: a lock's slow path that did not run still writes its parts together).
  std::set<std::string> IdleReaders, ProfileCooled;
  std::set<std::string> accessors() const;
  /// Moves the writer at It from Writers to ColdWriters for Why (its locks no longer count);
  /// returns the writer after it.
  std::set<std::string>::iterator cool(std::set<std::string>::iterator It, std::string Why);
  /// Adds Other's uses (another TU's); names already known are kept.
  void merge(const FieldFacts &Other);
};

/// What ColdWhy says of a writer a sample profile saw run rarely or never ("'f' has no sample in
/// the profile p.folded ...", "'f' in 3 samples of the 374070 samples in the profile p.folded ...").
inline constexpr const char *InTheProfile = " in the profile ";

/// The function a key names ("count_hit" of "count_hit@/src/a.c:3:6").
std::string functionName(const std::string &Key);

/// The uses of every field a summary mentions, by field key.
using UseTable = std::map<std::string, FieldFacts>;

/// A synchronisation object of a record (flattened through nested records), as SyncObject.
struct SharedObject {
  std::string Path;                    // "stats.hits"
  std::string Name;                    // "hits"
  std::string Leaf, Top;               // field keys: the object, and the member of the record holding it
  std::vector<std::string> Containers; // field keys of the members entered to reach Leaf, outermost first
  /// Keys of the uses of Leaf through embedded paths that end at it (rcu_work::rcu.func): the
  /// object's readers and writers are Leaf's own (through a pointer to its record) and these.
  std::vector<std::string> PathKeys;
  /// For each of Containers and then Leaf: whether it is a member of a union. Two objects in
  /// different members of one union are never both live.
  std::vector<bool> InUnion;
  uint64_t Offset = 0, Size = 0;
  ObjectKind TypeKind = ObjectKind::None; // a lock or atomic by its type
  std::string TypeName;                   // the type that makes it one, for the note
  bool Link = false;                      // points to its own record (list_head.next)
  bool Const = false;
  SourcePoint At; // the object's declaration
  /// Where a finding at At goes: reported, or suppressed by NOLINT; unset when At is in a
  /// system header or a file the header filters leave out.
  bool Reportable = false, Suppressed = false;
  /// Where an alignment attribute goes to move Top to a window of its own (Top == Leaf and
  /// the code is editable).
  std::optional<Edit> AlignAt;
};

/// A record with sync objects, as one TU saw its definition.
struct RecordSummary {
  std::string Key;   // qualified name (or anonymous description) @ definition file:line
  std::string Label; // "struct stats", for messages
  SourcePoint At;
  uint64_t Align = 1;
  std::string AlignSpelling;  // "_Alignas(%0)", "alignas(%0)": the TU's language
  bool NewBeforeCxx17 = false; // allocated with 'new' in C++ before 17 (no over-alignment)
  bool PerCpu = false;         // some TU makes it per CPU (DEFINE_PER_CPU, alloc_percpu)
  /// Some TU has a thread-local variable of its type; some TU has a global or static one that
  /// is not thread-local.
  bool ThreadLocal = false, SharedGlobal = false;
  /// Each CPU or thread writes its own copy: made per CPU, or every variable of it thread-local.
  bool perCpuOrThread() const { return PerCpu || (ThreadLocal && !SharedGlobal); }
  std::vector<SharedObject> Objects;
};

/// One data access of a side of a message-passing pair (OrderingSide).
struct SideAccess {
  std::string Location, Text; // the location's key ("record struct msg.data") and its name
  SourcePoint At;
  unsigned Index = 0;     // its place among its function's events, against the side's barriers
  bool Load = false;      // readers: a load the guard decides (else a store through its pointer)
  bool Ordered = false;   // reader loads: ordered after the guard (what the load's own function shows)
  bool Deliberate = false; // ... by ordering written on purpose (a release or acquire, a fence, an RMW)
  bool Dependent = false;  // reader loads: the address depends on the guard's value
  bool InOneCallee = false; // with the flag's access, inside one callee: the callee's body reports it
};

/// One side of a message-passing pair, judged in its own function when its TU was parsed: a
/// writer's publishing store with the data stores before it, or a reader's guard load with
/// the accesses it decides. The reduce step pairs sides that no one TU saw together (a writer in
/// a.c, its reader in b.c) by the flag's location and the data locations they share.
struct OrderingSide {
  bool Writer = true;
  std::string Function, Label; // the function's key, and "'consume'" for messages
  std::string Location, Text;  // the flag, pointer or index
  std::string Event;           // "'WRITE_ONCE'", "a plain store"
  SourcePoint At;
  unsigned Index = 0;
  bool Plain = false;
  bool Rmw = false;              // readers: the guard is an RMW (judged where it publishes)
  bool DependencyOrders = false; // readers: an address dependency on its value orders (ONCE, the target)
  std::vector<unsigned> StrayBarriers; // readers: strayLoadBarriers
  std::vector<SideAccess> Data;
  /// Readers, only where a finding at At is possible (some load the side's own function leaves
  /// unordered, outside system headers and filtered files): whether NOLINT there suppresses
  /// barrier-missing-acquire (the check judged across TUs), the fix (an acquire load) and the
  /// note on what the hardware reorders.
  bool Reportable = false, Suppressed = false;
  std::vector<Edit> Fixes;
  std::string HardwareNote;
};

/// A thread a TU starts (pthread_create, kthread_run, std::thread): the function it runs, the
/// function starting it ("" outside any function) and where; InLoop: the start is in a loop.
struct ThreadStartSummary {
  std::string Entry, Site;
  SourcePoint At;
  bool InLoop = false;
};

/// The architecture a TU was judged against.
struct TargetSummary {
  std::string Label; // "x86_64", "parisc (cpu pa8800)"
  uint64_t Destructive = 64;
  std::string DestructiveSource;
  std::string LayoutNote; // the host's layout stands in (CheckContext's last note)
};

struct TuSummary {
  std::string File;      // the main source, absolute
  std::string Directory; // the compile command's
  std::vector<std::string> Command;
  TargetSummary Target;
  /// The run's --checks and --warnings-as-errors: what the reduce step judges, and how.
  std::string Checks, WarningsAsErrors;
  /// Every file the TU read, with its content hash: the cache's validity.
  std::vector<std::pair<std::string, std::string>> Inputs;
  bool CompileErrors = false;
  std::vector<Finding> Findings; // the TU-local checks' and the compiler's errors
  std::vector<RecordSummary> Records;
  UseTable Fields;
  std::vector<OrderingSide> Sides;
  /// For each function other files can call that this TU calls: the locks (field or global
  /// keys) held at every one of its calls here. With AddressTaken (functions this TU names
  /// other than in a call: callers nobody sees), what the reduce step needs to give a function
  /// the locks every caller in the program holds.
  std::map<std::string, std::set<std::string>> CallLocks;
  std::set<std::string> AddressTaken;
  /// The TU's calls: each function called here (outside system headers and the specs' APIs,
  /// which write no field of the program's records themselves) with its callers here; and the
  /// functions among them that run only at init, teardown, registration or configuration by a
  /// rule of their own (why). With AddressTaken, what the reduce step needs to find writers that
  /// every path in the program reaches only from such functions.
  std::map<std::string, std::set<std::string>> Callers;
  std::map<std::string, std::string> ColdFunctions;
  /// For each function key of a function with external linkage: its name (C++: "name@type").
  /// Two TUs may key one such function apart (one met its header prototype first, the other
  /// a local declaration); the reduce step follows calls by these names.
  std::map<std::string, std::string> ExternNames;
  /// The functions with external linkage among Callers (callees and callers) that have their
  /// body in this TU: its compiler may inline them into their callers here, so a sampling
  /// profile need not show them apart from those callers. Functions without external linkage
  /// may always be inlined.
  std::set<std::string> DefinedHere;
  /// The functions keyed here whose body is in a header (a static inline function, a C++ inline
  /// member): any file may have inlined one, also files no summary describes.
  std::set<std::string> DefinedInHeaders;
  /// Threads started here; the thread functions and run-once functions among AddressTaken
  /// named here otherwise too (other than as what a thread starts with, or in the registration
  /// that runs it once: `early_initcall(fn)`); the calls among Callers (callee -> callers) that can run
  /// more than once per run of their caller (at two places, or in a loop); and the functions
  /// that run once per run of the program by a rule of their own (main, an initcall), with why.
  /// With Callers, what the reduce step needs to find the fields only one thread writes.
  std::vector<ThreadStartSummary> ThreadStarts;
  std::set<std::string> NamedApartFromThreadStarts;
  std::map<std::string, std::set<std::string>> RepeatedCalls;
  std::map<std::string, std::string> RunsOnce;
  unsigned Suppressed = 0; // findings NOLINT suppressed
};

/// The JSON text of S (stable: the same summary gives the same bytes).
std::string writeSummary(const TuSummary &S);
/// Parses a summary; on error (not JSON, another format or version, missing keys) says why.
std::optional<TuSummary> readSummary(const std::string &Text, std::string &Error);

/// How well a sample profile covers a program: of the functions writing its records' fields
/// that a profile can judge (none of a header's, no lambda, not main), how many it saw run.
struct ProfileMatch {
  size_t Ran = 0, Writers = 0;
};

/// The union of TU summaries: what the reduce step judges.
struct ProgramSummary {
  /// The merged records of every TU with the label of the target they were laid out for, in
  /// the order the TUs met them; the first TU to describe an object fixes its layout, later
  /// ones add the objects it lacked.
  std::vector<std::pair<std::string, RecordSummary>> Records;
  std::map<std::pair<std::string, std::string>, size_t> RecordIndex; // (label, key) -> Records

  std::map<std::string, TargetSummary> Targets;
  UseTable Fields;
  /// Every TU's ordering sides, each once (a header's inline function is in many TUs), with the
  /// TUs (by the order they were added) that saw it.
  struct SeenSide {
    std::string Target; // the label of the target its TU was judged for
    OrderingSide Side;
    std::set<size_t> Tus;
  };
  std::vector<SeenSide> Sides;
  std::map<std::tuple<std::string, bool, std::string, unsigned>, size_t> SideIndex; // (target, writer, function, index)
  size_t TuCount = 0;
  /// The union of the TUs' call locks: the locks held at every call seen, in any TU.
  std::map<std::string, std::set<std::string>> CallLocks;
  std::set<std::string> AddressTaken;
  /// The union of the TUs' callers, cold functions and names of external functions.
  std::map<std::string, std::set<std::string>> Callers;
  std::map<std::string, std::string> ColdFunctions;
  std::map<std::string, std::string> ExternNames;
  /// The calls of Callers that a compiler may have inlined (the callee without external
  /// linkage, or defined in the caller's TU): callee -> callers.
  std::map<std::string, std::set<std::string>> InlinableCallers;
  /// The union of the TUs' functions with their body in a header.
  std::set<std::string> DefinedInHeaders;
  /// The union of the TUs' thread starts (each once), repeated calls and functions that run
  /// once; and the functions some TU names other than in a call, a thread start or a run-once
  /// registration.
  std::vector<ThreadStartSummary> ThreadStarts;
  std::map<std::string, std::set<std::string>> RepeatedCalls;
  std::map<std::string, std::string> RunsOnce;
  std::set<std::string> NamedApartFromThreadStarts;
  void add(const TuSummary &S);
  /// Makes cold every writer whose every caller in the program is cold (transitively, from
  /// the functions cold by a rule of their own), unless its address is taken: its writes then
  /// happen only at init, teardown, registration or configuration. Call once all TUs are added.
  void coolWritersCalledOnlyFromCold();
  /// Makes cold every writer the profile never saw run (or below its hot share), by itself or
  /// inside a sampled caller that may have inlined it (transitively), marks such readers idle,
  /// and notes the samples of the writers it keeps: measured write frequency, for the layout
  /// checks. A header's functions and lambdas are not judged. When it saw none of the writers
  /// (a profile of another program) it changes nothing.
  ProfileMatch coolWritersOffProfile(const SampleProfile &Profile);
  /// Finds the threads started once (one start in the program, not in a loop, in a function
  /// that runs once: main, an initcall, or one called once from such a function) and the
  /// functions that run only on one of them (its entry, and functions every caller of which runs
  /// only on it, none named other than in a call), and records for each field's writers and
  /// readers the thread they run on (FieldFacts::Thread). Two fields only one thread writes are
  /// not written at once. Call once all TUs are added.
  void assignThreadRoles();
  /// Gives each writer of a field the locks every call of it in the program holds (one level:
  /// a function whose callers all hold `p->lock` runs under it), unless its address is taken.
  /// Call once all TUs are added.
  void inheritCallerLocks();

private:
  /// A function with external linkage by its name, whatever declaration each TU keyed it by.
  /// Same-named functions of two programs in one database merge: more callers, never fewer.
  const std::string &named(const std::string &Key) const;
  /// The same for each key of a set, and for each callee and caller of a call map.
  std::set<std::string> named(const std::set<std::string> &Keys) const;
  std::map<std::string, std::set<std::string>> named(const std::map<std::string, std::set<std::string>> &Calls) const;
};

/// A 64-bit content hash as 16 hex digits (xxh3).
std::string contentHash(std::string_view Bytes);

/// Path made absolute against the current directory, `.` and `..` removed lexically, links
/// not resolved.
std::string absolutePath(const std::string &Path);

} // namespace lockwright

#endif
