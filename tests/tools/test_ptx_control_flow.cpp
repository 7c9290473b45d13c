// Join points from the PTX file (ptx_control_flow.hpp, docs/trace-formats.md
// "Join points from the PTX file"): GPGPU-Sim's basic blocks and immediate
// post-dominators on small kernels worked out by hand, the reader's errors,
// and LaneValueAnalysis following the reconvergence stack through a loop
// shaped like Rodinia's lud_diagonal.
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "gpuwcet/hardware_presets.hpp"
#include "gpuwcet_tools/ptx_control_flow.hpp"
#include "gpuwcet_tools/tool_error.hpp"
#include "gpuwcet_tools/trace_input.hpp"
#include "ptx_kernel_text.hpp"

using namespace gpuwcet;
using namespace gpuwcet::tools;
using namespace gpuwcet::tools::test_ptx;

namespace {

// Where the branch on `branch_line` joins its lanes, as a source line (0: at
// the kernel's exit).
std::uint32_t join_line(const PtxControlFlow& flow, std::uint32_t branch_line) {
  const std::uint32_t b = flow.index_of_line(branch_line);
  EXPECT_NE(b, FlowInstruction::kNone);
  EXPECT_EQ(flow.at(b).kind, FlowInstruction::Kind::branch);
  const std::uint32_t j = flow.at(b).reconverge;
  return j == FlowInstruction::kNone ? 0 : flow.at(j).line;
}

TEST(PtxControlFlow, BranchesJoinAtTheirImmediatePostDominator) {
  const PtxControlFlow flow = PtxControlFlow::parse("k.ptx", kLudLike);
  // The split: its lanes meet at BB0_3, past the barrier and BB0_2.
  EXPECT_EQ(join_line(flow, line_of(kLudLike, "@%p1 bra BB0_3;")),
            line_of(kLudLike, "add.s32 %r10, %r10, 1;"));
  // The loop's back edge: after the loop.
  EXPECT_EQ(join_line(flow, line_of(kLudLike, "@%p2 bra BB0_1;")), line_of(kLudLike, "ret;"));
  EXPECT_EQ(flow.index_of_line(line_of(kLudLike, "BB0_2:")), FlowInstruction::kNone);
  EXPECT_EQ(flow.at(flow.index_of_line(line_of(kLudLike, "bar.sync 0;"))).opcode, "bar.sync");
}

TEST(PtxControlFlow, IfElseJoinsAfterBothPaths) {
  const std::string text = kernel(
      "mov.u32 %r1, %tid.x;\n"
      "setp.lt.u32 %p1, %r1, 16;\n"
      "@%p1 bra ELSE;\n"
      "\n"
      "add.s32 %r2, %r1, 1;\n"
      "bra.uni END;\n"
      "\n"
      "ELSE:\n"
      "add.s32 %r2, %r1, 2;\n"
      "\n"
      "END:\n"
      "add.s32 %r3, %r2, 3;\n"
      "ret;\n");
  const PtxControlFlow flow = PtxControlFlow::parse("k.ptx", text);
  const std::uint32_t end = line_of(text, "add.s32 %r3, %r2, 3;");
  EXPECT_EQ(join_line(flow, line_of(text, "@%p1 bra ELSE;")), end);
  EXPECT_EQ(join_line(flow, line_of(text, "bra.uni END;")), end);
  const std::uint32_t jump = flow.index_of_line(line_of(text, "bra.uni END;"));
  EXPECT_FALSE(flow.at(jump).guarded);
  EXPECT_EQ(flow.at(flow.at(jump).target).line, end);
}

// A guarded exit inside the then-path gives that path a way to the exit that
// skips END: END no longer post-dominates the branch, whose lanes then meet
// only when the kernel ends (GPGPU-Sim's exit block).
TEST(PtxControlFlow, AGuardedExitMovesTheJoinToTheKernelsEnd) {
  const std::string text = kernel(
      "mov.u32 %r1, %tid.x;\n"
      "setp.lt.u32 %p1, %r1, 16;\n"
      "setp.lt.u32 %p2, %r1, 8;\n"
      "@%p1 bra END;\n"
      "\n"
      "@%p2 exit;\n"
      "\n"
      "add.s32 %r2, %r1, 1;\n"
      "\n"
      "END:\n"
      "add.s32 %r3, %r1, 3;\n"
      "ret;\n");
  const PtxControlFlow flow = PtxControlFlow::parse("k.ptx", text);
  EXPECT_EQ(join_line(flow, line_of(text, "@%p1 bra END;")), 0u);
}

TEST(PtxControlFlow, CommentsDirectivesAndScopesAreNoInstructions) {
  const std::string text = kernel(
      "// a comment\n"
      "mov.u32 %r1, %tid.x; // after an instruction\n"
      "/* a block\n"
      "comment */\n"
      "{\n"
      ".reg .b32 temp;\n"
      "add.s32 %r2, %r1, 1;\n"
      "}\n"
      "add.s32 %r3, %r1, 1; add.s32 %r4, %r1, 1;\n"
      "ret;\n");
  const PtxControlFlow flow = PtxControlFlow::parse("k.ptx", text);
  EXPECT_EQ(flow.size(), 5u);
  EXPECT_NE(flow.index_of_line(line_of(text, "mov.u32 %r1, %tid.x; // after an instruction")),
            FlowInstruction::kNone);
  EXPECT_NE(flow.index_of_line(line_of(text, "add.s32 %r2, %r1, 1;")), FlowInstruction::kNone);
  // Two instructions on one line: a trace could not tell them apart.
  EXPECT_EQ(flow.index_of_line(line_of(text, "add.s32 %r3, %r1, 1; add.s32 %r4, %r1, 1;")),
            FlowInstruction::kNone);
  EXPECT_EQ(flow.index_of_line(line_of(text, ".reg .b32 temp;")), FlowInstruction::kNone);
}

void expect_error(const std::string& text, const std::string& where, const std::string& what) {
  try {
    PtxControlFlow::parse("k.ptx", text);
    ADD_FAILURE() << "no error for " << what;
  } catch (const ToolError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(where), std::string::npos) << message;
    EXPECT_NE(message.find(what), std::string::npos) << message;
  }
}

