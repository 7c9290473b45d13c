// Small PTX kernels written out in tests, and a walk that feeds their lines
// to a LaneValueAnalysis as a GPGPU-Sim trace would: the opcode, guard and
// operands of the instruction on each named line, at that line.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "gpuwcet_tools/lane_values.hpp"
#include "gpuwcet_tools/ptx_control_flow.hpp"

namespace gpuwcet::tools::test_ptx {

// The lines of `text`, 1-based (lines[0] is unused).
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out{""};
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    out.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  return out;
}

inline std::uint32_t line_of(const std::string& text, const std::string& instruction) {
  const std::vector<std::string> lines = lines_of(text);
  for (std::size_t k = 1; k < lines.size(); ++k) {
    if (lines[k] == instruction) return static_cast<std::uint32_t>(k);
  }
  ADD_FAILURE() << "no line '" << instruction << "'";
  return 0;
}

// A kernel `k` of one .u32 parameter around `body`.
inline std::string kernel(const std::string& body) {
  return ".version 7.0\n.target sm_75\n\n.visible .entry k(\n.param .u32 k_param_0\n)\n{\n"
         ".reg .pred %p<4>;\n.reg .b32 %r<20>;\n.reg .f32 %f<8>;\n"
         "\t.shared .align 4 .b8 sh[1024];\n\n" +
         body + "}\n";
}

inline TraceLocation at_line(const PtxControlFlow& flow, std::uint32_t line) {
  return TraceLocation{0x100 + 8 * std::uint64_t{flow.index_of_line(line)}, "k.ptx", line, {}};
}

// A loop whose body only the lanes tid > i run, barrier included, as nvcc
// compiles lud_diagonal: the lanes tid <= i wait at BB0_3, the immediate
// post-dominator of the branch; the label BB0_2 inside the body joins
// nothing.
inline const std::string kLudLike = kernel(
    "mov.u32 %r1, %tid.x;\n"
    "mov.u32 %r2, sh;\n"
    "mov.u32 %r10, 0;\n"
    "\n"
    "BB0_1:\n"
    "setp.le.u32 %p1, %r1, %r10;\n"
    "@%p1 bra BB0_3;\n"
    "\n"
    "ld.shared.f32 %f1, [%r2];\n"
    "bar.sync 0;\n"
    "\n"
    "BB0_2:\n"
    "ld.shared.f32 %f2, [%r2+4];\n"
    "\n"
    "BB0_3:\n"
    "add.s32 %r10, %r10, 1;\n"
    "shl.b32 %r3, %r10, 2;\n"
    "add.s32 %r4, %r2, %r3;\n"
    "ld.shared.f32 %f3, [%r4];\n"
    "setp.lt.s32 %p2, %r10, 3;\n"
    "@%p2 bra BB0_1;\n"
    "\n"
    "ret;\n");

// A GPGPU-Sim PTX trace of one warp of 32 threads running kLudLike: each
// iteration i (0, 1, 2) the lanes tid > i run the body.
inline std::string lud_like_trace() {
  const PtxControlFlow flow = PtxControlFlow::parse("k.ptx", kLudLike);
  std::vector<std::string> order{"mov.u32 %r1, %tid.x;", "mov.u32 %r2, sh;", "mov.u32 %r10, 0;"};
  for (int i = 0; i < 3; ++i) {
    for (const char* s : {"setp.le.u32 %p1, %r1, %r10;", "@%p1 bra BB0_3;", "ld.shared.f32 %f1, [%r2];",
                          "bar.sync 0;", "ld.shared.f32 %f2, [%r2+4];", "add.s32 %r10, %r10, 1;",
                          "shl.b32 %r3, %r10, 2;", "add.s32 %r4, %r2, %r3;", "ld.shared.f32 %f3, [%r4];",
                          "setp.lt.s32 %p2, %r10, 3;", "@%p2 bra BB0_1;"}) {
      order.emplace_back(s);
    }
  }
  order.emplace_back("ret;");
  std::string trace;
  for (const std::string& s : order) {
    const std::uint32_t line = line_of(kLudLike, s);
    const std::uint32_t index = flow.index_of_line(line);
    trace += fmt::format("warp 0 :  PC=0x{:x} (k.ptx:{}) {}\n", 0x100 + 8 * index, line, s);
  }
  return trace + "kernel_execution_time : 100\n";
}

// Feeds the instruction written on a line of `text` ("@%p1 bra L;",
// "ld.global.u32 %r7, [%r3];"; operands without commas inside them).
struct Walk {
  const std::string& text;
  const PtxControlFlow& flow;
  LaneValueAnalysis& analysis;

  AccessCost operator()(const std::string& line) const {
    std::string_view rest(line);
    if (!rest.empty() && rest.back() == ';') rest.remove_suffix(1);
    std::string_view guard;
    if (!rest.empty() && rest[0] == '@') {
      guard = rest.substr(0, rest.find(' '));
      rest.remove_prefix(guard.size() + 1);
    }
    const std::size_t space = rest.find_first_of(" \t");
    const std::string_view opcode = rest.substr(0, space);
    std::vector<std::string_view> ops;
    if (space != std::string_view::npos) {
      std::string_view args = rest.substr(space + 1);
      while (!args.empty()) {
        const std::size_t comma = args.find(", ");
        ops.push_back(args.substr(0, comma));
        args = comma == std::string_view::npos ? std::string_view() : args.substr(comma + 2);
      }
    }
    return analysis.step(opcode, guard, ops, at_line(flow, line_of(text, line)));
  }
};

// An analysis of one warp of a block of `shape` that follows `flow`, fed
// `lines` of `text` first; then one line per call.
class FlowWalk {
 public:
  FlowWalk(const std::string& text, const PtxControlFlow& flow, BlockShape shape,
           const std::vector<const char*>& lines)
      : analysis_(shape), walk_{text, flow, analysis_} {
    analysis_.follow(&flow);
    for (const char* line : lines) walk_(line);
  }
  FlowWalk(const FlowWalk&) = delete;
  FlowWalk& operator=(const FlowWalk&) = delete;

  AccessCost operator()(const std::string& line) const { return walk_(line); }
  // Why the analysis stopped following the file (empty: it did not).
  const std::string& left() const { return analysis_.flow_left(); }

 private:
  LaneValueAnalysis analysis_;
  Walk walk_;
};

}  // namespace gpuwcet::tools::test_ptx
