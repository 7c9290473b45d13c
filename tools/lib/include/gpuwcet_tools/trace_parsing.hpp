// Pieces the trace readers share (trace_input.hpp is the public side): line
// splitting with line numbers, "file:line: " errors, the dense register map,
// the opcode-to-unit resolver, and the end-of-warp rules.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gpuwcet/block_model.hpp"
#include "gpuwcet_tools/opcode_classes.hpp"
#include "gpuwcet_tools/trace_input.hpp"

namespace gpuwcet::tools::detail {

// Throws ToolError "name:line: message".
[[noreturn]] void fail_at(const std::string& name, std::size_t line, const std::string& message);

// The lines of a text (LF or CRLF; the last line may lack its newline),
// numbered from 1.
class LineCursor {
 public:
  using Progress = std::function<void(std::size_t, std::size_t)>;
  explicit LineCursor(std::string_view text) : text_(text) {}
  // Every kProgressLines lines, next() calls `progress` (if set, and it
  // must outlive the cursor) with (offset, text size).
  void report_to(const Progress* progress) { progress_ = progress; }
  // Next line without its end-of-line characters; false at the end.
  bool next(std::string_view& line);
  std::size_t line_number() const { return line_; }
  // Offset of the next line in the text.
  std::size_t position() const { return pos_; }

 private:
  static constexpr std::size_t kProgressLines = std::size_t{1} << 18;
  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t line_ = 0;
  const Progress* progress_ = nullptr;
};

std::string_view trim(std::string_view s);
// Splits at runs of spaces and tabs.
std::vector<std::string_view> split_ws(std::string_view s);
// The same into `out` (cleared first), reusing its storage: the per-line form
// of readers of multi-million-line traces.
void split_ws(std::string_view s, std::vector<std::string_view>& out);

// Whether `c` is one of the few characters of `set`.
inline bool is_one_of(char c, std::string_view set) {
  for (const char s : set) {
    if (c == s) return true;
  }
  return false;
}
// The first character of `text` from `from` on that is one of `set`, or npos:
// find_first_of without a memchr call per character (see WordCursor::next).
std::size_t find_one_of(std::string_view text, std::string_view set, std::size_t from = 0);

// The words of a text one at a time, separated by runs of `separators`
// (spaces, tabs and CRs unless told); allocates nothing.
class WordCursor {
 public:
  explicit WordCursor(std::string_view text, std::string_view separators = " \t\r")
      : text_(text), separators_(separators) {}
  // Next word; false when none is left.
  bool next(std::string_view& word);

 private:
  std::string_view text_;
  std::string_view separators_;
  std::size_t pos_ = 0;
};
bool starts_with(std::string_view s, std::string_view prefix);
// Whole-string unsigned decimal (or hex with base 16); nullopt when malformed
// or above `max`.
std::optional<std::uint64_t> parse_uint(std::string_view s, std::uint64_t max, int base = 10);
// A thread block's coordinates "x", "x,y" or "x,y,z" (spaces allowed around
// each number) written as "x,y,z" without spaces, the missing ones 0 (so
// "1,2" and "1,2,0" name one block); nullopt when malformed.
// Accel-Sim's `thread block = 0,1,0` and the CLI's `--block 0,1,0` meet here.
std::optional<std::string> block_coordinates(std::string_view s);

// Dense register ids in order of first appearance, per register space
// ("R", "UR", "P", "%r", ...), over a whole trace file.
class RegisterMap {
 public:
  RegisterMap() = default;
  // names_ views the strings of storage_: a copy would view the original's.
  RegisterMap(const RegisterMap&) = delete;
  RegisterMap& operator=(const RegisterMap&) = delete;
  RegisterMap(RegisterMap&&) = default;
  RegisterMap& operator=(RegisterMap&&) = default;

  std::uint16_t id(const std::string& space, std::uint64_t number, const std::string& file,
                   std::size_t line);
  std::uint16_t id(std::string_view name, const std::string& file, std::size_t line);
  std::size_t size() const { return names_.size(); }

