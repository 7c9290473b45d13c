// Inputs of the multi-phase block analysis as the host tools read them:
// a hardware description (built-in preset, native TOML file or GPGPU-Sim
// configuration) with the opcode-to-unit mapping the readers use, and thread
// blocks from a trace (native text, Accel-Sim .traceg, GPGPU-Sim PTX trace).
// Formats: docs/trace-formats.md. Every reader error is a ToolError whose
// message starts with "file:line: ".
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuwcet/block_model.hpp"
#include "gpuwcet_tools/lane_values.hpp"
#include "gpuwcet_tools/ptx_control_flow.hpp"
#include "gpuwcet_tools/tool_error.hpp"

namespace gpuwcet::tools {

// Largest latency or initiation interval of a unit the tools accept, the
// memory latency included wherever it comes from (a hardware file, a
// GPGPU-Sim configuration, --mem-latency, a profile manifest): far above any
// real pipeline, low enough that sums over millions of instructions stay in
// 64 bits. The core itself takes any 32-bit value.
inline constexpr std::uint32_t kMaxUnitCycles = 1u << 24;

// One rule of the opcode-to-unit mapping. An opcode matches a rule when it
// equals `opcode` or starts with `opcode` followed by '.' (so "FFMA" matches
// "FFMA.FTZ", "ld.global" matches "ld.global.f32"); the longest matching rule
// wins. Rules from a hardware file come before the built-in classification.
struct OpcodeRule {
  std::string opcode;  // "FFMA", "ld.global", ...
  std::string unit;    // unit name in the description; empty for barrier/exit
  OpKind kind = OpKind::compute;
};

struct HardwareConfig {
  HardwareDescription hw;
  std::vector<OpcodeRule> rules;  // overrides, checked before the built-in ones
  std::string source;             // "preset rtx3070", a file path, ...
  std::uint32_t memory_latency = 0;
  // Load/store cycles per eight further transactions of a global access
  // (readers turn transactions into Instruction::extra_cycles); 8 = one per
  // transaction. The GPGPU-Sim presets and configurations use
  // kGpgpuSimCyclesPer8Transactions.
  std::uint32_t cycles_per_8_transactions = 8;
  // Whether a warp waits at a barrier until its results are written (the
  // paper's model) or passes with them pending (GPGPU-Sim's bar.sync: the
  // presets and GPGPU-Sim configurations). The block bounds hold for both;
  // this decides a one-warp block's exact time (warp_alone_cycles) and the
  // simulator's machine.
  bool barriers_drain = true;
  // Whether a barrier takes an issue slot (GPGPU-Sim's bar.sync issues like
  // an instruction: the presets and GPGPU-Sim configurations). The block
  // bounds hold for both when barrier_delay >= issue_interval
  // (barrier_slot_covered); this decides the simulator's machine.
  bool barrier_issues = false;
  // What the reader took differently from what the file says, or could not
  // model: a line each, "file:line: ..." (the CLI prints them as notes).
  std::vector<std::string> notes;
  // False when the file describes a machine the block model does not (more
  // than one issue per cycle, wider stages): the notes say how, and the
  // tools do not call its bounds safe.
  bool modelled = true;
};

// Built-in presets ("rtx3070", "orin-sm"; hardware_presets.hpp) with the
// given memory latency. Throws ToolError naming the known presets.
HardwareConfig hardware_preset(const std::string& name, std::uint32_t memory_latency);

// The gpgpusim.config next to a trace (the machine it ran on), or empty when
// there is none: the hardware a trace is bounded on unless told otherwise.
// A trace that is a symbolic link into another folder is looked beside
// twice: next to the link first, then next to the file it leads to, the
// run's folder. A path the system cannot look into (a loop of symbolic
// links, a name too long) throws ToolError: silently falling back to a
// preset would bound the trace on other hardware.
std::string config_next_to(const std::string& trace);

// The PTX file a GPGPU-Sim PTX trace ran, when it lies next to the trace
// under the name the trace's first line gives ("(lud-rodinia-2.8.sm_75.ptx:34)"),
// as GPGPU-Sim leaves it in its run's folder; empty when there is none,
// when the trace is standard input or not a regular file (a named pipe is
// not read twice), or when its first line is not a PTX trace's. Looked for
// and errors as config_next_to.
std::string ptx_file_next_to(const std::string& trace);

// Whether `found`, a file config_next_to or ptx_file_next_to returned for
// `trace`, lies next to the file the trace links to rather than next to the
// trace as its path names it.
bool beside_link_target(const std::string& trace, const std::string& found);

// The PTX file a trace is read with, loaded: the one `given`, else, unless
// `none`, the one ptx_file_next_to finds. Set `control_flow` in the read
// options to flow(), and pass what the read raises as PtxFileMismatch through
// explained().
class TracePtxFile {
 public:
  // Throws ToolError when the file cannot be read (explained()).
  // `opt_out` is how the user does without a file taken by default
  // ("--no-ptx").
  TracePtxFile(const std::string& trace, const std::string& given, bool none, std::string_view opt_out);
  const std::string& path() const { return path_; }  // empty: none
  bool next_to_trace() const { return next_to_trace_; }
  // Where a file taken by default lay, for notes: "next to it", or "next to
  // the file it links to" (beside_link_target).
  const char* where() const {
    return beside_link_target_ ? "next to the file it links to" : "next to it";
  }
  const PtxControlFlow* flow() const { return flow_ ? &*flow_ : nullptr; }
  // `e`, raised while the file was read or followed, with what the user
  // needs to see when it was taken by default: that it lies next to the
  // trace, and how not to take it.
  ToolError explained(const ToolError& e) const;