TEST(PtxControlFlow, ErrorsNameTheFileAndLine) {
  const std::string unknown = kernel("mov.u32 %r1, %tid.x;\n@%p1 bra NOWHERE;\nret;\n");
  expect_error(unknown, fmt::format("k.ptx:{}:", line_of(unknown, "@%p1 bra NOWHERE;")), "'NOWHERE'");
  const std::string trailing = kernel("@%p1 bra LAST;\nret;\nLAST:\n");
  expect_error(trailing, fmt::format("k.ptx:{}:", line_of(trailing, "@%p1 bra LAST;")),
               "no instruction after it");
  expect_error(".visible .entry k()\n{\nret;\n", "k.ptx:", "not closed");
  // A statement whose ';' never comes: at the function's end, or the file's.
  const std::string open_end = kernel("mov.u32 %r1, %tid.x;\nret\n");
  expect_error(open_end, fmt::format("k.ptx:{}:", line_of(open_end, "}")),
               fmt::format("the statement begun on line {} has no ';'", line_of(open_end, "ret")));
  expect_error(".visible .entry k()\n{\nret\n", "k.ptx:3:", "the statement begun on line 3 has no ';'");
}

// A label with a blank before its colon (GPGPU-Sim's lexer skips it) and a
// switch's list of branch targets, which runs to its ';', are no
// instructions.
TEST(PtxControlFlow, LabelsAndTargetListsAreNoInstructions) {
  const std::string text = kernel(
      "mov.u32 %r1, %tid.x;\n"
      "L1 :\n"
      "mov.u32 %r2, 1;\n"
      "L2 : mov.u32 %r3, 2;\n"
      "$L_brx_0: .branchtargets\n"
      "L1,\n"
      "L2;\n"
      "brx.idx %r1, $L_brx_0;\n"
      "@%p1 bra L2;\n"
      "ret;\n");
  const PtxControlFlow flow = PtxControlFlow::parse("k.ptx", text);
  // mov, mov, mov, brx, bra, ret.
  ASSERT_EQ(flow.size(), 6u);
  const std::uint32_t bra = flow.index_of_line(line_of(text, "@%p1 bra L2;"));
  ASSERT_EQ(bra, 4u);
  EXPECT_EQ(flow.at(bra).target, flow.index_of_line(line_of(text, "L2 : mov.u32 %r3, 2;")));
  EXPECT_EQ(flow.at(flow.index_of_line(line_of(text, "mov.u32 %r2, 1;"))).opcode, "mov.u32");
}

