// Hand-checked examples of every reader: units, kinds and register
// dependencies of small traces worked out by hand from the format
// descriptions in docs/trace-formats.md, the bundled examples, and rule
// overrides from a hardware file.
#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "gpuwcet/block_model.hpp"
#include "gpuwcet_tools/tool_error.hpp"
#include "gpuwcet_tools/trace_parsing.hpp"
#include "gpuwcet_tools/trace_input.hpp"
#include "same_hardware.hpp"

using namespace gpuwcet;
using namespace gpuwcet::tools;

namespace {

const std::string kSource = GPUWCET_SOURCE_DIR;

HardwareConfig orin() { return hardware_preset("orin-sm", 200); }

std::uint16_t unit(const HardwareConfig& c, const char* name) {
  const int u = find_unit(c.hw, name);
  EXPECT_GE(u, 0) << name;
  return static_cast<std::uint16_t>(u);
}

std::vector<std::uint16_t> dsts(const Instruction& i) {
  return {i.dst.begin(), i.dst.begin() + i.dst_count};
}
std::vector<std::uint16_t> srcs(const Instruction& i) {
  return {i.src.begin(), i.src.begin() + i.src_count};
}

using Regs = std::vector<std::uint16_t>;

// An Accel-Sim trace of one warp in block 0,0,0: its instruction lines
// start on line 5.
std::string accelsim_warp(const std::vector<std::string>& lines) {
  std::string text = "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = " +
                     std::to_string(lines.size()) + "\n";
  for (const std::string& l : lines) text += l + "\n";
  return text + "#END_TB\n";
}

// The instructions of that warp, read with the orin-sm preset.
std::vector<Instruction> accelsim_code(const std::vector<std::string>& lines) {
  return read_trace_text("k.traceg", accelsim_warp(lines), TraceFormat::accelsim, orin())
      .blocks[0]
      .warps[0]
      .code;
}

}  // namespace

TEST(ReadersPtx, HandCheckedOperandsAndUnits) {
  // Register ids are dense in order of first appearance; worked out by hand:
  // %rd2=0 %r1=1 %p1=2 %p2=3 %f1=4 %f2=5 %f3=6 %fd1=7 %fd2=8 %fd3=9.
  const std::string text =
      "warp 0 :  PC=0x00 (k.ptx:1) ld.param.u64 %rd2, [k_param_0];\n"
      "warp 0 :  PC=0x08 (k.ptx:2) mov.u32 %r1, %tid.x;\n"
      "warp 0 :  PC=0x10 (k.ptx:3) setp.lt.s32%p1|%p2, %r1, 4;\n"
      "warp 0 :  PC=0x18 (k.ptx:4) @!%p1 bra BB0_2;\n"
      "warp 0 :  PC=0x20 (k.ptx:5) ld.global.v2.f32 {%f1, %f2}, [%rd2+8];\n"
      "warp 0 :  PC=0x28 (k.ptx:6) st.shared.f32 [%rd2], %f1;\n"
      "warp 0 :  PC=0x30 (k.ptx:7) fma.rn.f32 %f3, %f1, %f2, 0f3F800000;\n"
      "warp 0 :  PC=0x38 (k.ptx:8) div.rn.f64 %fd1, %fd2, %fd3;\n"
      "warp 0 :  PC=0x40 (k.ptx:9) bar.sync 0;\n"
      "warp 1 :  PC=0x00 (k.ptx:10) add.s32 %r1, %r1, 1;\n"
      "warp 0 :  PC=0x48 (k.ptx:11) ret;\n"
      "kernel_execution_time : 123";  // no trailing newline, as in the data set
  const HardwareConfig c = orin();
  const TraceFile t = read_trace_text("k.trace", text, TraceFormat::automatic, c);
  EXPECT_EQ(t.format, TraceFormat::ptx);
  ASSERT_TRUE(t.observed_cycles.has_value());
  EXPECT_EQ(*t.observed_cycles, 123u);
  EXPECT_EQ(t.register_count, 10u);
  ASSERT_EQ(t.blocks.size(), 1u);
  ASSERT_EQ(t.blocks[0].warps.size(), 2u);
  const auto& w0 = t.blocks[0].warps[0].code;
  ASSERT_EQ(w0.size(), 10u);
  struct Want {
    const char* unit;  // nullptr: barrier/exit
    OpKind kind;
    Regs dst, src;
  };
  const std::vector<Want> want = {
      {"mem_param", OpKind::load, {0}, {}},         // parameter space
      {"alu", OpKind::compute, {1}, {}},            // %tid.x is no dependency
      {"alu", OpKind::compute, {2, 3}, {1}},        // two predicate results
      {"branch", OpKind::compute, {}, {2}},         // guard is a source; falls through: not taken
      {"mem", OpKind::load, {4, 5}, {0}},           // vector result, address register
      {"mem_shared", OpKind::store, {}, {0, 4}},    // a store writes no register
      {"fp_mad", OpKind::compute, {6}, {4, 5}},     // immediates are no registers
      {"dp_div", OpKind::compute, {7}, {8, 9}},     // f64 division on the SFU numbers
      {nullptr, OpKind::barrier, {}, {}},
      {nullptr, OpKind::exit, {}, {}},
  };
  for (std::size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(w0[i].kind, want[i].kind);
    if (want[i].unit != nullptr) {
      EXPECT_EQ(w0[i].unit, unit(c, want[i].unit));
    }
    EXPECT_EQ(dsts(w0[i]), want[i].dst);
    EXPECT_EQ(srcs(w0[i]), want[i].src);
  }
  EXPECT_EQ(t.blocks[0].warps[0].lines[7], 8u);
  // Warp 1 ends without ret: an exit is appended.
  const auto& w1 = t.blocks[0].warps[1];
  EXPECT_EQ(w1.warp_id, 1u);
  ASSERT_EQ(w1.code.size(), 2u);
  EXPECT_EQ(w1.code[0].unit, unit(c, "int_add"));
  EXPECT_EQ(dsts(w1.code[0]), Regs{1});
  EXPECT_EQ(srcs(w1.code[0]), Regs{1});
  EXPECT_EQ(w1.code[1].kind, OpKind::exit);
}

