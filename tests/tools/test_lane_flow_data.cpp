// Following the PTX file's control flow through splits it cannot evaluate
// per thread (lane_values.hpp): a branch or exit on loaded data keeps every
// stack it may have left until the trace rules them out, guarded exits on
// the thread index leave exactly their lanes, and a branch that splits one
// warp of the block but not another is followed for each. Expected costs
// are counted by hand from the addresses (128-byte strides: one sector per
// lane).
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpuwcet_tools/lane_values.hpp"
#include "gpuwcet_tools/ptx_control_flow.hpp"
#include "gpuwcet_tools/tool_error.hpp"
#include "ptx_kernel_text.hpp"

using namespace gpuwcet::tools;
using namespace gpuwcet::tools::test_ptx;

namespace {

// if (data) r3 = 0; else ...;  load [r3]: the lanes of the else path keep
// r3 = tid * 128, those of the then path hold 0.
const std::string kDataIfElse = kernel(
    "mov.u32 %r1, %tid.x;\n"
    "mul.lo.s32 %r3, %r1, 128;\n"
    "ld.global.u32 %r5, [%r3];\n"
    "setp.eq.s32 %p1, %r5, 0;\n"
    "@%p1 bra ELSE;\n"
    "\n"
    "mov.u32 %r3, 0;\n"
    "bra.uni JOIN;\n"
    "\n"
    "ELSE:\n"
    "add.s32 %r6, %r1, 1;\n"
    "\n"
    "JOIN:\n"
    "ld.global.u32 %r7, [%r3];\n"
    "ret;\n");

const std::vector<const char*> kDataIfElseHead = {
    "mov.u32 %r1, %tid.x;", "mul.lo.s32 %r3, %r1, 128;", "ld.global.u32 %r5, [%r3];",
    "setp.eq.s32 %p1, %r5, 0;", "@%p1 bra ELSE;"};

std::vector<const char*> with(std::vector<const char*> head, std::initializer_list<const char*> more) {
  head.insert(head.end(), more);
  return head;
}

constexpr BlockShape kWarp{32, 1, 1};

TEST(LaneFlowData, WritesOnOnePathOfADataSplitReachOnlyItsLanes) {
  const PtxControlFlow flow = PtxControlFlow::parse("k.ptx", kDataIfElse);
  const FlowWalk walk(kDataIfElse, flow, kWarp,
                      with(kDataIfElseHead, {"mov.u32 %r3, 0;", "bra.uni JOIN;", "add.s32 %r6, %r1, 1;"}));
  // Both paths ran: up to one sector per lane.
  EXPECT_EQ(walk("ld.global.u32 %r7, [%r3];").passes, 32u);
  EXPECT_TRUE(walk.left().empty()) << walk.left();
}

TEST(LaneFlowData, TheTraceTellsWhetherADataBranchSplit) {
  const PtxControlFlow flow = PtxControlFlow::parse("k.ptx", kDataIfElse);
  // Straight from the then path to JOIN: no lane waited at ELSE, so every
  // lane fell through; the analysis goes on (its registers as if split).
  const FlowWalk then_only(kDataIfElse, flow, kWarp,
                           with(kDataIfElseHead, {"mov.u32 %r3, 0;", "bra.uni JOIN;",
                                                  "ld.global.u32 %r7, [%r3];", "ret;"}));
  EXPECT_TRUE(then_only.left().empty()) << then_only.left();
  // Straight to ELSE and on to JOIN: every lane took the branch, and r3 was
  // never rewritten: tid * 128 in every lane.
  const FlowWalk else_only(kDataIfElse, flow, kWarp, with(kDataIfElseHead, {"add.s32 %r6, %r1, 1;"}));
  EXPECT_EQ(else_only("ld.global.u32 %r7, [%r3];").passes, 32u);
  EXPECT_TRUE(else_only.left().empty()) << else_only.left();
  // The then path, then JOIN's load, then the else path: no stack allows it.
  const FlowWalk wrong(kDataIfElse, flow, kWarp,
                       with(kDataIfElseHead, {"mov.u32 %r3, 0;", "bra.uni JOIN;", "ld.global.u32 %r7, [%r3];"}));
  EXPECT_THROW(wrong("add.s32 %r6, %r1, 1;"), ToolError);
}

// Lanes leave on data; of those left, the ones with tid < 16 skip the load.
const std::string kDataExit = kernel(
    "mov.u32 %r1, %tid.x;\n"
    "mul.lo.s32 %r3, %r1, 128;\n"
    "ld.global.u32 %r5, [%r3];\n"
    "setp.eq.s32 %p1, %r5, 0;\n"
    "@%p1 exit;\n"
    "\n"
    "setp.lt.s32 %p2, %r1, 16;\n"
    "@%p2 bra SKIP;\n"
    "\n"
    "ld.global.u32 %r6, [%r3];\n"
    "\n"
    "SKIP:\n"
    "ret;\n");

TEST(LaneFlowData, LanesLeavingOnDataLeaveTheOthersUnknown) {
  const PtxControlFlow flow = PtxControlFlow::parse("k.ptx", kDataExit);
  const std::vector<const char*> head = {"mov.u32 %r1, %tid.x;", "mul.lo.s32 %r3, %r1, 128;",
                                         "ld.global.u32 %r5, [%r3];", "setp.eq.s32 %p1, %r5, 0;",
                                         "@%p1 exit;", "setp.lt.s32 %p2, %r1, 16;", "@%p2 bra SKIP;"};
  // Every lane left is below 16 (the others left on the data): all take
  // the branch, which an analysis taking the warp for whole would reject.
  const FlowWalk all_take(kDataExit, flow, kWarp, head);
  EXPECT_NO_THROW(all_take("ret;"));
  EXPECT_TRUE(all_take.left().empty()) << all_take.left();
  // Some fall through: at most the 16 lanes of tid >= 16 load.
  const FlowWalk some_fall(kDataExit, flow, kWarp, head);
  EXPECT_EQ(some_fall("ld.global.u32 %r6, [%r3];").passes, 16u);
  EXPECT_TRUE(some_fall.left().empty()) << some_fall.left();
}

TEST(LaneFlowData, LanesLeavingOnTheThreadIndexAreKnown) {
  const std::string text = kernel(
      "mov.u32 %r1, %tid.x;\n"
      "mul.lo.s32 %r3, %r1, 128;\n"
      "setp.ge.s32 %p1, %r1, 8;\n"
      "@%p1 exit;\n"
      "\n"
      "ld.global.u32 %r6, [%r3];\n"
      "ret;\n");
  const PtxControlFlow flow = PtxControlFlow::parse("k.ptx", text);
  const FlowWalk walk(text, flow, kWarp,
                      {"mov.u32 %r1, %tid.x;", "mul.lo.s32 %r3, %r1, 128;", "setp.ge.s32 %p1, %r1, 8;",
                       "@%p1 exit;"});
  // Lanes 0 to 7 are left.
  EXPECT_EQ(walk("ld.global.u32 %r6, [%r3];").passes, 8u);
  EXPECT_TRUE(walk.left().empty()) << walk.left();
}

// Blocks of 64 threads: tid < 40 takes the first branch, so warp 0 takes it
// whole and warp 1 splits (lanes 40 to 63 fall through); tid < 48 takes the
// second, which warp 0 takes whole again.
const std::string kTwoWarps = kernel(
    "mov.u32 %r1, %tid.x;\n"
    "mul.lo.s32 %r3, %r1, 128;\n"
    "setp.lt.s32 %p1, %r1, 40;\n"
    "@%p1 bra SKIP;\n"
    "\n"
    "ld.global.u32 %r6, [%r3];\n"
    "\n"
    "SKIP:\n"
    "ld.global.u32 %r7, [%r3];\n"
    "setp.lt.s32 %p2, %r1, 48;\n"
    "@%p2 bra END;\n"
    "\n"
    "ld.global.u32 %r8, [%r3];\n"
    "\n"
    "END:\n"
    "ret;\n");

TEST(LaneFlowData, ABranchThatSplitsOneWarpOfTheBlockIsFollowedForEach) {
  const PtxControlFlow flow = PtxControlFlow::parse("k.ptx", kTwoWarps);
  const std::vector<const char*> head = {"mov.u32 %r1, %tid.x;", "mul.lo.s32 %r3, %r1, 128;",
                                         "setp.lt.s32 %p1, %r1, 40;", "@%p1 bra SKIP;"};
  const BlockShape block{64, 1, 1};
  // Falls through: warp 1, split.
  const FlowWalk split(kTwoWarps, flow, block, head);
  EXPECT_EQ(split("ld.global.u32 %r6, [%r3];").passes, 24u);
  EXPECT_EQ(split("ld.global.u32 %r7, [%r3];").passes, 32u);  // joined again: the whole warp
  split("setp.lt.s32 %p2, %r1, 48;");
  split("@%p2 bra END;");
  EXPECT_EQ(split("ld.global.u32 %r8, [%r3];").passes, 16u);  // lanes 48 to 63
  EXPECT_TRUE(split.left().empty()) << split.left();
  // Straight to SKIP: warp 0, whole, which takes the second branch too.
  const FlowWalk whole(kTwoWarps, flow, block, head);
  EXPECT_EQ(whole("ld.global.u32 %r7, [%r3];").passes, 32u);
  whole("setp.lt.s32 %p2, %r1, 48;");
  whole("@%p2 bra END;");
  EXPECT_THROW(whole("ld.global.u32 %r8, [%r3];"), ToolError);
}

}  // namespace

