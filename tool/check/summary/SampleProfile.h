// A sampling profile of the program being checked (perf record of a representative workload):
// which functions ran, and how often. The whole-program layout checks read it as measured write
// frequency: a field written only by functions the profile never saw running, and that no
// sampled caller can have inlined, is written on a path the workload does not take, like a
// field written only at init. Plain data, no Clang types.
#ifndef LOCKWRIGHT_TOOL_CHECK_SUMMARY_SAMPLEPROFILE_H
#define LOCKWRIGHT_TOOL_CHECK_SUMMARY_SAMPLEPROFILE_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace lockwright {

struct SampleProfile {
  std::string Path;     // as named on the command line, for notes
  uint64_t Samples = 0; // samples read (a folded line's count is that many samples)
  /// For each function: the samples whose stack holds it (at any depth, once per sample).
  std::map<std::string, uint64_t> Inclusive;
  /// The share of Samples below which a function ran too rarely for its writes to false-share
  /// (they cost at most about as much time as the function itself). By default any sample is
  /// enough: one sample of a rare path is luck, and so is none of a path that is hot enough.
  double HotShare = DefaultHotShare;
  static constexpr double DefaultHotShare = 0;
  /// The samples a function needs to count as hot: HotShare of Samples, at least one.
  uint64_t hotSamples() const;
  /// HotShare as a percentage ("0.01%").
  std::string hotShareText() const;
  /// The samples of Function (by a summary's qualified name, which leaves out inline
  /// namespaces): 0 when the profile never saw it.
  uint64_t samplesOf(const std::string &Function) const;

private:
  friend std::optional<SampleProfile> readSampleProfile(std::string_view Text, std::string &Error);
  std::map<std::string, uint64_t> WithoutOneScope; // Inclusive's names, one inner scope left out
};

/// The function a profile's frame names: "tcp_sendmsg" of "tcp_sendmsg+0x1d", of
/// "tcp_sendmsg.cold", "foo.isra.0", "foo(int) [clone .isra.0]" and "foo_[k]" (a compiler's
/// split or clone is its function's code); "ns::C::f" of "ns::C::f(int) const", "void
/// ns::f<int>(int)" and "ns::C::f[abi:cxx11]()"; "pthread_mutex_lock" of
/// "pthread_mutex_lock@@GLIBC_2.2.5". Empty for "[unknown]" and addresses.
std::string profileFunctionName(std::string_view Frame);

/// Whether a profile can name Function (a summary's qualified name) at all: not a lambda's or
/// another unnamed class's member, which perf spells its own way ("main::{lambda()#2}").
bool profileCanName(const std::string &Function);

/// Reads a profile in one of two formats, told apart by their lines:
/// - `perf script` output, with call chains (perf record -g: a sample's header line, then one
///   indented "ADDRESS SYMBOL+OFFSET (DSO)" line per frame, then a blank line) or without
///   (each line a sample ending in its "ADDRESS SYMBOL+OFFSET (DSO)");
/// - folded stacks, one "frame;frame;...;frame COUNT" per line (stackcollapse-perf.pl, bpftrace,
///   `perf script report flamegraph`'s input); a line with one frame is that function's count.
/// Lines starting with '#' are comments. On error says where ("LINE:COLUMN: what").
std::optional<SampleProfile> readSampleProfile(std::string_view Text, std::string &Error);

} // namespace lockwright

#endif
