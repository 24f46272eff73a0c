// Which objects of a translation unit are synchronisation objects, and how
// the TU uses them: a lock or atomic by its type (through ApiNames), or by
// what is done to it (passed to an atomic builtin, READ_ONCE, a lock call).
// Reads and writes are recorded per function, so the checks can tell objects
// written independently from objects used together.
#ifndef LOCKWRIGHT_TOOL_CHECK_ANALYSIS_SYNCMODEL_H
#define LOCKWRIGHT_TOOL_CHECK_ANALYSIS_SYNCMODEL_H

#include "api/ApiNames.h"
#include "summary/Summary.h"

#include "clang/AST/Type.h"
#include "clang/Basic/SourceLocation.h"

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CXXRecordDecl;
class Expr;
class FieldDecl;
class FunctionDecl;
class PPCallbacks;
class Preprocessor;
class RecordDecl;
class ValueDecl;
} // namespace clang

namespace lockwright {

using SyncKind = ObjectKind;

struct ObjectUse {
  /// Writers: functions that write it while it may be shared. ColdWriters: functions that write
  /// it only while it is not (an object this function allocated or declared and has not yet
  /// handed on) or only at init or teardown (SyncModel::coldFunction); such writes cannot
  /// contend with other threads' and do not make a field hot.
  std::set<const clang::FunctionDecl *> Readers, Writers, ColdWriters;
  /// Functions that write it on a branch the code says it does not expect (`if (unlikely(err))`);
  /// those that never write it elsewhere are cold writers once the TU is walked.
  std::set<const clang::FunctionDecl *> RareWriters;
  /// For each writer: the locks (fields or globals) held at every one of its writes, taken in
  /// it or, for a static function, by every caller at every call.
  std::map<const clang::FunctionDecl *, std::set<const clang::ValueDecl *>> WriterLocks;
  /// Why a cold writer's writes are cold, where the write says so rather than the function
  /// (a compare-and-swap from NULL sets the word once).
  std::map<const clang::FunctionDecl *, std::string> ColdWhy;
  bool AtomicAccess = false; // passed to an atomic API or a ONCE macro
  /// Passed to an API that makes it a contended word (ApiNames::contends: an RMW, an acquire
  /// or release, a poll). A link (isLink) that is not contended as a pointer is not a sync
  /// object.
  bool Contended = false;
  bool ContendedAsPointer = false; // Contention::Link: an RMW or a poll
  /// The first API name it was passed to, and the first that made it contended (as a word,
  /// as a pointer): why it is a sync object, for notes.
  std::string FirstApi, ContendingApi, PointerContendingApi;
  const clang::FunctionDecl *FirstApiIn = nullptr, *ContendingApiIn = nullptr, *PointerContendingApiIn = nullptr;
  bool LockUse = false;      // passed to a lock API
  bool TasWord = false;      // test-and-set target: a lock word
  /// Functions that update it in place as array[i] (a non-constant i that no loop around the
  /// write steps, made from the running thread's identity) with no lock held and on an object
  /// they do not own: per-thread slots, unless each of those functions is cold
  /// (SyncModel::coldFunction) or inherits a caller's lock. ByArgument: such writes whose index
  /// is made from the function's parameters instead, slots only if the function is what a
  /// thread of the TU starts with (its argument tells the threads apart).
  std::set<const clang::FunctionDecl *> SlotWriters, SlotWritersByArgument;
  std::set<const clang::FunctionDecl *> accessors() const;
};

/// A synchronisation object inside a record, flattened through nested records.
struct SyncObject {
  const clang::FieldDecl *Top;  // the member of the checked record that holds it
  const clang::ValueDecl *Leaf; // the object itself
  std::string Path;             // "stats.hits"
  uint64_t Offset = 0;          // bytes from the start of the checked record
  uint64_t Size = 0;            // bytes
  SyncKind Kind = SyncKind::None;
  uint64_t AccessUnit = 0;      // bytes one access touches: an element of an array, a word of a record
  std::vector<const clang::FieldDecl *> Containers; // the members of records entered to reach Leaf, outermost first
};

/// Arguments of API macros (READ_ONCE(x), smp_load_acquire(p), ...), by spelling range.
/// Whether a call, macro or method makes the object it works on contended, as a word and as a
/// link (ApiNames::contends of its spec operation).
struct Contention {
  bool Word = false, Link = false;
  static Contention of(const ApiNames &Names, const std::string &CalleeOrMacro);
};

struct MacroArgUse {
  clang::SourceRange Range;
  ApiNames::Access Access;
  Contention Contends;
  std::string Name; // the macro
  /// An assertion that the lock is held (lockdep_assert_held): the function runs under it,
  /// and the macro does nothing to the lock (Access is unused).
  bool AssertsHeld = false;
  /// A compare-and-swap whose expected value is written NULL or 0 (`cmpxchg(&p->ctx, NULL, c)`):
  /// it sets the word once; a word only ever set so is written once per object.
  bool SetsFromNull = false;
};

/// A thread started at a call of a thread-creation API (pthread_create, kthread_run, a
/// std::thread constructor): the function it runs, the function that starts it and where, and
/// whether the call sits in a loop (then it may start many threads running Entry).
struct ThreadStart {
  const clang::FunctionDecl *Entry = nullptr, *Site = nullptr;
  clang::SourceLocation At;
  bool InLoop = false;
};

class SyncModel {
public:
  SyncModel(const ApiNames &Names, clang::ASTContext &Context);