 private:
  std::string path_;
  bool next_to_trace_ = false;
  bool beside_link_target_ = false;
  std::string opt_out_;
  std::optional<PtxControlFlow> flow_;
};

// A hardware file: the native TOML format or a GPGPU-Sim configuration file
// (recognised by its -ptx_opcode_* / -gpgpu_* options). `memory_latency`,
// when given, overrides the file's.
HardwareConfig load_hardware_file(const std::string& path,
                                  std::optional<std::uint32_t> memory_latency);

// load_hardware_file on text already in memory; `name` stands for the file
// in messages and in HardwareConfig::source.
HardwareConfig parse_hardware_text(const std::string& name, std::string_view content,
                                   std::optional<std::uint32_t> memory_latency);

enum class TraceFormat { automatic, native, accelsim, ptx };

struct WarpTrace {
  std::uint32_t warp_id = 0;          // as the trace numbers it
  std::vector<Instruction> code;      // ends with an exit instruction
  std::vector<std::uint32_t> lines;   // source line of each instruction (same size)
};

struct BlockTrace {
  std::string label;  // "block 0,0,0", "warp 3", ...
  std::vector<WarpTrace> warps;
  // Why the trace may not show the block's whole run (a warp cut short
  // before its exit, warps of the launch shape missing), or empty. A bound
  // of such a block covers only what the trace shows: the tools report it
  // as not safe and refuse to compile it (docs/trace-formats.md,
  // "Incomplete traces").
  std::string incomplete;
  // Its warps were handed to TraceReadOptions::on_block and not kept (its
  // label and completeness are).
  bool dropped = false;
};

struct TraceFile {
  std::string path;
  TraceFormat format = TraceFormat::automatic;
  std::string kernel;               // kernel name when the trace gives one
  std::size_t register_count = 0;   // dense register ids are below this
  std::vector<BlockTrace> blocks;   // in file order
  // Why the trace may not show every block of its kernel (an Accel-Sim
  // trace with fewer blocks than its header's grid), or empty. A bound
  // over its blocks (the worst one's) covers only those it shows; a bound
  // of one block it shows is that block's still.
  std::string incomplete;
  // GPGPU-Sim PTX traces: the cycles the simulator observed
  // ("kernel_execution_time : N").
  std::optional<std::uint64_t> observed_cycles;
  // Remarks a person should see (the CLI prints them on stderr): for PTX
  // traces read with a control flow, where a warp stopped following it.
  std::vector<std::string> notes;
};

// What a reader needs besides the hardware.
struct TraceReadOptions {
  // Launch shape of the traced kernel, for the cost of the memory accesses
  // of PTX traces (lane_values.hpp); unknown by default, which assumes the
  // worst placement of a warp's lanes. Accel-Sim traces carry addresses.
  BlockShape block_shape;
  // GPGPU-Sim PTX traces: the control flow of the PTX file the trace ran
  // (ptx_control_flow.hpp), for the lanes of split warps to join exactly
  // where the simulator joins them; none by default. Must outlive the call.
  const PtxControlFlow* control_flow = nullptr;
  // Called now and then while the lines are read with (bytes read, bytes
  // in the file): the progress of a long read. None by default.
  std::function<void(std::size_t, std::size_t)> progress;
  // Accel-Sim and native traces: called with the trace read so far and the
  // index of the block just read, as soon as it is (its register_count
  // covers that block). Returning true drops the block's instructions
  // (BlockTrace::dropped), so that a trace of any length can be read in the
  // memory of a few blocks (and a hundred bytes or so for each block
  // dropped: its label); the callback may drop earlier ones too
  // (drop_instructions). None by default: every block is kept.
  std::function<bool(TraceFile&, std::size_t)> on_block;
};

// Frees a block's warps, keeping its label and completeness
// (BlockTrace::dropped).
void drop_instructions(BlockTrace& block);

// Reads a trace, classifying every opcode through `config` (its rules, then
// the built-in classification for the format). `automatic` picks the format
// from the content. Memory instructions get extra_cycles for their further
// transactions / bank passes (lane_values.hpp). Throws ToolError
// "file:line: ..." for malformed input or an opcode no rule maps to a unit
// of config.hw.
TraceFile read_trace(const std::string& path, TraceFormat format, const HardwareConfig& config,
                     const TraceReadOptions& options = {});

// read_trace on a stream (a pipe, standard input): a trace of any format is
// read a chunk at a time, its text not kept, so that a compressed trace can
// be piped through its decompressor in little memory. A NUL byte ends the
// read where it comes.
// read_trace reads path "-" (named "<stdin>") and pipes so.
TraceFile read_trace_stream(const std::string& name, std::istream& in, TraceFormat format,
                            const HardwareConfig& config, const TraceReadOptions& options = {});

// read_trace on text already in memory; `name` stands for the file in
// messages and in TraceFile::path.
TraceFile read_trace_text(const std::string& name, std::string_view content, TraceFormat format,
                          const HardwareConfig& config, const TraceReadOptions& options = {});

// The trace in the native format (docs/trace-formats.md): opcodes are unit
// names of `hw` ("load"/"store" with ".shared"/".param" for those kinds on
// the memory units, "branch" for a taken branch and "branch.fallthrough" for
// one that fell through on the "branch" unit, "barrier", "exit"), with
// "+N" for N extra cycles, registers r<id>. Reading the text back with a
// description holding the same units gives the same instructions up to a
// renaming of registers. Throws ToolError for an instruction the format
// cannot express (a load or store off the memory units, a branch off
// "branch", a unit index outside `hw`).
std::string write_native_trace(const TraceFile& trace, const HardwareDescription& hw);

// "native", "accelsim", "ptx", "auto"; throws ToolError otherwise.
TraceFormat parse_trace_format(const std::string& name);

}  // namespace gpuwcet::tools