 private:
  // One lookup per operand of a multi-million-instruction trace: a hash map
  // probed with the name's view, so a lookup copies and allocates nothing.
  // Each name is stored once, in a deque, whose strings never move (a
  // move of the deque keeps its elements where they are).
  std::unordered_map<std::string_view, std::uint16_t> names_;
  std::deque<std::string> storage_;
};

// Register lists of one instruction line; repeated registers count once.
// Fixed storage (no allocation per line) of more registers than the model
// takes, so make_instruction can say how many a refused line names; past
// that capacity registers are counted, not stored.
class OperandSet {
 public:
  static constexpr std::size_t kCapacity = 64;
  void add_dst(std::uint16_t r) { add(dst_, dst_count_, r); }
  void add_src(std::uint16_t r) { add(src_, src_count_, r); }
  std::size_t dst_count() const { return dst_count_; }
  std::size_t src_count() const { return src_count_; }
  std::uint16_t dst(std::size_t k) const { return dst_[k]; }
  std::uint16_t src(std::size_t k) const { return src_[k]; }

 private:
  static void add(std::array<std::uint16_t, kCapacity>& regs, std::size_t& count, std::uint16_t r);
  std::array<std::uint16_t, kCapacity> dst_;
  std::array<std::uint16_t, kCapacity> src_;
  std::size_t dst_count_ = 0;
  std::size_t src_count_ = 0;
};

// Maps opcodes to (unit index, kind): the hardware's rules first (longest
// match), then `builtin`. Results are cached per opcode.
class OpcodeResolver {
 public:
  using Builtin = std::optional<OpcodeClass> (*)(std::string_view opcode);
  // `unit_names`: an opcode equal to a unit name of the description (after
  // the rules, before `builtin`) issues to that unit (native traces).
  OpcodeResolver(const HardwareConfig& config, Builtin builtin, bool unit_names = false)
      : config_(config), builtin_(builtin), unit_names_(unit_names) {}
  // Throws "file:line: unknown opcode 'X'" or "... maps to unit 'u', which
  // the hardware description lacks".
  std::pair<std::uint16_t, OpKind> resolve(std::string_view opcode, const std::string& file,
                                           std::size_t line);