TEST(ReadersPtx, PredicatedRetBeforeTheEndIsABranch) {
  const std::string text =
      "warp 0 : PC=0x0 (k.ptx:1) @%p1 ret;\n"
      "warp 0 : PC=0x8 (k.ptx:2) add.f32 %f1, %f1, %f2;\n"
      "warp 0 : PC=0x10 (k.ptx:3) ret;\n";
  const HardwareConfig c = orin();
  const TraceFile t = read_trace_text("k.trace", text, TraceFormat::ptx, c);
  const auto& w = t.blocks[0].warps[0].code;
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[0].kind, OpKind::branch);
  EXPECT_EQ(w[0].unit, unit(c, "branch"));
  EXPECT_EQ(w[1].unit, unit(c, "fp_add"));
  EXPECT_EQ(w[2].kind, OpKind::exit);
}

TEST(ReadersAccelSim, HandCheckedInstructions) {
  // Registers in order of first appearance: R1=0, R2=1, R3=2 (the upper half
  // of the IMAD.WIDE result), UR4=3, P0=4; RZ and PT drop out.
  const std::string text =
      "-kernel name = k\n"
      "-enable lineinfo = 1\n"
      "#traces format = [line_num] PC mask dest_num [reg_dests] opcode ...\n"
      "#BEGIN_TB\n"
      "thread block = 1,0,0\n"
      "warp = 3\n"
      "insts = 6\n"
      "7 0000 ffffffff 1 R1 MOV 1 R255 0 0\n"
      "7 0010 ffffffff 1 R2 IMAD.WIDE 3 R1 UR4 RZ 0 0\n"
      "8 0020 0000ffff 1 P0 ISETP.GE.AND 2 R2 PT 0\n"
      "8 0030 0000ffff 1 R1 LDG.E 1 R2 4 2 0x7f00 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 0\n"
      "9 0040 ffff0000 0 EXIT 0 0 0\n"
      "9 0050 0000ffff 0 STG.E 2 R2 R1 4 1 0x7f00 4 0\n"
      "#END_TB\n";
  const HardwareConfig c = orin();
  const TraceFile t = read_trace_text("k.traceg", text, TraceFormat::automatic, c);
  EXPECT_EQ(t.format, TraceFormat::accelsim);
  EXPECT_EQ(t.kernel, "k");
  EXPECT_EQ(t.register_count, 5u);
  ASSERT_EQ(t.blocks.size(), 1u);
  EXPECT_EQ(t.blocks[0].label, "block 1,0,0");
  ASSERT_EQ(t.blocks[0].warps.size(), 1u);
  const WarpTrace& w = t.blocks[0].warps[0];
  EXPECT_EQ(w.warp_id, 3u);
  ASSERT_EQ(w.code.size(), 7u);  // 6 lines + the appended exit
  EXPECT_EQ(w.code[0].unit, unit(c, "alu"));
  EXPECT_EQ(dsts(w.code[0]), Regs{0});
  EXPECT_EQ(srcs(w.code[0]), Regs{});
  EXPECT_EQ(w.code[1].unit, unit(c, "int_mad"));
  EXPECT_EQ(dsts(w.code[1]), (Regs{1, 2}));
  EXPECT_EQ(srcs(w.code[1]), (Regs{0, 3}));
  EXPECT_EQ(w.code[2].unit, unit(c, "int_add"));
  EXPECT_EQ(dsts(w.code[2]), Regs{4});
  EXPECT_EQ(srcs(w.code[2]), Regs{1});
  EXPECT_EQ(w.code[3].unit, unit(c, "mem"));
  EXPECT_EQ(w.code[3].kind, OpKind::load);
  EXPECT_EQ(srcs(w.code[3]), (Regs{1, 2}));  // the address [R2.64]: R2 and R3
  EXPECT_EQ(w.code[4].kind, OpKind::branch);  // half the warp goes on
  EXPECT_EQ(w.code[5].kind, OpKind::store);
  EXPECT_EQ(srcs(w.code[5]), (Regs{1, 2, 0}));  // address R2:R3, data R1
  EXPECT_EQ(w.code[6].kind, OpKind::exit);
  EXPECT_EQ(w.lines[1], 9u);
}