// --- LaneValueAnalysis following the stack, through the PTX reader ---

HardwareConfig orin() { return hardware_preset("orin-sm", 20); }

// Extra cycles of every traced `ld.shared.f32 %f3, [%r4]`, whose address
// sh + 4 * (i + 1) is the same in every lane.
std::vector<unsigned> costs_of_the_uniform_load(const TraceFile& trace) {
  std::vector<unsigned> out;
  const WarpTrace& w = trace.blocks.at(0).warps.at(0);
  // The load is the 9th of the 11 instructions of each iteration, after 3.
  for (std::size_t i = 0; i < 3; ++i) out.push_back(w.code.at(3 + 11 * i + 8).extra_cycles);
  return out;
}

TEST(PtxControlFlow, LanesJoinAtTheBranchsJoinPointAndNowhereElse) {
  TraceReadOptions options;
  options.block_shape = BlockShape{32, 1, 1};
  const HardwareConfig config = orin();
  // Without the file, the label BB0_2 may be where the waiting lanes join:
  // the loop counter written after BB0_3 may differ between lanes, and the
  // load may take a bank pass per lane.
  const TraceFile guessed = read_trace_text("t.trace", lud_like_trace(), TraceFormat::ptx, config, options);
  // With it, the lanes meet at BB0_3: the whole warp writes the counter, the
  // address is the same in every lane, one pass.
  const PtxControlFlow flow = PtxControlFlow::parse("k.ptx", kLudLike);
  options.control_flow = &flow;
  const TraceFile followed = read_trace_text("t.trace", lud_like_trace(), TraceFormat::ptx, config, options);
  EXPECT_TRUE(followed.notes.empty());
  const std::vector<unsigned> exact = costs_of_the_uniform_load(followed);
  const std::vector<unsigned> rules = costs_of_the_uniform_load(guessed);
  ASSERT_EQ(exact.size(), 3u);
  ASSERT_EQ(rules.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(exact[i], 0u) << "iteration " << i;
    EXPECT_GE(rules[i], exact[i]);
  }
  EXPECT_GT(rules[1], 0u);  // what the file buys
}

void expect_read_error(const std::string& trace, const PtxControlFlow& flow, const std::string& what) {
  TraceReadOptions options;
  options.block_shape = BlockShape{32, 1, 1};
  options.control_flow = &flow;
  try {
    read_trace_text("t.trace", trace, TraceFormat::ptx, orin(), options);
    ADD_FAILURE() << "no error for " << what;
  } catch (const ToolError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("t.trace:"), std::string::npos) << message;
    EXPECT_NE(message.find(what), std::string::npos) << message;
  }
}

