// Split warps in PTX traces (lane_values.hpp, docs/trace-formats.md "Split
// warps"): a write that only some lanes make, lanes that a branch on the
// thread index leaves out, and the PTX reader passing source locations. The
// expected costs are worked out by hand in the comments (32-byte sectors,
// 32 banks of 4-byte words, one block of 32 threads).
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpuwcet/hardware_presets.hpp"
#include "gpuwcet_tools/lane_values.hpp"
#include "gpuwcet_tools/trace_input.hpp"

using namespace gpuwcet;
using namespace gpuwcet::tools;

namespace {

const BlockShape kWarp{32, 1, 1};

// Feeds instructions the way a GPGPU-Sim PTX trace places them: 8 bytes per
// instruction, one source line each. skip(n) leaves n source lines (a blank
// line, a label) before the next one; jump(pc) continues elsewhere.
struct Feeder {
  LaneValueAnalysis a{kWarp};
  std::uint64_t pc = 0x100, line = 10;
  AccessCost step(std::string_view op, std::string_view guard, std::vector<std::string_view> ops) {
    const AccessCost c = a.step(op, guard, ops, TraceLocation{pc, "k.ptx", line, {}});
    pc += 8;
    line += 1;
    return c;
  }
  void skip(std::uint64_t lines) { line += lines; }
  void jump(std::uint64_t to_pc, std::uint64_t to_line) {
    pc = to_pc;
    line = to_line;
  }
};

// if (tid < 16) p = 0; else p = 128 * tid;  then every lane loads at p.
// Lanes 16-31 touch 16 sectors and lanes 0-15 one more: 17 at least. Before
// split warps were followed, the last write won and the load cost 1.
TEST(LaneDivergence, IfElseWritesMakeTheMergedValueVary) {
  Feeder f;
  f.step("mov.u32", "", {"%r1", "%tid.x"});
  f.step("setp.lt.u32", "", {"%p1", "%r1", "16"});
  f.step("bra", "@%p1", {"ELSE"});           // lanes 0-15 take it
  f.skip(1);                                  // the blank line of the fall-through block
  f.step("mul.lo.u32", "", {"%r2", "%r1", "128"});  // lanes 16-31
  f.step("bra.uni", "", {"END"});
  f.jump(0x200, 40);                          // ELSE: the other lanes' path
  f.step("mov.u32", "", {"%r2", "0"});        // lanes 0-15
  EXPECT_EQ(f.a.operand("%r2"), LaneValue::constant(0));  // in the lanes running
  f.skip(2);                                  // END: label, all lanes again
  EXPECT_GE(f.step("ld.global.u32", "", {"%r3", "[%r2]"}).passes, 17u);
  EXPECT_TRUE(f.a.operand("%r2").varying);
}

// if (tid > 0) skip; the fall-through runs lane 0 alone. A shared load at
// 64 * tid puts 32 lanes in two banks, 16 passes; lane 0 alone makes one.
TEST(LaneDivergence, FallThroughOfAThreadIndexTestCostsItsLanesOnly) {
  Feeder f;
  f.step("mov.u32", "", {"%r1", "%tid.x"});
  f.step("shl.b32", "", {"%r2", "%r1", "6"});
  EXPECT_EQ(f.step("ld.shared.u32", "", {"%r9", "[%r2]"}).passes, 16u);
  f.step("setp.gt.s32", "", {"%p1", "%r1", "0"});
  f.step("bra", "@%p1", {"SKIP"});
  f.skip(1);
  EXPECT_EQ(f.step("ld.shared.u32", "", {"%r3", "[%r2]"}).passes, 1u);
  EXPECT_EQ(f.step("st.shared.u32", "", {"[%r2+4]", "%r3"}).passes, 1u);
  // A label may follow: lanes parked there may join, so every lane counts.
  f.skip(2);
  EXPECT_EQ(f.step("ld.shared.u32", "", {"%r4", "[%r2]"}).passes, 16u);
}

// `and.pred` of a predicate with itself, back and forth, once copied both
// sources' comparisons: the list doubled on every line, and 60 lines needed
// 2^60 entries. Each comparison is now kept once, so the chain stays the
// single `tid > 0` and the fall-through still runs lane 0 alone (1 pass, as
// above).
TEST(LaneDivergence, SelfAndChainKeepsEachComparisonOnce) {
  Feeder f;
  f.step("mov.u32", "", {"%r1", "%tid.x"});
  f.step("shl.b32", "", {"%r2", "%r1", "6"});
  f.step("setp.gt.s32", "", {"%p1", "%r1", "0"});
  for (int i = 0; i < 30; ++i) {
    f.step("and.pred", "", {"%p2", "%p1", "%p1"});
    f.step("and.pred", "", {"%p1", "%p2", "%p2"});
  }
  f.step("bra", "@%p1", {"SKIP"});
  f.skip(1);
  EXPECT_EQ(f.step("ld.shared.u32", "", {"%r3", "[%r2]"}).passes, 1u);

  // tid > 0 AND tid > -1 AND ... AND tid > -extra (each term holds in every
  // lane), built alternately in %p2 and %p1: lane 0 alone falls through
  // while the AND is known (1 pass); past kMaxPredicateTerms terms it is
  // not, and every lane counts (16 passes).
  const auto passes_with = [](int extra) {
    Feeder g;
    g.step("mov.u32", "", {"%r1", "%tid.x"});
    g.step("shl.b32", "", {"%r2", "%r1", "6"});
    g.step("setp.gt.s32", "", {"%p1", "%r1", "0"});
    std::vector<std::string> bounds;
    for (int i = 1; i <= extra; ++i) bounds.push_back(std::to_string(-i));
    std::string guard = "@%p1";
    for (const std::string& b : bounds) {
      const bool to_p2 = guard == "@%p1";
      g.step("setp.gt.s32", "", {"%p3", "%r1", b});
      g.step("and.pred", "", {to_p2 ? "%p2" : "%p1", to_p2 ? "%p1" : "%p2", "%p3"});
      guard = to_p2 ? "@%p2" : "@%p1";
    }
    g.step("bra", guard, {"SKIP"});
    g.skip(1);
    return g.step("ld.shared.u32", "", {"%r3", "[%r2]"}).passes;
  };
  const int terms = static_cast<int>(LaneValueAnalysis::kMaxPredicateTerms);
  EXPECT_EQ(passes_with(terms - 1), 1u);  // tid > 0 and 15 more: 16 terms
  EXPECT_EQ(passes_with(terms), 16u);     // 17 terms
}

// A comparison under a guard that differs between lanes leaves the other
// lanes' predicate as it was: the branch on it has no known fall-through,
// and the access after it counts every lane (16 passes).
TEST(LaneDivergence, GuardedComparisonIsNotKnownPerThread) {
  Feeder f;
  f.step("mov.u32", "", {"%r1", "%tid.x"});
  f.step("shl.b32", "", {"%r2", "%r1", "6"});
  f.step("setp.lt.s32", "", {"%p9", "%r1", "7"});
  f.step("setp.gt.s32", "@%p9", {"%p1", "%r1", "0"});
  f.step("bra", "@%p1", {"SKIP"});
  f.skip(1);
  EXPECT_EQ(f.step("ld.shared.u32", "", {"%r3", "[%r2]"}).passes, 16u);
}

// r3 = tid; if (tid == 0) r3 = 0;  lane 0 writes 0, which is its tid: r3
// stays tid in every lane, and a load at 4 * r3 costs 5 sectors (128 bytes
// at the worst alignment), neither 1 (r3 = 0) nor 32 (varying).
TEST(LaneDivergence, PartialWriteKeepsAnAffineMix) {
  Feeder f;
  f.step("mov.u32", "", {"%r1", "%tid.x"});
  f.step("mov.u32", "", {"%r3", "%r1"});
  f.step("setp.ne.s32", "", {"%p1", "%r1", "0"});
  f.step("bra", "@%p1", {"L"});
  f.skip(1);
  f.step("mov.u32", "", {"%r3", "0"});
  f.skip(2);
  f.step("shl.b32", "", {"%r4", "%r3", "2"});
  EXPECT_EQ(f.a.operand("%r3"), LaneValue::thread_index(0));
  EXPECT_EQ(f.step("ld.global.u32", "", {"%r5", "[%r4]"}).passes, 5u);
}

// if (tid == 0 && n > 0) for (i = 0; i < 4; ++i) load x[i]: the lanes that
// run the loop all run every write of i, which stays the same in all of
// them: one sector per load.
TEST(LaneDivergence, LoopInsideASplitKeepsItsCounter) {
  Feeder f;
  f.step("mov.u32", "", {"%r1", "%tid.x"});
  f.step("ld.param.u32", "", {"%r9", "[k_param_0]"});
  f.step("setp.eq.s32", "", {"%p1", "%r1", "0"});
  f.step("setp.gt.s32", "", {"%p2", "%r9", "0"});
  f.step("and.pred", "", {"%p3", "%p1", "%p2"});
  f.step("bra", "@!%p3", {"END"});
  f.skip(1);
  f.step("mov.u32", "", {"%r5", "0"});
  f.skip(2);  // LOOP: a label, entered by falling through
  const std::uint64_t loop_pc = f.pc, loop_line = f.line;
  for (int i = 0; i < 4; ++i) {
    if (i > 0) f.jump(loop_pc, loop_line);  // the back edge, taken
    f.step("shl.b32", "", {"%r6", "%r5", "2"});
    EXPECT_EQ(f.step("ld.global.u32", "", {"%r7", "[%r6]"}).passes, 1u) << i;
    f.step("add.s32", "", {"%r5", "%r5", "1"});
    f.step("setp.lt.s32", "", {"%p4", "%r5", "4"});
    f.step("bra", "@%p4", {"LOOP"});
  }
  EXPECT_TRUE(f.a.operand("%r5").is_uniform());
}

// A branch on loaded data may split the warp anyhow: a constant changed
// under it holds in the lanes that made the change until lanes may join (a
// label), and no longer after. A block barrier does not make the warp whole
// again.
TEST(LaneDivergence, UnknownSplitsAndBarriers) {
  Feeder f;
  f.step("mov.u32", "", {"%r1", "%tid.x"});
  f.step("shl.b32", "", {"%r10", "%r1", "2"});
  f.step("mov.u32", "", {"%r2", "4"});
  f.step("ld.global.u32", "", {"%r9", "[%r10]"});  // one value per lane
  f.step("setp.eq.s32", "", {"%p1", "%r9", "0"});
  f.step("bra", "@%p1", {"L"});
  f.skip(1);
  f.step("mov.u32", "", {"%r2", "8"});
  EXPECT_EQ(f.a.operand("%r2"), LaneValue::constant(8));
  f.skip(2);
  f.step("bar.sync", "", {"0"});
  EXPECT_TRUE(f.a.operand("%r2").varying);
  f.step("mov.u32", "", {"%r2", "12"});
  EXPECT_EQ(f.a.operand("%r2"), LaneValue::constant(12));
  f.skip(2);
  f.step("mov.u32", "", {"%r3", "0"});
  EXPECT_TRUE(f.a.operand("%r2").varying);
}

// nvcc compiles lud_diagonal's `if (tx > i) {...} __syncthreads();` with
// the barrier inside the branch: lane 0 skips it and waits at the join, and
// GPGPU-Sim lets the warp pass the barrier with lanes 1-31. Here lane 0
// alone passes a barrier, then writes 4096 over its 128 * tid; after the
// join the 32 lanes load at sectors 128 (lane 0) and 4 * tid (the others):
// 32 sectors. When a barrier made the warp whole, the write covered every
// lane and the load cost 1.
TEST(LaneDivergence, BarrierInsideASplitDoesNotJoinIt) {
  Feeder f;
  f.step("mov.u32", "", {"%r1", "%tid.x"});
  f.step("shl.b32", "", {"%r2", "%r1", "7"});
  f.step("setp.gt.s32", "", {"%p1", "%r1", "0"});
  f.step("bra", "@%p1", {"SKIP"});
  f.skip(1);
  f.step("bar.sync", "", {"0"});
  f.step("mov.u32", "", {"%r2", "4096"});
  f.skip(2);  // SKIP: lanes 1-31 join
  EXPECT_GE(f.step("ld.global.u32", "", {"%r3", "[%r2]"}).passes, 32u);
}

// for (k = 0; k < 32; ++k) { if (tid == k) p = 64 * k; __syncthreads(); }
// then every lane loads at p. p has one writer, but each lane ran it in
// another iteration: p = 64 * tid, 32 sectors. When a barrier made the warp
// whole (keeping k known) and a register with one writer kept that write's
// value, p read as the constant 64 * 31 and the load cost 1.
TEST(LaneDivergence, LoopCarriedWriteUnderASplitVaries) {
  Feeder f;
  f.step("mov.u32", "", {"%r1", "%tid.x"});
  f.step("mov.u32", "", {"%r5", "0"});
  f.skip(2);  // LOOP
  const std::uint64_t loop_pc = f.pc, loop_line = f.line;
  for (int k = 0; k < 32; ++k) {
    if (k > 0) f.jump(loop_pc, loop_line);  // the back edge, taken
    f.step("setp.eq.s32", "", {"%p1", "%r1", "%r5"});
    f.step("bra", "@!%p1", {"NEXT"});
    f.skip(1);
    f.step("shl.b32", "", {"%r2", "%r5", "6"});  // lane k alone
    f.skip(2);                                   // NEXT: the others join
    f.step("bar.sync", "", {"0"});
    f.step("add.s32", "", {"%r5", "%r5", "1"});
    f.step("setp.lt.s32", "", {"%p4", "%r5", "32"});
    f.step("bra", "@%p4", {"LOOP"});
  }
  f.skip(1);
  EXPECT_GE(f.step("ld.global.u32", "", {"%r3", "[%r2]"}).passes, 32u);
}

// nvcc recomputes loop invariants inside loops: `r2 = 4 * n` (n a
// parameter) made again by some lanes only is the same value, so after the
// join every lane still holds it, and 4 bytes at r2 + 4 * tid cost 5
// sectors (128 bytes at the worst alignment). `8 * n` made by some lanes is
// another value: the lanes differ, 32 sectors.
TEST(LaneDivergence, RecomputedInvariantStaysTheSameAcrossASplit) {
  for (const char* shift : {"2", "3"}) {
    Feeder f;
    f.step("mov.u32", "", {"%r1", "%tid.x"});
    f.step("ld.param.u32", "", {"%r9", "[k_param_0]"});
    f.step("shl.b32", "", {"%r2", "%r9", "2"});
    f.step("shl.b32", "", {"%r10", "%r1", "2"});
    f.step("ld.global.u32", "", {"%r8", "[%r10]"});  // one value per lane
    f.step("setp.eq.s32", "", {"%p1", "%r8", "0"});
    f.step("bra", "@%p1", {"L"});
    f.skip(1);
    f.step("shl.b32", "", {"%r2", "%r9", shift});  // the lanes that fall through
    f.skip(2);                                      // L: the others join
    f.step("add.s32", "", {"%r3", "%r2", "%r10"});
    const std::uint32_t passes = f.step("ld.global.u32", "", {"%r4", "[%r3]"}).passes;
    EXPECT_EQ(passes, std::string(shift) == "2" ? 5u : 32u) << shift;
  }
}

// A loop whose exit differs between lanes: the lanes that leave wait after
// the back edge, the loop's join point, which no label marks, and all of
// them run what follows. Here lane 31 leaves after iteration 1, lanes 0-30
// after iteration 2 (the fall-through mask then is {31}); the shared load
// at 128 * tid after the loop runs in 32 lanes, one bank: 32 passes.
TEST(LaneDivergence, LoopExitJoinsTheLanesThatLeftEarlier) {
  Feeder f;
  f.step("mov.u32", "", {"%r1", "%tid.x"});
  f.step("shl.b32", "", {"%r2", "%r1", "7"});
  f.step("mov.u32", "", {"%r5", "0"});
  f.skip(2);  // LOOP
  const std::uint64_t loop_pc = f.pc, loop_line = f.line;
  for (int i = 0; i < 2; ++i) {
    if (i > 0) f.jump(loop_pc, loop_line);
    f.step("mul.lo.s32", "", {"%r6", "%r5", "31"});
    f.step("add.s32", "", {"%r7", "%r1", "%r6"});  // tid + 31 i
    f.step("neg.s32", "", {"%r8", "%r5"});
    f.step("add.s32", "", {"%r8", "%r8", "31"});   // 31 - i
    f.step("setp.ge.s32", "", {"%p1", "%r7", "31"});
    f.step("setp.le.s32", "", {"%p2", "%r1", "%r8"});
    f.step("and.pred", "", {"%p3", "%p1", "%p2"});  // i = 0: {31}; i = 1: {0..30}
    f.step("add.s32", "", {"%r5", "%r5", "1"});
    f.step("bra", "@%p3", {"LOOP"});
  }
  f.skip(1);  // the blank line of the exit block
  EXPECT_EQ(f.step("ld.shared.u32", "", {"%r9", "[%r2]"}).passes, 32u);
}

// if (tid < 16) {...} else {...} where the first path ends with a branch the
// same in all its lanes, taken to the join point: the stack switches to the
// other path there. Lanes 16-31 write 128 * tid, lanes 0-15 then write 0:
// 17 sectors after the join (the switch must count as lanes parting, or the
// second write seems to reach every lane).
TEST(LaneDivergence, ConditionalJumpToTheJoinSwitchesPaths) {
  Feeder f;
  f.step("mov.u32", "", {"%r1", "%tid.x"});
  f.step("ld.param.u32", "", {"%r9", "[k_param_0]"});
  f.step("setp.eq.s32", "", {"%p2", "%r9", "0"});  // true when the kernel ran
  f.step("setp.lt.s32", "", {"%p1", "%r1", "16"});
  f.step("bra", "@%p1", {"ELSE"});
  f.skip(1);
  f.step("shl.b32", "", {"%r2", "%r1", "7"});  // lanes 16-31
  f.step("bra", "@%p2", {"END"});              // taken: END is the join point
  f.jump(0x400, 60);                           // ELSE, lanes 0-15
  f.step("mov.u32", "", {"%r2", "0"});
  f.skip(2);  // END
  EXPECT_GE(f.step("ld.global.u32", "", {"%r3", "[%r2]"}).passes, 17u);
}

// The PTX reader passes each line's address and source location: the
// fall-through of `@%p1 bra` (lane 0 alone) costs no bank conflict.
TEST(LaneDivergence, PtxReaderFollowsSplitWarps) {
  const std::string trace =
      "warp 0 :  PC=0x100 (k.ptx:10) mov.u32 %r1, %tid.x;\n"
      "warp 0 :  PC=0x108 (k.ptx:11) shl.b32 %r2, %r1, 6;\n"
      "warp 0 :  PC=0x110 (k.ptx:12) setp.gt.s32%p1, %r1, 0;\n"
      "warp 0 :  PC=0x118 (k.ptx:13) @%p1 bra BB0_2;\n"
      "warp 0 :  PC=0x120 (k.ptx:15) ld.shared.u32 %r3, [%r2];\n"
      "warp 0 :  PC=0x128 (k.ptx:18) ld.shared.u32 %r4, [%r2];\n"
      "warp 0 :  PC=0x130 (k.ptx:19) ret;\n";
  const HardwareConfig hw = hardware_preset("orin-sm", 200);
  TraceReadOptions o;
  o.block_shape = kWarp;
  const TraceFile t = read_trace_text("split.trace", trace, TraceFormat::ptx, hw, o);
  const auto& code = t.blocks.at(0).warps.at(0).code;
  ASSERT_EQ(code.size(), 7u);
  EXPECT_EQ(code[4].extra_cycles, 0);   // lane 0 alone: one pass
  EXPECT_EQ(code[5].extra_cycles, 15);  // after a possible label: 16 passes
}

}  // namespace