namespace {

// Blocks of 64 threads, `@!%p3 bra` with %p3 = (tid < 40) and a float
// comparison of a parameter, the same in every lane but unknown: the lanes
// that fall through are at most those of tid < 40. When the comparison
// holds, every lane of warp 0 falls through, which only warp 0 can do
// (warp 1's lanes 40 to 63 must take the branch).
TEST(LaneFlowData, EveryLaneOfOneWarpMayGoAWayOnlyItsLanesCanAllGo) {
  const std::string text = kernel(
      "mov.u32 %r1, %tid.x;\n"
      "mul.lo.s32 %r3, %r1, 128;\n"
      "ld.param.f32 %f1, [k_param_0];\n"
      "setp.lt.s32 %p1, %r1, 40;\n"
      "setp.eq.f32 %p2, %f1, 0f00000000;\n"
      "and.pred %p3, %p1, %p2;\n"
      "@!%p3 bra ELSE;\n"
      "\n"
      "ld.global.u32 %r6, [%r3];\n"
      "bra.uni JOIN;\n"
      "\n"
      "ELSE:\n"
      "ld.global.u32 %r7, [%r3];\n"
      "\n"
      "JOIN:\n"
      "ret;\n");
  const PtxControlFlow flow = PtxControlFlow::parse("k.ptx", text);
  const FlowWalk walk(text, flow, BlockShape{64, 1, 1},
                      {"mov.u32 %r1, %tid.x;", "mul.lo.s32 %r3, %r1, 128;", "ld.param.f32 %f1, [k_param_0];",
                       "setp.lt.s32 %p1, %r1, 40;", "setp.eq.f32 %p2, %f1, 0f00000000;",
                       "and.pred %p3, %p1, %p2;", "@!%p3 bra ELSE;"});
  EXPECT_EQ(walk("ld.global.u32 %r6, [%r3];").passes, 32u);
  walk("bra.uni JOIN;");
  EXPECT_NO_THROW(walk("ret;"));  // no lane waited at ELSE: warp 0, whole
  EXPECT_TRUE(walk.left().empty()) << walk.left();
}

}  // namespace
