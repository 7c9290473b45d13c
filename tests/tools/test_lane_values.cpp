// Lane-address analysis and memory-access costs (lane_values.hpp), and how the
// readers turn them into extra cycles and tell taken branches. Expected
// counts are worked out by hand in the comments (32-byte sectors, 32 banks of
// 4-byte words).
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpuwcet/hardware_presets.hpp"
#include "gpuwcet_tools/lane_values.hpp"
#include "gpuwcet_tools/trace_input.hpp"

using namespace gpuwcet;
using namespace gpuwcet::tools;

namespace {

LaneValue affine_x(std::int64_t stride) {
  LaneValue v = LaneValue::uniform();
  v.tid[0] = LaneValue::Term{true, stride};
  return v;
}

std::uint32_t global(const LaneValue& a, std::uint32_t bytes, BlockShape s) {
  return cost_of_access(MemorySpace::global, a, bytes, s).passes;
}
std::uint32_t shared(const LaneValue& a, std::uint32_t bytes, BlockShape s) {
  return cost_of_access(MemorySpace::shared, a, bytes, s).passes;
}

const BlockShape k1d{256, 1, 1};

TEST(LaneValues, FollowsTheThreadIndexThroughArithmetic) {
  LaneValueAnalysis a(k1d);
  a.step("ld.param.u64", "", {"%rd0", "[k_param_0]"});
  a.step("mov.u32", "", {"%r1", "%tid.x"});
  a.step("mov.u32", "", {"%r2", "%ctaid.x"});
  a.step("mad.lo.s32", "", {"%r3", "%r2", "%r4", "%r1"});  // %r4 never written: unknown
  a.step("shl.b32", "", {"%r5", "%r1", "3"});
  a.step("mul.wide.s32", "", {"%rd1", "%r1", "4"});
  a.step("add.s64", "", {"%rd2", "%rd0", "%rd1"});
  EXPECT_TRUE(a.operand("%rd0").is_uniform());
  EXPECT_TRUE(a.operand("%r3").varying);  // unknown times uniform plus tid
  EXPECT_EQ(a.operand("%r5").tid[0].value, 8);  // 0 + 8 tid.x
  EXPECT_TRUE(a.operand("%r5").base_known);
  EXPECT_EQ(a.operand("%rd2").tid[0].value, 4);
  EXPECT_FALSE(a.operand("%rd2").base_known);
  EXPECT_EQ(a.operand("%ntid.x"), LaneValue::constant(256));
  // A uniform factor of unknown value keeps the value affine, with an
  // unknown multiplier.
  a.step("ld.param.u32", "", {"%r6", "[k_param_1]"});
  a.step("mul.lo.s32", "", {"%r7", "%r1", "%r6"});
  EXPECT_FALSE(a.operand("%r7").varying);
  EXPECT_FALSE(a.operand("%r7").tid[0].known);
  // tid times tid is not affine.
  a.step("mul.lo.s32", "", {"%r8", "%r1", "%r1"});
  EXPECT_TRUE(a.operand("%r8").varying);
}

TEST(LaneValues, LoadsGuardsAndDivisionsMakeValuesVary) {
  LaneValueAnalysis a(k1d);
  a.step("ld.param.u64", "", {"%rd0", "[k_param_0]"});
  a.step("mov.u32", "", {"%r1", "%tid.x"});
  a.step("ld.global.u32", "", {"%r2", "[%rd0]"});  // one address: the same value everywhere
  EXPECT_TRUE(a.operand("%r2").is_uniform());
  a.step("cvta.to.global.u64", "", {"%rd1", "%rd0"});
  a.step("mul.wide.u32", "", {"%rd2", "%r1", "4"});
  a.step("add.s64", "", {"%rd3", "%rd1", "%rd2"});
  a.step("ld.global.u32", "", {"%r3", "[%rd3]"});  // one address per lane: data
  EXPECT_TRUE(a.operand("%r3").varying);
  a.step("div.s32", "", {"%r4", "%r1", "2"});
  EXPECT_TRUE(a.operand("%r4").varying);
  a.step("div.s32", "", {"%r5", "%r2", "2"});  // uniform in, uniform out
  EXPECT_TRUE(a.operand("%r5").is_uniform());
  // A guard that differs between lanes leaves some lanes with the old value:
  // two values, one an outlier of the other.
  a.step("mov.u32", "", {"%r6", "5"});
  a.step("setp.lt.s32", "", {"%p1", "%r1", "4"});
  a.step("mov.u32", "@%p1", {"%r6", "7"});
  EXPECT_FALSE(a.operand("%r6").is_uniform());
  EXPECT_EQ(a.operand("%r6").outliers, 1);
  // Affine and affine under such a guard: varying.
  a.step("add.s32", "@%p1", {"%r1", "%r1", "%r1"});
  EXPECT_TRUE(a.operand("%r1").varying);
  // A uniform guard writes all lanes or none: still uniform.
  a.step("setp.lt.s32", "", {"%p2", "%r2", "4"});
  a.step("mov.u32", "@!%p2", {"%r2", "9"});
  EXPECT_TRUE(a.operand("%r2").is_uniform());
}

// pathfinder's `W = max(tx - 1, validXmin)` and `E = selp(tx + 1, validXmax,
// tx < validXmax)`: each lane holds the affine value or the bound, the same
// in every lane that holds it. A shared word at 4 * W: 32 consecutive words
// in 32 banks, one pass, and the bound's word may share a bank with one of
// them: 2 passes at most (32, one per lane, before outliers were followed).
// Global, 4 bytes at 4 * E: 5 sectors (128 bytes at the worst alignment)
// plus the bound's sector, 6. Adding a lane-dependent value loses it.
TEST(LaneValues, ClampedIndexHasOneOutlier) {
  LaneValueAnalysis a(BlockShape{32, 1, 1});
  a.step("ld.param.u32", "", {"%r9", "[k_param_0]"});
  a.step("mov.u32", "", {"%r1", "%tid.x"});
  a.step("add.s32", "", {"%r2", "%r1", "-1"});
  a.step("max.s32", "", {"%r3", "%r9", "%r2"});
  a.step("shl.b32", "", {"%r4", "%r3", "2"});
  a.step("mov.u32", "", {"%r5", "k_shared"});
  a.step("add.s32", "", {"%r6", "%r5", "%r4"});
  EXPECT_EQ(a.operand("%r6").outliers, 1);
  EXPECT_EQ(a.step("ld.shared.u32", "", {"%r7", "[%r6]"}).passes, 2u);
  a.step("add.s32", "", {"%r10", "%r1", "1"});
  a.step("setp.lt.s32", "", {"%p1", "%r1", "%r9"});
  a.step("selp.b32", "", {"%r11", "%r10", "%r9", "%p1"});
  a.step("mul.wide.s32", "", {"%rd1", "%r11", "4"});
  a.step("ld.param.u64", "", {"%rd2", "[k_param_1]"});
  a.step("add.s64", "", {"%rd3", "%rd2", "%rd1"});
  EXPECT_EQ(a.step("ld.global.u32", "", {"%r12", "[%rd3]"}).passes, 6u);
  a.step("add.s32", "", {"%r13", "%r3", "%r1"});
  EXPECT_TRUE(a.operand("%r13").varying);
  // Both bounds: two outliers.
  a.step("min.s32", "", {"%r14", "%r3", "%r9"});
  EXPECT_EQ(a.operand("%r14").outliers, 2);
}

// Values that are not the same in every lane although their address or
// operands are: local memory is each thread's own (and GPGPU-Sim
// interleaves its words between threads), a parameter array indexed by the
// thread, a device function's parameter (written per lane by st.param),
// vote / activemask results that depend on the lanes running, and
// bar.red's result (written: it is not a plain barrier). A load at 128 times
// any of them costs 32 sectors.
TEST(LaneValues, PerThreadDataIsNotUniform) {
  const BlockShape warp{32, 1, 1};
  auto load_at_128_times = [&](LaneValueAnalysis& a, const char* reg) {
    a.step("shl.b32", "", {"%r90", reg, "7"});
    return a.step("ld.global.u32", "", {"%r91", "[%r90]"}).passes;
  };
  {
    LaneValueAnalysis a(warp);
    a.step("mov.u32", "", {"%r1", "%tid.x"});
    a.step("st.local.u32", "", {"[__local_depot0]", "%r1"});
    // One local word per lane at the worst: 32 sectors.
    EXPECT_EQ(a.step("ld.local.u32", "", {"%r2", "[__local_depot0]"}).passes, 32u);
    EXPECT_EQ(load_at_128_times(a, "%r2"), 32u);
    a.step("cvta.local.u64", "", {"%rd1", "__local_depot0"});
    EXPECT_TRUE(a.operand("%rd1").varying);
  }
  {
    LaneValueAnalysis a(warp);
    a.step("mov.u32", "", {"%r1", "%tid.x"});
    a.step("mov.u64", "", {"%rd1", "k_param_0"});
    a.step("mul.wide.u32", "", {"%rd2", "%r1", "4"});
    a.step("add.s64", "", {"%rd3", "%rd1", "%rd2"});
    a.step("ld.param.u32", "", {"%r2", "[%rd3]"});
    EXPECT_EQ(load_at_128_times(a, "%r2"), 32u);
    a.step("st.param.b32", "", {"[param0+0]", "%r1"});
    a.step("call.uni", "", {"_Z3fooi", "(param0)"});
    a.step("ld.param.u32", "", {"%r3", "[_Z3fooi_param_0]"});
    EXPECT_EQ(load_at_128_times(a, "%r3"), 32u);
  }
  for (const char* op : {"activemask.b32", "vote.sync.ballot.b32", "bar.red.popc.u32"}) {
    LaneValueAnalysis a(warp);
    a.step("mov.u32", "", {"%r5", "1"});
    const std::string name(op);
    if (name == "activemask.b32") a.step(op, "", {"%r5"});
    else a.step(op, "", {"%r5", "0", "%p1"});
    EXPECT_TRUE(a.operand("%r5").varying) << op;
  }
}

TEST(LaneValues, GlobalAccessesCountSectorsAtTheWorstAlignment) {
  // 32 lanes x 4 bytes = 128 bytes: 4 sectors if the base is 32-byte
  // aligned, 5 otherwise.
  EXPECT_EQ(global(affine_x(4), 4, k1d), 5u);
  // 32 bytes: 1 sector aligned, 2 not.
  EXPECT_EQ(global(affine_x(1), 1, k1d), 2u);
  // One address: one sector.
  EXPECT_EQ(global(LaneValue::uniform(), 16, k1d), 1u);
  // 49-byte records, one byte each: every lane on its own sector.
  EXPECT_EQ(global(affine_x(49), 1, k1d), 32u);
  // Unknown lanes: one sector each; a 16-thread block has 16 lanes.
  EXPECT_EQ(global(LaneValue::unknown(), 4, k1d), 32u);
  EXPECT_EQ(global(LaneValue::unknown(), 4, BlockShape{16, 1, 1}), 16u);
  // 16 x 16 block, row pitch unknown: a warp covers two rows of 16 lanes,
  // each 64 bytes at its own unknown alignment: 3 + 3 sectors.
  LaneValue rows = affine_x(4);
  rows.tid[1] = LaneValue::Term{false, 0};
  EXPECT_EQ(global(rows, 4, BlockShape{16, 16, 1}), 6u);
  // Unknown shape, tid.x only: at most two runs of consecutive lanes (the
  // end of a row and the start of the next), each at its own alignment. The
  // worst split: 2 lanes straddling a sector boundary (2 sectors) and 30
  // lanes, 120 bytes from 28 bytes into a sector (5 sectors).
  EXPECT_EQ(global(affine_x(4), 4, BlockShape{}), 7u);
  // Unknown shape and tid.y: nothing bounds the rows a warp spans.
  EXPECT_EQ(global(rows, 4, BlockShape{}), 32u);
}

TEST(LaneValues, SharedAccessesCountBankPasses) {
  EXPECT_EQ(shared(affine_x(4), 4, k1d), 1u);    // one word per bank
  EXPECT_EQ(shared(affine_x(8), 4, k1d), 2u);    // even banks, two words each
  EXPECT_EQ(shared(affine_x(128), 4, k1d), 32u); // all in one bank
  EXPECT_EQ(shared(LaneValue::uniform(), 4, k1d), 1u);  // broadcast
  // The anti-diagonal of a 17-word-pitch tile (nw): word stride -16, 16
  // lanes alternate between two banks: 8 passes.
  EXPECT_EQ(shared(affine_x(-64), 4, BlockShape{16, 1, 1}), 8u);
}

TEST(LaneValues, ExactCostsFromAddresses) {
  std::vector<std::uint64_t> a;
  for (std::uint64_t l = 0; l < 32; ++l) a.push_back(0x1000 + 4 * l);
  EXPECT_EQ(cost_of_addresses(MemorySpace::global, a, 4).passes, 4u);
  for (std::uint64_t& x : a) x += 4;  // no longer sector aligned
  EXPECT_EQ(cost_of_addresses(MemorySpace::global, a, 4).passes, 5u);
  EXPECT_EQ(cost_of_addresses(MemorySpace::shared, a, 4).passes, 1u);
  EXPECT_EQ(cost_of_addresses(MemorySpace::global, {0x40, 0x40}, 8).passes, 1u);
}

TEST(LaneValues, BlockShapes) {
  EXPECT_EQ(parse_block_shape("16,16")->y, 16u);
  EXPECT_EQ(parse_block_shape("512")->x, 512u);
  EXPECT_FALSE(parse_block_shape("0"));
  EXPECT_FALSE(parse_block_shape("64,32"));  // 2048 threads
  EXPECT_FALSE(parse_block_shape("1,2,3,4"));
  EXPECT_FALSE(parse_block_shape("x"));
}

TEST(LaneValues, PtxReaderCostsAccessesAndTellsTakenBranches) {
  const std::string text =
      "warp 0 : PC=0x00 (k.ptx:1) ld.param.u64 %rd0, [k_param_0];\n"
      "warp 0 : PC=0x08 (k.ptx:2) mov.u32 %r1, %tid.x;\n"
      "warp 0 : PC=0x10 (k.ptx:3) mul.wide.u32 %rd1, %r1, 49;\n"
      "warp 0 : PC=0x18 (k.ptx:4) add.s64 %rd2, %rd0, %rd1;\n"
      "warp 0 : PC=0x20 (k.ptx:5) ld.global.u8 %rs1, [%rd2];\n"
      "warp 0 : PC=0x28 (k.ptx:6) setp.eq.s16 %p1, %rs1, 32;\n"
      "warp 0 : PC=0x30 (k.ptx:7) @%p1 bra BB0_2;\n"   // falls through
      "warp 0 : PC=0x38 (k.ptx:8) @%p1 bra BB0_3;\n"   // taken: jumps over 0x40
      "warp 0 : PC=0x48 (k.ptx:9) ret;\n"
      "kernel_execution_time : 1";
  const HardwareConfig c = hardware_preset("orin-sm", 200);
  TraceReadOptions o;
  o.block_shape = BlockShape{64, 1, 1};
  const TraceFile t = read_trace_text("k.trace", text, TraceFormat::ptx, c, o);
  const auto& w = t.blocks[0].warps[0].code;
  ASSERT_EQ(w.size(), 9u);
  // 32 transactions: 31 further ones at 13 cycles per 8, rounded up.
  EXPECT_EQ(w[4].extra_cycles, (31 * kGpgpuSimCyclesPer8Transactions + 7) / 8);
  EXPECT_EQ(w[0].extra_cycles, 0);
  EXPECT_EQ(w[6].kind, OpKind::compute);
  EXPECT_EQ(w[7].kind, OpKind::branch);
  EXPECT_EQ(w[8].kind, OpKind::exit);
  EXPECT_EQ(w[8].unit, find_unit(c.hw, "alu"));  // the preset's exits issue
}

TEST(LaneValues, GenericLoadsWaitAsLongAsSharedOnes) {
  // Perfect memory (global latency 2) against 29-cycle shared memory: a
  // generic load (no state space) may reach shared memory, so it gets the
  // 27 cycles of difference on top of its uniform-address cost.
  const HardwareConfig c =
      parse_hardware_text("g.config", "-gpgpu_perfect_mem 1\n-gpgpu_smem_latency 29\n", {});
  const std::string text =
      "warp 0 : PC=0x00 (k.ptx:1) ld.param.u64 %rd0, [k_param_0];\n"
      "warp 0 : PC=0x08 (k.ptx:2) ld.u32 %r1, [%rd0];\n"
      "warp 0 : PC=0x10 (k.ptx:3) ld.global.u32 %r2, [%rd0];\n"
      "warp 0 : PC=0x18 (k.ptx:4) ret;\n";
  const TraceFile t = read_trace_text("k.trace", text, TraceFormat::ptx, c);
  const auto& w = t.blocks[0].warps[0].code;
  EXPECT_EQ(w[1].extra_cycles, 27);
  EXPECT_EQ(w[2].extra_cycles, 0);
}

TEST(LaneValues, AccelSimReaderCostsAccessesFromTheirAddresses) {
  // Mode 1 (base, stride 4) over 32 lanes: 4 aligned sectors; mode 2 (base
  // and deltas) with a 128-byte stride: 32 sectors; LDS with stride 4: one
  // pass.
  std::string lanes31;
  for (int k = 0; k < 31; ++k) lanes31 += " 128";
  const std::string text =
      "-kernel name = k\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 4\n"
      "0000 ffffffff 1 R1 LDG.E 1 R2 4 1 0x1000 4 0\n"
      "0010 ffffffff 1 R3 LDG.E 1 R2 4 2 0x2000" + lanes31 + " 0\n"
      "0020 ffffffff 1 R4 LDS 1 R2 4 1 0x100 4 0\n"
      "0030 ffffffff 0 EXIT 0 0 0\n#END_TB\n";
  const HardwareConfig c = hardware_preset("rtx3070", 200);
  const TraceFile t = read_trace_text("k.traceg", text, TraceFormat::accelsim, c);
  const auto& w = t.blocks[0].warps[0].code;
  ASSERT_EQ(w.size(), 4u);
  EXPECT_EQ(w[0].extra_cycles, (3 * kGpgpuSimCyclesPer8Transactions + 7) / 8);
  EXPECT_EQ(w[1].extra_cycles, (31 * kGpgpuSimCyclesPer8Transactions + 7) / 8);
  EXPECT_EQ(w[2].extra_cycles, 0);
}

TEST(LaneValues, NativeTracesCarryExtraCycles) {
  const HardwareConfig c = hardware_preset("orin-sm", 200);
  const std::string text = "warp 0\nload+31 r1 , r0\nbranch.fallthrough , r1\nexit\n";
  const TraceFile t = read_trace_text("n.trace", text, TraceFormat::native, c);
  const auto& w = t.blocks[0].warps[0].code;
  EXPECT_EQ(w[0].extra_cycles, 31);
  EXPECT_EQ(w[1].kind, OpKind::compute);
  EXPECT_EQ(w[1].unit, find_unit(c.hw, "branch"));
  const std::string back = write_native_trace(t, c.hw);
  EXPECT_NE(back.find("load+31 r"), std::string::npos) << back;
  EXPECT_NE(back.find("branch.fallthrough"), std::string::npos) << back;
  EXPECT_THROW(read_trace_text("n.trace", "warp 0\nload+256 r1\n", TraceFormat::native, c),
               std::exception);
}

}  // namespace