 private:
  const HardwareConfig& config_;
  Builtin builtin_;
  bool unit_names_;
  std::unordered_map<std::string, std::pair<std::uint16_t, OpKind>> cache_;
  std::string key_;  // reused lookup key (resolve runs once per instruction line)
};

// Builds an instruction; throws "file:line: ..." when the operand counts
// exceed the model's kMaxDestinations / kMaxSources.
Instruction make_instruction(std::uint16_t unit, OpKind kind, const OperandSet& ops,
                             const std::string& file, std::size_t line);

// End-of-warp rules shared by every format: an exit before the last
// instruction (a partial-mask EXIT, a predicated ret) does not end the warp,
// so it becomes a branch-kind instruction on the "branch" unit; a warp whose
// last instruction is not an exit gets one appended (line of the last
// instruction). Throws when a mid-warp exit needs a "branch" unit the
// hardware lacks.
void finish_warp(WarpTrace& warp, const HardwareDescription& hw, const std::string& file);

// The last block of `out` is read: hands it to options.on_block, if any,
// with register_count (the registers seen so far), and drops its
// instructions when asked to.
void block_read(TraceFile& out, std::size_t register_count, const TraceReadOptions& options);

// Format readers (content already in memory).
TraceFile read_native_trace(const std::string& name, std::string_view content,
                            const HardwareConfig& config, const TraceReadOptions& options);
TraceFile read_accelsim_trace(const std::string& name, std::string_view content,
                              const HardwareConfig& config, const TraceReadOptions& options);
// Hands each line of a text (without its end of line, numbered from 1) to
// the function it is given, in order.
using LineSink = std::function<void(std::string_view, std::size_t)>;
using LineSource = std::function<void(const LineSink&)>;
// What a line-at-a-time reader (line(raw, number), then finish()) makes
// of the lines of `source`.
template <typename Reader>
TraceFile read_lines_with(Reader& reader, const LineSource& source) {
  source([&](std::string_view raw, std::size_t number) { reader.line(raw, number); });
  return reader.finish();
}
// An Accel-Sim trace read a line at a time (a pipe, standard input): its
// memory is the reader's, not the text's.
TraceFile read_accelsim_lines(const std::string& name, const LineSource& source,
                              const HardwareConfig& config, const TraceReadOptions& options);
// A GPGPU-Sim PTX trace and a native trace read a line at a time, likewise.
TraceFile read_ptx_lines(const std::string& name, const LineSource& source,
                         const HardwareConfig& config, const TraceReadOptions& options);
TraceFile read_native_lines(const std::string& name, const LineSource& source,
                            const HardwareConfig& config, const TraceReadOptions& options);
// What read_trace_stream reads at a time.
inline constexpr std::size_t kStreamChunk = std::size_t{1} << 24;
// read_trace_stream reading `chunk` bytes at a time (tests cut lines at
// every place with small chunks).
TraceFile read_trace_chunks(const std::string& name, std::istream& in, TraceFormat format,
                            const HardwareConfig& config, const TraceReadOptions& options,
                            std::size_t chunk);
TraceFile read_ptx_trace(const std::string& name, std::string_view content,
                         const HardwareConfig& config, const TraceReadOptions& options);
// extra_cycles of a memory instruction served in `passes` transactions or
// bank passes on unit `unit`: one cycle per further pass on "mem_shared",
// config.cycles_per_8_transactions per eight further transactions on "mem"
// (rounded up), 0 elsewhere; capped at 255.
std::uint8_t extra_cycles_for(const HardwareConfig& config, std::uint16_t unit,
                              std::uint32_t passes);
// Called with each new instruction's address once it is appended to `warp`:
// a branch just before it that falls through to it (pc = last_pc +
// instruction_bytes) was not taken and becomes a compute instruction on its
// unit (branch_delay applies to taken branches only). Updates last_pc.
void resolve_taken_branch(WarpTrace& warp, std::uint64_t pc, std::uint64_t& last_pc,
                          std::uint64_t instruction_bytes);

// Hardware readers.
HardwareConfig parse_native_hardware(const std::string& name, std::string_view content,
                                     std::optional<std::uint32_t> memory_latency);
HardwareConfig parse_gpgpusim_config(const std::string& name, std::string_view content,
                                     std::optional<std::uint32_t> memory_latency);
// True for a GPGPU-Sim option line ("-name value": a dash, a letter, and no
// '=', which every line of a native file that starts a key has).
bool is_gpgpusim_option_line(std::string_view line);
// True when the text carries such a line.
bool looks_like_gpgpusim_config(std::string_view content);
// Appends the "alu" unit (initiation 1, latency 1, on the int pipeline's
// resource) unless the description already has one; see docs/trace-formats.md.
void add_alu_unit(HardwareDescription& hw, const std::string& name);
// Unit-name copy with the length check the fixed-size name needs.
void set_unit_name(FunctionalUnit& unit, std::string_view name, const std::string& where);

// `text` without a leading UTF-8 byte-order mark, which editors on some
// systems write and which would glue itself to the first line's first word
// (a .traceg's '-' header, a PTX trace's "warp").
std::string_view skip_byte_order_mark(std::string_view text);

// PTX text, as traces print it and as a PTX file holds it: a character of a
// name (register, label, symbol), and the length of the opcode that starts
// `s` (up to a blank, or a '%', '{' or '[' glued to it: "setp.eq.s16%p2").
bool ptx_ident_char(char c);
std::size_t ptx_opcode_length(std::string_view s);

}  // namespace gpuwcet::tools::detail