  /// Preprocessor callbacks that record the arguments of API macros; install before parsing.
  std::unique_ptr<clang::PPCallbacks> macroRecorder(clang::Preprocessor &PP);
  /// Walks the translation unit once parsed.
  void collect();

  SyncKind kindOfType(clang::QualType T) const;
  SyncKind kindOf(const clang::ValueDecl *D) const;
  /// A field pointing to its own record (list_head.next, hlist_node.pprev, rb_node.rb_left), or
  /// to a record whose pointers all point to itself (hlist_head.first, rb_root.rb_node): a link
  /// of a list, tree or hash chain.
  static bool isLink(const clang::ValueDecl *D);
  /// Whether FD initialises an object no other thread can reach yet, so that its stores publish
  /// nothing: a constructor, an API's init operation (`spin_lock_init`, `lw_mcs_init`), or a
  /// function named as one by the common convention (`init`, `*_init`, `init_*`, `*_init_*`:
  /// `ck_ring_init`, `sock_init_data`).
  static bool isInitialiser(const clang::FunctionDecl *FD, const ApiNames &Names);
  /// Why FD runs only while the objects it writes are not contended, or "": an initialiser,
  /// a destructor, a function in an init or exit section the specs name (the kernel's __init,
  /// __exit), a configuration entry point the specs name (`*setsockopt*`), a constructor,
  /// destructor or cold attribute, a registration, teardown or cloning function by name (`*_register`,
  /// `*_destroy`, `*_fini`, `*_clone*`), or a static function only those call.
  std::string coldFunction(const clang::FunctionDecl *FD) const;
  /// Whether a rule of FD's own says it runs rarely (in an init or exit section, at
  /// configuration, before main, at registration), so that its callees in any file run only
  /// then. Not "called only from such functions", which holds for the callers this TU sees, nor
  /// an initialiser's or clone's rule, which says only that it writes an object of its own.
  bool runsRarely(const clang::FunctionDecl *FD) const { return RunsRarely.count(FD) != 0; }
  /// Whether every call of FD in the TU holds a lock (FD is static and all its callers are
  /// seen), so that FD runs under it.
  bool inheritsCallersLock(const clang::FunctionDecl *FD) const;
  const ObjectUse *use(const clang::ValueDecl *D) const;
  /// The readers and writers of the embedded paths (outermost field first) that end with
  /// Suffix: for rcu_work's rcu.func, the accesses rw->rcu.func and x->work.rcu.func, not
  /// rdp->barrier_head.func. use(leaf) holds the accesses through a pointer to the leaf's own
  /// record. Calls Fn for each.
  void forEachPathEndingWith(const std::vector<const clang::FieldDecl *> &Suffix,
                             const std::function<void(const ObjectUse &)> &Fn) const;
  /// The members an access goes through without leaving its object (rw->rcu.func: rcu, func),
  /// outermost first.
  static std::vector<const clang::FieldDecl *> embeddedPath(const clang::Expr *E);
  bool allocatedWithNew(const clang::RecordDecl *R) const { return NewAllocated.count(R) != 0; }
  /// Whether the TU makes R per CPU: a variable of its type in a per-CPU section
  /// (DEFINE_PER_CPU), or a per-CPU allocation of its size (alloc_percpu).
  bool perCpu(const clang::RecordDecl *R) const { return PerCpu.count(R) != 0; }
  /// Whether the TU has a thread-local variable of R's type, and whether it has a global or
  /// static one that is not (then R's objects are not all per thread).
  bool threadLocal(const clang::RecordDecl *R) const { return ThreadLocal.count(R) != 0; }
  bool sharedGlobal(const clang::RecordDecl *R) const { return SharedGlobal.count(R) != 0; }
  /// Each CPU or thread writes its own copy of R, as far as the TU shows (RecordSummary's
  /// perCpuOrThread over the whole program).
  bool perCpuOrThread(const clang::RecordDecl *R) const { return perCpu(R) || (threadLocal(R) && !sharedGlobal(R)); }
  /// The locks held at every call of each function called (by canonical declaration), and the
  /// functions named other than in a call (their callers are not all seen).
  const std::map<const clang::FunctionDecl *, std::set<const clang::ValueDecl *>> &callLocks() const {
    return CallLocks;
  }
  const std::set<const clang::FunctionDecl *> &addressTaken() const { return AddressTaken; }
  /// The threads started here, and the functions named other than in a call, as the function a
  /// thread starts with, or in a registration to run once (an ops table, a callback): a thread's
  /// entry named only so runs only on the threads started with it.
  const std::vector<ThreadStart> &threadStarts() const { return ThreadStarts; }
  const std::set<const clang::FunctionDecl *> &namedApartFromThreadStarts() const { return NamedApartFromThreadStarts; }
  /// Calls that can run more than once per run of their caller: (callee, caller) where the
  /// caller calls it at two places or inside a loop.
  const std::set<std::pair<const clang::FunctionDecl *, const clang::FunctionDecl *>> &repeatedCalls() const {
    return RepeatedCalls;
  }
  /// Why FD runs once per run of the program by a rule of its own (main, a constructor
  /// attribute, an initcall the specs name: `op: run_once`), or "".
  std::string runsOnce(const clang::FunctionDecl *FD) const;
  /// The direct calls seen: callers of each function (by canonical declaration).
  const std::map<const clang::FunctionDecl *, std::set<const clang::FunctionDecl *>> &callers() const {
    return Callers;
  }

