// The multi-phase analysis of traced thread blocks, as the CLI and the
// examples run it: each warp profiled alone (Algorithm 1), then the block
// bounded from the per-warp section summaries (block_bound.hpp), in total and
// per barrier section.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "gpuwcet/block_bound.hpp"
#include "gpuwcet/phase_profile.hpp"
#include "gpuwcet_tools/trace_input.hpp"

namespace gpuwcet::tools {

struct WarpAnalysis {
  std::uint32_t warp_id = 0;
  ProfileResult result;  // result.total_cycles: where its phases end, every barrier drained
  std::vector<Phase> phases;  // empty unless kept (analyse_warp)
  std::vector<SectionSummary> sections;
  // The warp's time alone on the machine: the bound of a block of this warp
  // only (warp_alone_cycles; equal to result.total_cycles when barriers
  // drain, less when the warp passes them with results pending).
  std::uint64_t alone_cycles = 0;
};

struct BlockAnalysis {
  std::size_t block_index = 0;  // in the trace file
  std::string label;
  std::vector<WarpAnalysis> warps;
  BlockBound bound;                     // whole block
  std::vector<BlockBound> section_bounds;  // per barrier section
  // Whether bound.lower_bound (the longest warp alone) is a lower bound on
  // every schedule. With collector units a warp's time alone bounds every
  // service order of its queued units, so it is not (docs/multiphase.md,
  // "Operand collectors").
  bool lower_bound_holds = true;
};

// Profiles one warp alone; its phases are kept with `keep_phases`, else
// only counted (result.phase_count). Throws ToolError when the core rejects
// it.
WarpAnalysis analyse_warp(const HardwareDescription& hw, const WarpTrace& warp,
                          std::size_t register_count, bool barriers_drain = true,
                          bool keep_phases = true);

// Profiles every warp of the block and bounds it. A block of one warp has
// one schedule: its bounds are then the warp's time alone
// (warp_alone_cycles; with `barriers_drain` false the warp passes barriers
// with results pending, as on GPGPU-Sim), exact without collector units, and
// cap each section's bound. Throws ToolError when the block is
// empty or its warps execute different numbers of barriers.
BlockAnalysis analyse_block(const HardwareDescription& hw, const TraceFile& trace,
                            std::size_t block_index, bool barriers_drain = true,
                            bool keep_phases = true);

// Which block of a trace: `worst` (the one with the largest safe bound) or
// one block.
struct BlockChoice {
  bool worst = true;
  std::size_t index = 0;
};
// "worst", a block's label without its "block " prefix (the coordinates of
// an Accel-Sim `thread block = x,y,z`, "0,1,0", spaces allowed, or a native
// trace's `block <label>` text), or an index: "#N", or digits that no
// block's label is. Throws ToolError naming what the trace offers.
BlockChoice parse_block_choice(const std::string& text, const std::vector<BlockTrace>& blocks);

// The analysed block the choice names (`worst` analyses all of them, and
// keeps the phases of the worst one only).
BlockAnalysis analyse_chosen_block(const HardwareDescription& hw, const TraceFile& trace,
                                   const BlockChoice& choice, bool barriers_drain = true,
                                   bool keep_phases = true);

// The worst block chosen while a trace is read, as a
// TraceReadOptions::on_block: bounds each block as it comes, keeps the
// instructions of the one with the largest safe bound so far (the first of
// equals, as analyse_chosen_block) and drops every other's.
class WorstBlockWhileReading {
 public:
  WorstBlockWhileReading(const HardwareDescription& hw, bool barriers_drain)
      : hw_(hw), barriers_drain_(barriers_drain) {}
  bool operator()(TraceFile& trace, std::size_t index);
  // The worst block so far; unset before any block was read.
  const std::optional<std::size_t>& index() const { return index_; }

 private:
  const HardwareDescription& hw_;
  bool barriers_drain_;
  std::optional<std::size_t> index_;
  std::uint64_t bound_ = 0;
};

}  // namespace gpuwcet::tools
