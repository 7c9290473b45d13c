// The control flow of the kernels of a PTX file, as GPGPU-Sim builds it to
// run them (docs/trace-formats.md, "Join points from the PTX file").
//
// A PTX trace names the file and source line of every instruction it ran
// but not where the lanes of a split warp meet again: GPGPU-Sim takes that
// from the kernel's control-flow graph. For every branch, the reconvergence
// point is the first instruction of the immediate post-dominator of the
// branch's basic block, or the kernel's exit when that is the exit block.
// Basic blocks and edges follow GPGPU-Sim's PTX front end:
//   - a block starts at the first instruction, after a label, and after a
//     bra, ret or exit (and after a guarded call);
//   - bra goes to its target's block, and to the next block too when it is
//     guarded; ret and exit go to the exit block, and to the next block too
//     when guarded; any other block falls through to the next one.
// With these points LaneValueAnalysis follows the warp's reconvergence stack
// as the simulator does, instead of taking every label for a possible join.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gpuwcet_tools/tool_error.hpp"

namespace gpuwcet::tools {

// A trace that the PTX file followed does not fit (another program, or
// another launch shape): raised by LaneValueAnalysis while it follows the
// file, so that a tool that took the file by default can say so.
class PtxFileMismatch : public ToolError {
 public:
  using ToolError::ToolError;
};

struct FlowInstruction {
  enum class Kind : std::uint8_t { plain, branch, exit, call, indirect };
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};
  Kind kind = Kind::plain;
  bool guarded = false;
  std::uint32_t line = 0;                // 1-based source line
  std::uint32_t function = 0;            // index of its kernel or function
  std::uint32_t target = kNone;          // branch: index of the instruction it jumps to
  std::uint32_t reconverge = kNone;      // branch: where split lanes meet; kNone: at exit
  std::string opcode;                    // with its modifiers: "setp.le.u32"
  std::string text;                      // the statement, guard and operands, without ';'
                                         // (empty: written over several lines)
};

class PtxControlFlow {
 public:
  // Parses PTX text; `name` is the file's name as a trace names it (the
  // path's last component) and stands for it in messages. Throws ToolError
  // "name:line: ..." for what it cannot read (an unknown label, a label
  // with no instruction after it, an unclosed function).
  static PtxControlFlow parse(const std::string& name, std::string_view text);
  // Reads and parses a file.
  static PtxControlFlow load(const std::string& path);

  const std::string& name() const { return name_; }
  // The file as messages name it: the path given to load() (parse: the name).
  const std::string& path() const { return path_; }
  std::size_t size() const { return code_.size(); }
  const FlowInstruction& at(std::uint32_t index) const { return code_[index]; }
  // The instruction on a source line, or FlowInstruction::kNone (none, or
  // several on that line: a trace could not tell them apart).
  std::uint32_t index_of_line(std::uint64_t line) const;
  // Index of the instruction after `index` in its function, or kNone.
  std::uint32_t next(std::uint32_t index) const;

 private:
  static PtxControlFlow parse_file(const std::string& name, const std::string& path,
                                   std::string_view text);
  std::string name_;
  std::string path_;
  std::vector<FlowInstruction> code_;  // file order, functions one after the other
  std::unordered_map<std::uint64_t, std::uint32_t> by_line_;
};

}  // namespace gpuwcet::tools