  /// The sync objects of R with offsets relative to R (nested records are entered). With
  /// Candidates, also the links this TU reads or writes whole, which another TU may contend
  /// for (their Kind is None here).
  std::vector<SyncObject> flatten(const clang::RecordDecl *R, bool Candidates = false) const;

  /// The qualified name of a class, or of its template for a specialisation (std::atomic):
  /// what API method names are looked up by.
  static std::string className(const clang::CXXRecordDecl *RD);
  /// Candidate names of a type: its typedef names, record and template names.
  static std::vector<std::string> typeNames(clang::QualType T);

  const ApiNames &names() const { return Names; }
  clang::ASTContext &context() const { return Context; }

private:
  friend class UsageVisitor;
  void flattenInto(const clang::RecordDecl *R, uint64_t Base, const std::string &Prefix,
                   std::vector<const clang::FieldDecl *> &Containers, bool Candidates,
                   std::vector<SyncObject> &Out) const;
  uint64_t accessUnit(clang::QualType T) const;
  /// A record type the specs name as a retirement record (op retire: rcu_head).
  bool retirementRecord(clang::QualType T) const;

  const ApiNames &Names;
  clang::ASTContext &Context;
  std::map<const clang::ValueDecl *, ObjectUse> Uses;
  std::map<std::vector<const clang::FieldDecl *>, ObjectUse> PathUses; // Readers, Writers, ColdWriters only
  std::map<const clang::FieldDecl *, std::vector<const std::vector<const clang::FieldDecl *> *>> PathsByLeaf;
  std::set<const clang::RecordDecl *> NewAllocated;
  std::set<const clang::RecordDecl *> PerCpu; // definitions
  std::set<const clang::RecordDecl *> ThreadLocal, SharedGlobal; // definitions
  std::map<const clang::FunctionDecl *, std::string> Cold; // coldFunction's answers
  std::set<const clang::FunctionDecl *> RunsRarely;
  std::map<const clang::FunctionDecl *, std::set<const clang::FunctionDecl *>> Callers; // direct calls seen
  std::set<const clang::FunctionDecl *> AddressTaken; // called from places we cannot see
  std::set<const clang::FunctionDecl *> NamedApartFromThreadStarts;
  std::vector<ThreadStart> ThreadStarts;
  std::set<std::pair<const clang::FunctionDecl *, const clang::FunctionDecl *>> RepeatedCalls;
  std::map<const clang::FunctionDecl *, std::string> RegisteredToRunOnce; // by an initcall macro: why
  /// The locks held at every call of a function seen (the intersection over its calls).
  std::map<const clang::FunctionDecl *, std::set<const clang::ValueDecl *>> CallLocks;
  void classifyColdFunctions();
  /// Adds to each writer's locks those every caller of a static function holds.
  void inheritCallersLocks();
  /// The locks a static function inherits from its callers, where there are any.
  std::map<const clang::FunctionDecl *, std::set<const clang::ValueDecl *>> CallersLocks;
  std::vector<MacroArgUse> MacroArgs;
  /// Arguments of macros that register a function to run once (`early_initcall(fn)`), with the
  /// macro's name.
  std::vector<std::pair<clang::SourceRange, std::string>> RunOnceArgs;
  /// Where macros naming the running thread or CPU (`smp_processor_id()`: `op: thread_id`) are
  /// expanded.
  std::set<clang::SourceLocation> ThreadIdExpansions;
};

} // namespace lockwright

#endif