TEST(PtxControlFlow, ATraceFromAnotherFileIsAnError) {
  const PtxControlFlow flow = PtxControlFlow::parse("k.ptx", kLudLike);
  const std::string good = lud_like_trace();
  // Another file name on the trace's lines.
  std::string renamed = good;
  for (std::size_t at = renamed.find("k.ptx"); at != std::string::npos; at = renamed.find("k.ptx", at)) {
    renamed.replace(at, 5, "x.ptx");
  }
  expect_read_error(renamed, flow, "the PTX file followed is k.ptx");
  // A line that holds another instruction.
  std::string moved = good;
  const std::string shl = fmt::format("k.ptx:{})", line_of(kLudLike, "shl.b32 %r3, %r10, 2;"));
  moved.replace(moved.find(shl), shl.size(),
                fmt::format("k.ptx:{})", line_of(kLudLike, "add.s32 %r4, %r2, %r3;")));
  expect_read_error(moved, flow, "holds 'add.s32', the trace runs 'shl.b32'");
  // Every lane falls through the split (one lane, lane 0, should have
  // waited at BB0_3): the trace skips the body where GPGPU-Sim runs it.
  std::string skipped = good;
  const std::string body = fmt::format("(k.ptx:{})", line_of(kLudLike, "ld.shared.f32 %f1, [%r2];"));
  const std::size_t first = skipped.find(body);
  const std::size_t line_start = skipped.rfind('\n', first) + 1;
  skipped.erase(line_start, skipped.find('\n', first) + 1 - line_start);
  expect_read_error(skipped, flow, "reconvergence stack goes to");
  // Another guard or operand than the file's on that line: the lanes would
  // be followed through code the trace did not run.
  std::string flipped = good;
  flipped.replace(flipped.find("@%p1 bra BB0_3;"), 15, "@!%p1 bra BB0_3;");
  expect_read_error(flipped, flow, "holds '@%p1 bra BB0_3', the trace runs '@!%p1 bra BB0_3'");
  std::string shifted = good;
  shifted.replace(shifted.find("shl.b32 %r3, %r10, 2;"), 21, "shl.b32 %r3, %r10, 3;");
  expect_read_error(shifted, flow, "holds 'shl.b32 %r3, %r10, 2', the trace runs 'shl.b32 %r3, %r10, 3'");
  // The loop's back jump given the address of a fall-through: the address
  // says not taken, the line says taken (a taken branch costs a cycle more).
  std::string fallen = good;
  const std::size_t jump = fallen.find("@%p2 bra BB0_1;");
  const std::size_t pc_at = fallen.rfind("PC=0x", jump) + 5;
  const std::uint64_t jump_pc = std::stoull(fallen.substr(pc_at, fallen.find(' ', pc_at) - pc_at), nullptr, 16);
  const std::size_t next_pc_at = fallen.find("PC=0x", jump) + 5;
  fallen.replace(next_pc_at, fallen.find(' ', next_pc_at) - next_pc_at, fmt::format("{:x}", jump_pc + 8));
  expect_read_error(fallen, flow, "instructions of a function 8 bytes apart");
}

// nvcc writes a call's operands one per line; GPGPU-Sim reads the statement
// as one instruction, 8 bytes, on the line of its ';' (ptx_parser.cc,
// add_instruction). A call prototype and a .loc are no instructions. A
// trace that branches over them keeps its addresses 8 bytes apart per
// instruction, and a comment GPGPU-Sim prints with the line is no operand.
TEST(PtxControlFlow, AStatementOverSeveralLinesIsOneInstruction) {
  const std::string text = kernel(
      "mov.u32 %r1, %tid.x;\n"
      ".loc 1 2 3\n"
      "setp.lt.u32 %p1, %r1, 100;\n"
      "@%p1 bra BB0_2;\n"
      "{\n"
      ".param .b32 param0;\n"
      "st.param.b32 [param0+0], %r1;\n"
      "call.uni\n"
      "f,\n"
      "(\n"
      "param0\n"
      ");\n"
      "}\n"
      "prototype_0 : .callprototype ()_ (.param .b32 _);\n"
      "BB0_2:\n"
      "add.s32 %r2, %r1, /* one */ 1;\n"
      "ret;\n");
  const PtxControlFlow flow = PtxControlFlow::parse("k.ptx", text);
  const std::uint32_t call = flow.index_of_line(line_of(text, ");"));
  ASSERT_NE(call, FlowInstruction::kNone);
  EXPECT_EQ(flow.at(call).kind, FlowInstruction::Kind::call);
  EXPECT_EQ(flow.at(call).opcode, "call.uni");
  EXPECT_EQ(flow.index_of_line(line_of(text, "call.uni")), FlowInstruction::kNone);
  // mov, setp, bra, st.param, call, add, ret.
  EXPECT_EQ(flow.size(), 7u);
  std::string trace;
  for (const char* s : {"mov.u32 %r1, %tid.x;", "setp.lt.u32 %p1, %r1, 100;", "@%p1 bra BB0_2;",
                        "add.s32 %r2, %r1, /* one */ 1;", "ret;"}) {
    const std::uint32_t line = line_of(text, s);
    trace += fmt::format("warp 0 :  PC=0x{:x} (k.ptx:{}) {}\n", 0x100 + 8 * flow.index_of_line(line), line, s);
  }
  TraceReadOptions options;
  options.block_shape = BlockShape{32, 1, 1};
  options.control_flow = &flow;
  const TraceFile t = read_trace_text("t.trace", trace + "kernel_execution_time : 100\n", TraceFormat::ptx,
                                      orin(), options);
  ASSERT_EQ(t.blocks.size(), 1u);
  EXPECT_EQ(t.blocks[0].warps[0].code.size(), 5u);
}

}  // namespace

