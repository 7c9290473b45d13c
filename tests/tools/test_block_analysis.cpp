// What analyse_block reports besides the bound: section bounds consistent
// with the block's, and a lower bound only where one holds.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "gpuwcet_tools/tool_error.hpp"

#include "gpuwcet_tools/block_analysis.hpp"
#include "gpuwcet_tools/block_simulator.hpp"
#include "gpuwcet_tools/trace_input.hpp"
#include "test_seed.hpp"

namespace {

using gpuwcet::tools::analyse_block;
using gpuwcet::tools::BlockAnalysis;
using gpuwcet::tools::hardware_preset;
using gpuwcet::tools::read_trace_text;
using gpuwcet::tools::TraceFormat;

// One warp, loads of several transactions around a barrier: with the
// presets' collector units the warp's section lengths carry its own queued
// holds once more (for blocks of several warps), so the first one's is
// above the one-warp block's bound, which adds only a short second section.
constexpr const char* kOneWarp =
    "warp 0\n"
    "load+31 r1 , r0\n"
    "load+31 r2 , r0\n"
    "fp_add r3 , r1 r2\n"
    "barrier\n"
    "fp_add r4 , r3 r3\n"
    "exit\n";

std::vector<std::vector<gpuwcet::Instruction>> codes(const gpuwcet::tools::TraceFile& t) {
  std::vector<std::vector<gpuwcet::Instruction>> w;
  for (const auto& warp : t.blocks[0].warps) w.push_back(warp.code);
  return w;
}

TEST(BlockAnalysis, OneWarpSectionBoundsNeverExceedTheBlockBound) {
  for (const std::string preset : {"orin-sm", "rtx3070"}) {
    const auto hw = hardware_preset(preset, 200);
    const auto t = read_trace_text("one.trace", kOneWarp, TraceFormat::native, hw);
    for (const bool drain : {true, false}) {
      const BlockAnalysis a = analyse_block(hw.hw, t, 0, drain);
      ASSERT_EQ(a.section_bounds.size(), 2u);
      for (const auto& s : a.section_bounds) {
        EXPECT_LE(s.safe_upper_bound, a.bound.safe_upper_bound) << preset;
        EXPECT_LE(s.general_upper_bound, a.bound.safe_upper_bound) << preset;
        EXPECT_LE(s.lower_bound, s.safe_upper_bound) << preset;
      }
      // Still safe: the simulator's one schedule is within the block bound.
      gpuwcet::tools::BlockSimulationOptions so;
      so.barriers_drain = drain;
      so.record_trace = false;
      EXPECT_LE(gpuwcet::tools::simulate_block(hw.hw, codes(t), t.register_count, so).cycles,
                a.bound.safe_upper_bound)
          << preset;
    }
  }
}

// With collector units a warp's time alone bounds every service order of
// its loads, so it bounds nothing from below: here the simulator's
// round-robin pick takes fewer cycles than the longest warp alone.
TEST(BlockAnalysis, NoLowerBoundWithCollectorUnits) {
  auto hw = hardware_preset("orin-sm", 200);
  const auto t = read_trace_text("one.trace", kOneWarp, TraceFormat::native, hw);
  ASSERT_NE(hw.hw.collector_units, 0u);
  const BlockAnalysis with_units = analyse_block(hw.hw, t, 0, true);
  EXPECT_FALSE(with_units.lower_bound_holds);

  hw.hw.collector_units = 0;
  const BlockAnalysis without = analyse_block(hw.hw, t, 0, true);
  EXPECT_TRUE(without.lower_bound_holds);
  gpuwcet::tools::BlockSimulationOptions so;
  so.record_trace = false;
  EXPECT_EQ(gpuwcet::tools::simulate_block(hw.hw, codes(t), t.register_count, so).cycles,
            without.bound.lower_bound);
}

// A warp's time alone is the bound of a block of that warp alone: passing
// barriers with results pending (the presets), it is below where its
// drained-barrier phases end; with draining barriers the two agree.
TEST(BlockAnalysis, TimeAloneIsTheOneWarpBlockBound) {
  const auto hw = hardware_preset("orin-sm", 200);
  const auto t = read_trace_text("one.trace", kOneWarp, TraceFormat::native, hw);
  const BlockAnalysis passing = analyse_block(hw.hw, t, 0, false);
  EXPECT_EQ(passing.warps[0].alone_cycles, passing.bound.safe_upper_bound);
  EXPECT_LT(passing.warps[0].alone_cycles, passing.warps[0].result.total_cycles);
  const BlockAnalysis draining = analyse_block(hw.hw, t, 0, true);
  EXPECT_EQ(draining.warps[0].alone_cycles, draining.warps[0].result.total_cycles);
  EXPECT_EQ(draining.warps[0].alone_cycles, draining.bound.safe_upper_bound);
}

// Warps that disagree on the barriers are named at the line where the
// trace starts the offending one.
TEST(BlockAnalysis, BarrierMismatchNamesTheWarpsLine) {
  const auto hw = hardware_preset("orin-sm", 200);
  const auto t = read_trace_text("two.trace", "warp 0\nbarrier\nexit\nwarp 1\nfp_add r1 , r2\nexit\n",
                                 TraceFormat::native, hw);
  try {
    (void)analyse_block(hw.hw, t, 0, true);
    FAIL() << "no error";
  } catch (const gpuwcet::tools::ToolError& e) {
    EXPECT_NE(std::string(e.what()).find("two.trace:5: "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("warp 1 passes 0 barriers but warp 0 passes 1"),
              std::string::npos)
        << e.what();
  }
}

// --block takes an index, 'worst' or a block's label; Accel-Sim coordinates
// match whatever their spacing, those left out are 0; digits are a block's
// label when one has it (native traces), else an index, and '#N' is always
// one.
TEST(BlockAnalysis, BlockChosenByIndexLabelOrWorst) {
  using gpuwcet::tools::parse_block_choice;
  const auto hw = hardware_preset("orin-sm", 200);
  const std::string tb = "warp = 0\ninsts = 1\n0000 ffffffff 1 R1 MOV 1 R2 0 0\n#END_TB\n";
  const auto a = read_trace_text("a.traceg",
                                 "#BEGIN_TB\nthread block = 0,0,0\n" + tb +
                                     "#BEGIN_TB\nthread block = 1, 2,0\n" + tb,
                                 TraceFormat::accelsim, hw);
  ASSERT_EQ(a.blocks.size(), 2u);
  EXPECT_EQ(a.blocks[1].label, "block 1,2,0");
  EXPECT_TRUE(parse_block_choice("worst", a.blocks).worst);
  EXPECT_TRUE(parse_block_choice("", a.blocks).worst);
  EXPECT_EQ(parse_block_choice("1", a.blocks).index, 1u);
  EXPECT_FALSE(parse_block_choice("1,2,0", a.blocks).worst);
  EXPECT_EQ(parse_block_choice("1,2,0", a.blocks).index, 1u);
  EXPECT_EQ(parse_block_choice(" 1 ,2, 0", a.blocks).index, 1u);
  EXPECT_EQ(parse_block_choice("0,0,0", a.blocks).index, 0u);
  EXPECT_EQ(parse_block_choice("1,2", a.blocks).index, 1u);  // z left out: 0
  EXPECT_EQ(parse_block_choice("0,0", a.blocks).index, 0u);
  const auto n = read_trace_text("n.trace", "block tile-a\nwarp 0\nexit\nblock tile-b\nwarp 0\nexit\n",
                                 TraceFormat::native, hw);
  EXPECT_EQ(parse_block_choice("tile-b", n.blocks).index, 1u);
  const auto numbered = read_trace_text("d.trace", "block 5\nwarp 0\nexit\nblock 0\nwarp 0\nexit\n",
                                        TraceFormat::native, hw);
  EXPECT_EQ(parse_block_choice("5", numbered.blocks).index, 0u);  // the block labelled 5
  EXPECT_EQ(parse_block_choice("0", numbered.blocks).index, 1u);  // the block labelled 0
  EXPECT_EQ(parse_block_choice("#0", numbered.blocks).index, 0u);
  EXPECT_EQ(parse_block_choice("#1", numbered.blocks).index, 1u);
  EXPECT_EQ(parse_block_choice("#1", a.blocks).index, 1u);
  // Digits are coordinates as the readers compare labels: "1" is "1,0,0".
  const auto swapped = read_trace_text("s.traceg",
                                       "#BEGIN_TB\nthread block = 1,0,0\n" + tb +
                                           "#BEGIN_TB\nthread block = 0,0,0\n" + tb,
                                       TraceFormat::accelsim, hw);
  EXPECT_EQ(parse_block_choice("1", swapped.blocks).index, 0u);
  EXPECT_EQ(parse_block_choice("0", swapped.blocks).index, 1u);
  EXPECT_EQ(parse_block_choice("#0", swapped.blocks).index, 0u);
  // An unlabelled native block takes its index as its label: one that
  // another block's label already is, is refused, so that what the tools
  // report as a block's label picks that block.
  try {
    (void)read_trace_text("u.trace", "block 1\nwarp 0\nexit\nblock\nwarp 0\nexit\n",
                          TraceFormat::native, hw);
    ADD_FAILURE() << "no error for an unlabelled block labelled as another";
  } catch (const gpuwcet::tools::ToolError& e) {
    EXPECT_NE(std::string(e.what()).find("u.trace:4: block label '1' given twice (first at line 1): "
                                         "this unlabelled block takes its index as its label"),
              std::string::npos)
        << e.what();
  }
  const auto implicit = read_trace_text("i.trace", "warp 0\nexit\nblock 1\nwarp 0\nexit\n",
                                        TraceFormat::native, hw);
  EXPECT_EQ(parse_block_choice("1", implicit.blocks).index, 1u);
  const auto expect_error = [](const std::string& text, const auto& blocks, const std::string& words) {
    try {
      (void)parse_block_choice(text, blocks);
      ADD_FAILURE() << "no error for " << text;
    } catch (const gpuwcet::tools::ToolError& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  expect_error("2", a.blocks, "block 2 does not exist: the trace has 2 blocks (0..1)");
  expect_error("1,2,1", a.blocks, "block '1,2,1': no block has that label; expected a block index "
                                  "(0..1, or #N), a block's label ('0,0,0', '1,2,0') or 'worst'");
  expect_error("#2", a.blocks, "block #2 does not exist: the trace has 2 blocks (0..1)");
  expect_error("#", a.blocks, "block '#': no block has that label");
  expect_error("tile-c", n.blocks, "('tile-a', 'tile-b')");
}

}  // namespace

namespace {

// The worst block, chosen among one or several, with its phases kept or only
// counted: the same bounds, the same phase counts, the phases only when kept
// (and then those of analyse_block).
TEST(BlockAnalysis, WorstBlockKeepsPhasesOnlyWhenAsked) {
  using gpuwcet::tools::analyse_chosen_block;
  using gpuwcet::tools::BlockChoice;
  const auto hw = hardware_preset("orin-sm", 200);
  const std::string two = std::string("block a\n") + kOneWarp + "block b\nwarp 0\nfp_add r1 , r0\nexit\n";
  for (const std::string& text : {std::string(kOneWarp), two}) {
    const auto t = read_trace_text("w.trace", text, TraceFormat::native, hw);
    const BlockAnalysis direct = analyse_block(hw.hw, t, 0);
    ASSERT_FALSE(direct.warps[0].phases.empty());
    const BlockAnalysis kept = analyse_chosen_block(hw.hw, t, BlockChoice{}, true, true);
    const BlockAnalysis counted = analyse_chosen_block(hw.hw, t, BlockChoice{}, true, false);
    EXPECT_EQ(kept.block_index, 0u);
    EXPECT_EQ(counted.block_index, 0u);
    EXPECT_EQ(kept.bound.safe_upper_bound, direct.bound.safe_upper_bound);
    EXPECT_EQ(counted.bound.safe_upper_bound, direct.bound.safe_upper_bound);
    ASSERT_EQ(kept.warps[0].phases.size(), direct.warps[0].phases.size());
    for (std::size_t i = 0; i < kept.warps[0].phases.size(); ++i) {
      EXPECT_EQ(kept.warps[0].phases[i].start, direct.warps[0].phases[i].start);
      EXPECT_EQ(kept.warps[0].phases[i].length, direct.warps[0].phases[i].length);
    }
    EXPECT_TRUE(counted.warps[0].phases.empty());
    EXPECT_EQ(counted.warps[0].result.phase_count, direct.warps[0].phases.size());
    // Sections sized by the barriers, not by the instructions.
    EXPECT_EQ(counted.warps[0].sections.size(), 2u);
  }
}

}  // namespace

namespace {

// Blocks handed over as they are read (TraceReadOptions::on_block), in
// order, each with a register count that covers it; a block whose warps
// are dropped keeps its label, and is no longer analysed. The worst block
// chosen while reading (WorstBlockWhileReading, as the commands choose it)
// is the block analyse_chosen_block picks from the whole trace, with the
// same bound, on native traces of 1-12 random blocks.
TEST(BlockAnalysis, WorstBlockChosenWhileReadingIsTheWorstBlock) {
  using gpuwcet::tools::analyse_chosen_block;
  using gpuwcet::tools::BlockChoice;
  using gpuwcet::tools::TraceFile;
  using gpuwcet::tools::TraceReadOptions;
  const auto hw = hardware_preset("orin-sm", 200);
  std::mt19937_64 rng(::gpuwcet::testing::test_seed(31));
  const char* const ops[] = {"fp_add", "int_add", "load", "load.shared", "store", "sfu"};
  for (int n = 0; n < 40; ++n) {
    // A native trace of 1-12 blocks of 1-3 warps.
    std::string text;
    const std::size_t blocks = 1 + rng() % 12;
    for (std::size_t b = 0; b < blocks; ++b) {
      text += "block " + std::to_string(b) + "\n";
      const std::size_t warps = 1 + rng() % 3;
      for (std::size_t w = 0; w < warps; ++w) {
        text += "warp " + std::to_string(w) + "\n";
        const std::size_t length = 1 + rng() % 20;
        for (std::size_t i = 0; i < length; ++i) {
          const std::string op = ops[rng() % 6];
          const std::string dst = op == "store" ? "" : "r" + std::to_string(rng() % 8);
          text += op + (rng() % 4 == 0 && op.rfind("load", 0) == 0 ? "+7" : "") + " " + dst +
                  " , r" + std::to_string(rng() % 8) + "\n";
        }
      }
    }
    const TraceFile whole = read_trace_text("w.trace", text, TraceFormat::native, hw);
    const BlockAnalysis expected = analyse_chosen_block(hw.hw, whole, BlockChoice{}, true, false);
    std::size_t next = 0;
    gpuwcet::tools::WorstBlockWhileReading choose(hw.hw, true);
    TraceReadOptions ro;
    ro.on_block = [&](TraceFile& t, std::size_t i) {
      EXPECT_EQ(i, next++);
      EXPECT_EQ(t.blocks.size(), i + 1);
      return choose(t, i);
    };
    const TraceFile streamed = read_trace_text("w.trace", text, TraceFormat::native, hw, ro);
    EXPECT_EQ(next, blocks);
    EXPECT_EQ(streamed.register_count, whole.register_count);
    ASSERT_EQ(streamed.blocks.size(), blocks);
    ASSERT_TRUE(choose.index().has_value());
    const std::size_t worst = *choose.index();
    EXPECT_EQ(worst, expected.block_index) << n;
    const std::uint64_t worst_bound = analyse_block(hw.hw, streamed, worst, true, false).bound.safe_upper_bound;
    EXPECT_EQ(worst_bound, expected.bound.safe_upper_bound) << n;
    for (std::size_t b = 0; b < blocks; ++b) {
      EXPECT_EQ(streamed.blocks[b].label, whole.blocks[b].label);
      EXPECT_EQ(streamed.blocks[b].dropped, b != worst);
      if (b == worst) {
        EXPECT_EQ(analyse_block(hw.hw, streamed, b).bound.safe_upper_bound, worst_bound);
      } else {
        EXPECT_TRUE(streamed.blocks[b].warps.empty());
        EXPECT_THROW((void)analyse_block(hw.hw, streamed, b), gpuwcet::tools::ToolError);
      }
    }
  }
}

}  // namespace