// The tracer names the first register of a wide operand only. A double
// (DADD R4, R6, R8) writes R4:R5 and reads R6:R7 and R8:R9, so a MOV to R7
// just before it is a dependency; ULDC.64 writes UR4:UR5; LDSM.16.M88.4
// writes four registers, and each lane reads a 16-byte row, not the 2 bytes
// of the element size the tracer writes: 32 rows 4 bytes apart cover words
// 0-34, so banks 0-2 hold two words each, 2 passes (2 bytes a lane: words
// 0-31, one pass).
// Registers in order of first appearance: R7=0, R4=1, R5=2, R6=3, R8=4,
// R9=5, UR4=6, UR5=7, R12=8..R15=11, R2=12.
TEST(ReadersAccelSim, WideOperandsCoverEveryRegister) {
  const auto w = accelsim_code({"0000 ffffffff 1 R7 MOV 0 0",
                                "0010 ffffffff 1 R4 DADD 2 R6 R8 0",
                                "0020 ffffffff 1 UR4 ULDC.64 0 0",
                                "0030 ffffffff 1 R12 LDSM.16.M88.4 1 R2 2 1 0x7000 4 0"});
  ASSERT_GE(w.size(), 4u);
  EXPECT_EQ(dsts(w[1]), (Regs{1, 2}));
  EXPECT_EQ(srcs(w[1]), (Regs{3, 0, 4, 5}));
  EXPECT_EQ(dsts(w[2]), (Regs{6, 7}));
  EXPECT_EQ(dsts(w[3]), (Regs{8, 9, 10, 11}));
  EXPECT_EQ(srcs(w[3]), (Regs{12}));
  EXPECT_EQ(w[3].extra_cycles, 1u);  // one further bank pass on mem_shared
}