// --- Cases found by review, fed instruction by instruction ---

namespace {

// `@!%p3 bra` with %p3 = (tid < 16) and %p2, %p2 a float comparison the
// same in every lane but unknown: when %p2 is false no lane falls through and the whole warp takes
// the branch. Taking %p2 for true gave the taken path 16 lanes; with
// 128-byte strides its load touches 32 sectors. The lanes that fall through
// are at most the 16 of tid < 16 (one sector each).
TEST(PtxControlFlow, ASplitOnAnUnknownUniformTermIsNotExact) {
  const std::string text = kernel(
      "mov.u32 %r1, %tid.x;\n"
      "ld.param.f32 %f1, [k_param_0];\n"
      "setp.lt.s32 %p1, %r1, 16;\n"
      "setp.gt.f32 %p2, %f1, 0f00000000;\n"
      "and.pred %p3, %p1, %p2;\n"
      "mul.lo.s32 %r3, %r1, 128;\n"
      "@!%p3 bra TAKEN;\n"
      "\n"
      "ld.global.u32 %r5, [%r3];\n"
      "ret;\n"
      "\n"
      "TAKEN:\n"
      "ld.global.u32 %r6, [%r3];\n"
      "ret;\n");
  const PtxControlFlow flow = PtxControlFlow::parse("k.ptx", text);
  for (const bool take : {true, false}) {
    const FlowWalk walk(text, flow, BlockShape{32, 1, 1},
                        {"mov.u32 %r1, %tid.x;", "ld.param.f32 %f1, [k_param_0];", "setp.lt.s32 %p1, %r1, 16;",
                         "setp.gt.f32 %p2, %f1, 0f00000000;", "and.pred %p3, %p1, %p2;",
                         "mul.lo.s32 %r3, %r1, 128;", "@!%p3 bra TAKEN;"});
    const AccessCost c = walk(take ? "ld.global.u32 %r6, [%r3];" : "ld.global.u32 %r5, [%r3];");
    EXPECT_EQ(c.passes, take ? 32u : 16u) << take;
    // Followed: every lane one way, or a split, until the trace tells.
    EXPECT_TRUE(walk.left().empty()) << walk.left();
  }
}

// setp.lt.u32 compares unsigned: (unsigned)(tid - 16) < 8 holds for tid 16
// to 23 only, so 24 lanes fall through (taking it as signed left 8).
TEST(PtxControlFlow, UnsignedComparisonsOfNegativeValuesAreNotKnown) {
  const std::string text = kernel(
      "mov.u32 %r1, %tid.x;\n"
      "sub.s32 %r2, %r1, 16;\n"
      "setp.lt.u32 %p1, %r2, 8;\n"
      "mul.lo.s32 %r3, %r1, 128;\n"
      "@%p1 bra SKIP;\n"
      "\n"
      "ld.global.u32 %r6, [%r3];\n"
      "\n"
      "SKIP:\n"
      "ret;\n");
  const PtxControlFlow flow = PtxControlFlow::parse("k.ptx", text);
  for (const bool follow : {true, false}) {
    LaneValueAnalysis a(BlockShape{32, 1, 1});
    if (follow) a.follow(&flow);
    const Walk walk{text, flow, a};
    for (const char* line : {"mov.u32 %r1, %tid.x;", "sub.s32 %r2, %r1, 16;", "setp.lt.u32 %p1, %r2, 8;",
                             "mul.lo.s32 %r3, %r1, 128;", "@%p1 bra SKIP;"}) {
      walk(line);
    }
    const AccessCost c = walk("ld.global.u32 %r6, [%r3];");
    EXPECT_GE(c.passes, 24u) << (follow ? "with the file" : "without");
  }
}

}  // namespace