// A memory access lists its address first: a global `.E` address is a
// pair, the data as wide as the access. STG.E.128 [R2.64], R8 reads R2-R3
// and R8-R11 (6 sources, the model's limit); IMAD.WIDE's addend R2, its
// last source, is a pair (R5, a 32-bit factor, is not); I2F.F32.S64 R4, R6
// reads R6-R7. Registers in order of first
// appearance: R2=0, R3=1, R8=2, R9=3, R10=4, R11=5, R4=6, R5=7, R6=8, R7=9.
TEST(ReadersAccelSim, WideSourcesOfMemoryAndIntegerOperations) {
  const auto w = accelsim_code({"0000 ffffffff 0 STG.E.128 2 R2 R8 16 1 0x7000 16 0",
                                "0010 ffffffff 1 R4 IMAD.WIDE 2 R5 R2 0",
                                "0020 ffffffff 1 R4 I2F.F32.S64 1 R6 0"});
  ASSERT_GE(w.size(), 3u);
  EXPECT_EQ(srcs(w[0]), (Regs{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(dsts(w[1]), (Regs{6, 7}));
  EXPECT_EQ(srcs(w[1]), (Regs{7, 0, 1}));  // R5, then the addend R2-R3
  EXPECT_EQ(srcs(w[2]), (Regs{8, 9}));
}

// The tracer writes widths of at most 16 bytes; a larger one is refused
// before it costs anything (65,536 bytes per lane took 0.1 s a line).
TEST(ReadersAccelSim, MemoryWidthAbove16BytesIsAnError) {
  try {
    (void)accelsim_code({"0000 ffffffff 1 R1 LDS 1 R2 32 1 0x0 32 0"});
    FAIL() << "no error";
  } catch (const ToolError& e) {
    EXPECT_NE(std::string(e.what()).find("k.traceg:5:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("memory width"), std::string::npos) << e.what();
  }
}

// NVBit traces every block of the grid: fewer blocks than the header's
// grid says some are missing (a bound over the blocks shown may miss the
// worst), however large the grid; every block there, nothing is said.
TEST(ReadersAccelSim, FewerBlocksThanTheGridMakeTheTraceIncomplete) {
  const auto trace = [](const std::string& grid, int blocks) {
    std::string text = "-kernel name = k\n-grid dim = " + grid + "\n-block dim = (32,1,1)\n";
    for (int b = 0; b < blocks; ++b) {
      text += "#BEGIN_TB\nthread block = " + std::to_string(b) +
              ",0,0\nwarp = 0\ninsts = 1\n0000 ffffffff 0 EXIT 0 0\n#END_TB\n";
    }
    return read_trace_text("k.traceg", text, TraceFormat::accelsim, orin()).incomplete;
  };
  EXPECT_EQ(trace("(3,1,1)", 2),
            "the trace shows 2 of the blocks of its grid (3,1,1): the kernel's worst block may be one "
            "it leaves out");
  EXPECT_EQ(trace("(3,1,1)", 3), "");
  // A section that names no block may be a named one again.
  const std::string unnamed =
      "-kernel name = k\n-grid dim = (2,1,1)\n-block dim = (32,1,1)\n"
      "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0000 ffffffff 0 EXIT 0 0\n#END_TB\n"
      "#BEGIN_TB\nwarp = 0\ninsts = 1\n0000 ffffffff 0 EXIT 0 0\n#END_TB\n";
  EXPECT_EQ(read_trace_text("k.traceg", unnamed, TraceFormat::accelsim, orin()).incomplete,
            "the trace shows 1 of the blocks of its grid (2,1,1) and sections that name no block: the "
            "kernel's worst block may be one it leaves out");
  EXPECT_EQ(trace("(2,2,1)", 2), "the trace shows 2 of the blocks of its grid (2,2,1): the kernel's "
                                 "worst block may be one it leaves out");
  // 2^64 blocks and more: the count does not wrap (2^22 * 2^21 * 2^21 is 0
  // modulo 2^64, which would call one block every block).
  EXPECT_NE(trace("(4194304,2097152,2097152)", 1), "");
  EXPECT_NE(trace("(4294967295,4294967295,4294967295)", 1), "");
}

// Blanks between the words of 'thread block' read as the tracer's one
// space, as in the other lines; other words stay an error on that line.
TEST(ReadersAccelSim, ThreadBlockLineTakesAnyBlanks) {
  const auto label = [](const std::string& line) {
    const std::string text = "-kernel name = k\n#BEGIN_TB\n" + line +
                             "\nwarp = 0\ninsts = 1\n0000 ffffffff 0 EXIT 0 0\n#END_TB\n";
    return read_trace_text("k.traceg", text, TraceFormat::accelsim, orin()).blocks.at(0).label;
  };
  EXPECT_EQ(label("thread block = 1,0,0"), "block 1,0,0");
  EXPECT_EQ(label("thread  block = 1,0,0"), "block 1,0,0");
  EXPECT_EQ(label("thread\tblock\t= 1,0,0"), "block 1,0,0");
  EXPECT_THROW(label("thread blocks = 1,0,0"), ToolError);
  try {
    (void)label("thread\tblok = 1,0,0");
    ADD_FAILURE() << "no error";
  } catch (const ToolError& e) {
    EXPECT_NE(std::string(e.what()).find("k.traceg:3: expected 'thread block = x,y,z'"), std::string::npos)
        << e.what();
  }
}

TEST(ReadersNative, ExampleTrace) {
  const HardwareConfig c = orin();
  const TraceFile t =
      read_trace(kSource + "/examples/traces/two-warps.trace", TraceFormat::automatic, c);
  EXPECT_EQ(t.format, TraceFormat::native);
  EXPECT_EQ(t.kernel, "saxpy_tile");
  ASSERT_EQ(t.blocks.size(), 1u);
  EXPECT_EQ(t.blocks[0].label, "block 0,0,0");
  ASSERT_EQ(t.blocks[0].warps.size(), 2u);
  const auto& w0 = t.blocks[0].warps[0].code;
  ASSERT_EQ(w0.size(), 7u);
  // r1=0 r0=1 r2=2 r3=3 r9=4 r4=5
  EXPECT_EQ(w0[0].kind, OpKind::load);
  EXPECT_EQ(dsts(w0[0]), Regs{0});
  EXPECT_EQ(srcs(w0[0]), Regs{1});
  EXPECT_EQ(w0[2].unit, unit(c, "fp_mad"));
  EXPECT_EQ(srcs(w0[2]), (Regs{0, 2, 4}));
  EXPECT_EQ(w0[3].kind, OpKind::store);
  EXPECT_EQ(dsts(w0[3]), Regs{});
  EXPECT_EQ(w0[4].kind, OpKind::barrier);
  EXPECT_EQ(srcs(w0[5]), Regs{3});
  EXPECT_EQ(w0[6].kind, OpKind::exit);
  const auto& w1 = t.blocks[0].warps[1].code;
  ASSERT_EQ(w1.size(), 6u);  // exit appended
  EXPECT_EQ(w1[1].unit, unit(c, "fp_mad"));
  EXPECT_EQ(w1[3].kind, OpKind::barrier);
  EXPECT_EQ(w1[4].unit, unit(c, "alu"));
}

TEST(ReadersHardware, NativeExampleEqualsThePreset) {
  const HardwareConfig file = load_hardware_file(kSource + "/examples/hardware/orin-sm.toml", {});
  const HardwareConfig preset = hardware_preset("orin-sm", 200);
  EXPECT_EQ(file.memory_latency, 200u);
  gpuwcet::testing::expect_same_hardware(file, preset, false);
  EXPECT_EQ(load_hardware_file(kSource + "/examples/hardware/orin-sm.toml", 7).hw.units[17].latency,
            7u);
}

TEST(ReadersHardware, PresetHasTheAluUnitOnTheIntPipe) {
  const HardwareConfig c = orin();
  EXPECT_EQ(c.hw.unit_count, 22u);
  const int alu = find_unit(c.hw, "alu");
  ASSERT_GE(alu, 0);
  EXPECT_EQ(c.hw.units[static_cast<std::size_t>(alu)].initiation, 1u);
  EXPECT_EQ(c.hw.units[static_cast<std::size_t>(alu)].latency, 1u);
  EXPECT_EQ(unit_resource(c.hw, static_cast<std::size_t>(alu)),
            unit_resource(c.hw, static_cast<std::size_t>(find_unit(c.hw, "int_add"))));
  EXPECT_EQ(validate(c.hw), Status::ok);
}

// The appended alu unit shares int_add's resource, so it takes int_add's
// queued dispatch (units of one resource must agree on it).
TEST(ReadersHardware, AluTakesTheQueuedDispatchOfIntAdd) {
  const std::string hw =
      "[[unit]]\nname = \"int_add\"\ninitiation = 1\nlatency = 4\nqueued_dispatch = true\n"
      "[[unit]]\nname = \"mem\"\ninitiation = 1\nlatency = \"memory\"\n";
  const HardwareConfig c = parse_hardware_text("hw.toml", hw, {});
  const std::size_t alu = unit(c, "alu");
  EXPECT_EQ(unit_resource(c.hw, alu), unit_resource(c.hw, unit(c, "int_add")));
  EXPECT_NE(c.hw.units[alu].flags & kUnitQueuedDispatch, 0u);
  EXPECT_EQ(validate(c.hw), Status::ok);
}

TEST(ReadersHardware, RulesOverrideTheBuiltInClassification) {
  const std::string hw =
      "memory_latency = 10\n"
      "[[unit]]\nname = \"fma\"\ninitiation = 1\nlatency = 5\n"
      "[[unit]]\nname = \"lsu\"\ninitiation = 2\nlatency = \"memory\"\n"
      "[[unit]]\nname = \"branch\"\ninitiation = 1\nlatency = 1\n"
      "[opcodes]\n"
      "FFMA = \"fma\"\n"
      "\"FFMA.FTZ\" = \"lsu\"\n"
      "LDG = { unit = \"lsu\", kind = \"load\" }\n"
      "BAR = \"barrier\"\n";
  const HardwareConfig c = parse_hardware_text("hw.toml", hw, {});
  EXPECT_EQ(c.memory_latency, 10u);
  // No [pipeline] table: the paper's model.
  EXPECT_EQ(c.hw.issue_interval, 1u);
  EXPECT_EQ(c.hw.result_delay, 0u);
  EXPECT_FALSE(c.hw.latency_from_issue);
  EXPECT_EQ(c.hw.units[1].latency, 10u);
  ASSERT_EQ(c.hw.unit_count, 4u);  // + alu
  const std::string text =
      "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 4\n"
      "0000 ffffffff 1 R1 FFMA 2 R2 R3 0 0\n"
      "0010 ffffffff 1 R1 FFMA.FTZ.RZ 2 R2 R3 0 0\n"  // longest rule wins
      "0020 ffffffff 1 R4 LDG.E 1 R2 4 1 0x10 4 0\n"
      "0030 ffffffff 0 BAR.SYNC 0 0 0\n"
      "#END_TB\n";
  const TraceFile t = read_trace_text("k.traceg", text, TraceFormat::accelsim, c);
  const auto& w = t.blocks[0].warps[0].code;
  EXPECT_EQ(w[0].unit, 0u);
  EXPECT_EQ(w[1].unit, 1u);
  EXPECT_EQ(w[2].unit, 1u);
  EXPECT_EQ(w[2].kind, OpKind::load);
  EXPECT_EQ(w[3].kind, OpKind::barrier);
}

TEST(ReadersFormat, ParseTraceFormat) {
  EXPECT_EQ(parse_trace_format("auto"), TraceFormat::automatic);
  EXPECT_EQ(parse_trace_format("ptx"), TraceFormat::ptx);
  EXPECT_EQ(parse_trace_format("accelsim"), TraceFormat::accelsim);
  EXPECT_EQ(parse_trace_format("native"), TraceFormat::native);
  EXPECT_THROW(parse_trace_format("sass"), ToolError);
  EXPECT_THROW(hardware_preset("h100", 1), ToolError);
}

// The readers' word splitting (character loops, WordCursor::next) against
// std::string_view's find_first_of / find_first_not_of, an independent
// implementation, on random texts of separators and letters.
TEST(ReadersFormat, WordsSplitLikeTheStandardLibrary) {
  std::mt19937_64 rng(11);
  const std::string_view sets[] = {" \t\r", " \t\r,", " \t", ","};
  const char alphabet[] = {' ', '\t', '\r', ',', 'a', 'r', '1', '%', '\0'};
  for (int n = 0; n < 20000; ++n) {
    std::string text(rng() % 12, ' ');
    for (char& c : text) c = alphabet[rng() % sizeof alphabet];
    const std::string_view t = text;
    const std::string_view set = sets[rng() % 4];
    std::vector<std::string_view> expected;
    for (std::size_t pos = 0;;) {
      const std::size_t start = t.find_first_not_of(set, pos);
      if (start == std::string_view::npos) break;
      const std::size_t end = std::min(t.find_first_of(set, start), t.size());
      expected.push_back(t.substr(start, end - start));
      pos = end;
    }
    std::vector<std::string_view> words;
    std::string_view w;
    for (detail::WordCursor c(t, set); c.next(w);) words.push_back(w);
    ASSERT_EQ(words, expected) << "text '" << text << "'";
    const std::size_t from = rng() % (t.size() + 2);
    ASSERT_EQ(detail::find_one_of(t, set, from), t.find_first_of(set, from)) << "text '" << text << "'";
  }
}

// A UTF-8 byte-order mark before the first line changes neither the format
// detected nor what is read.
TEST(ReadersFormat, ByteOrderMarkIsSkipped) {
  const std::string bom = "\xEF\xBB\xBF";
  const HardwareConfig c = orin();
  const std::pair<std::string, TraceFormat> traces[] = {
      {"-kernel name = k\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
       "0000 ffffffff 1 R1 FFMA 2 R2 R3 0 0\n#END_TB\n",
       TraceFormat::accelsim},
      {"warp 0 : PC=0x0 (k.ptx:1) add.s32 %r1, %r2, 1;\n", TraceFormat::ptx},
      {"kernel k\nwarp 0\nfp_add r1 , r2\n", TraceFormat::native},
  };
  for (const auto& [text, format] : traces) {
    const TraceFile plain = read_trace_text("t", text, TraceFormat::automatic, c);
    const TraceFile marked = read_trace_text("t", bom + text, TraceFormat::automatic, c);
    EXPECT_EQ(marked.format, format);
    EXPECT_EQ(marked.kernel, plain.kernel);
    ASSERT_EQ(marked.blocks.size(), 1u);
    EXPECT_EQ(marked.blocks[0].warps[0].code.size(), plain.blocks[0].warps[0].code.size());
  }
  const std::string config = "-ptx_opcode_latency_int 9,9,9,9,9\n";
  const HardwareConfig marked = parse_hardware_text("gpgpusim.config", bom + config, {});
  EXPECT_EQ(marked.hw.units[unit(marked, "int_add")].latency, 9u);
}

// A configuration issuing more than one instruction per cycle, with more
// than one unit of a kind or wider pipeline stages, is read with a note
// naming the line and is not the modelled machine; the data set's gives
// none.
TEST(ReadersHardware, GpgpusimIssueWidthsBeyondOneAreNoted) {
  const std::string config =
      "-ptx_opcode_latency_int 4,4,4,4,21\n"
      "-gpgpu_num_sched_per_core 1 # as in the data set\n"
      "-gpgpu_num_sp_units 4\n"
      "-gpgpu_num_sfu_units 1\n";
  const HardwareConfig c = parse_hardware_text("gpgpusim.config", config, {});
  ASSERT_EQ(c.notes.size(), 1u);
  EXPECT_NE(c.notes[0].find("gpgpusim.config:3: -gpgpu_num_sp_units 4"), std::string::npos) << c.notes[0];
  EXPECT_FALSE(c.modelled);
  const HardwareConfig wide = parse_hardware_text(
      "gpgpusim.config", "-ptx_opcode_latency_int 4,4,4,4,21\n-gpgpu_pipeline_widths 2,1,1,1,1,1,1,1,1,1,2,1,1\n", {});
  ASSERT_EQ(wide.notes.size(), 1u);
  EXPECT_NE(wide.notes[0].find("gpgpusim.config:2: -gpgpu_pipeline_widths"), std::string::npos) << wide.notes[0];
  EXPECT_FALSE(wide.modelled);
  const HardwareConfig same = parse_hardware_text(
      "gpgpusim.config", "-ptx_opcode_latency_int 4,4,4,4,21\n-gpgpu_num_sched_per_core 1\n"
      "-gpgpu_pipeline_widths 1, 1,1,1,1,1,1,1,1,1,2,1,1\n", {});
  EXPECT_TRUE(same.notes.empty());
  EXPECT_TRUE(same.modelled);
}

TEST(ReadersClassification, BarriersThatDoNotWait) {
  const HardwareConfig c = orin();
  const TraceFile p = read_trace_text(
      "k.trace",
      "warp 0: PC=0x0 (k.ptx:1) bar.arrive 1, 64;\n"
      "warp 0: PC=0x8 (k.ptx:2) bar.warp.sync -1;\n"
      "warp 0: PC=0x10 (k.ptx:3) barrier.sync 0;\n",
      TraceFormat::automatic, c);  // "warp 0:" without a blank is still PTX
  const auto& w = p.blocks[0].warps[0].code;
  ASSERT_EQ(w.size(), 4u);
  EXPECT_EQ(w[0].unit, unit(c, "alu"));
  EXPECT_EQ(w[1].unit, unit(c, "alu"));
  EXPECT_EQ(w[2].kind, OpKind::barrier);
  const TraceFile a = read_trace_text(
      "k.traceg",
      "#BEGIN_TB\nwarp = 0\ninsts = 2\n0000 ffffffff 0 BAR.ARV 0 0 0\n"
      "0010 ffffffff 0 BAR.SYNC.DEFER_BLOCKING 0 0 0\n#END_TB\n",
      TraceFormat::automatic, c);
  EXPECT_EQ(a.blocks[0].warps[0].code[0].kind, OpKind::compute);
  EXPECT_EQ(a.blocks[0].warps[0].code[1].kind, OpKind::barrier);
}
