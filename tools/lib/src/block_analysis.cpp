// Multi-phase analysis of traced blocks (block_analysis.hpp).
#include "gpuwcet_tools/block_analysis.hpp"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gpuwcet/status.hpp"
#include "gpuwcet_tools/makespan_problem.hpp"
#include "gpuwcet_tools/tool_error.hpp"
#include "gpuwcet_tools/trace_parsing.hpp"

namespace gpuwcet::tools {

WarpAnalysis analyse_warp(const HardwareDescription& hw, const WarpTrace& warp,
                          std::size_t register_count, bool barriers_drain, bool keep_phases) {
  WarpAnalysis a;
  a.warp_id = warp.warp_id;
  // Not zeroed: the analysis sets up its arena itself, and zeroing tens of
  // kilobytes per warp was a third of the instructions spent on a trace of
  // many short warps (callgrind, the data set's vectoradd).
  const std::size_t arena_bytes = profile_arena_bytes(register_count) + 1;
  const std::unique_ptr<std::byte[]> arena_storage(new std::byte[arena_bytes]);
  const gsl::span<std::byte> arena(arena_storage.get(), arena_bytes);
  // One section per barrier, and the last one. Each instruction opens at
  // most one idle and one execution phase; each barrier closes a section
  // (two more phases). Without kept phases they are only counted: a summary
  // is about 300 bytes and a phase 32, so sizing either by the instructions
  // would cost hundreds of bytes per instruction of a long trace.
  const auto barriers = static_cast<std::size_t>(
      std::count_if(warp.code.begin(), warp.code.end(),
                    [](const Instruction& i) { return i.kind == OpKind::barrier; }));
  if (keep_phases) a.phases.resize(2 * warp.code.size() + 2);
  a.sections.resize(barriers + 1);
  const Status st = profile_warp(hw, warp.code, register_count, arena, a.phases, a.sections, a.result);
  if (st != Status::ok) {
    throw ToolError(fmt::format("warp {}: the analysis rejected its instructions: {}", warp.warp_id,
                                status_message(st)));
  }
  if (keep_phases) a.phases.resize(a.result.phase_count);
  a.sections.resize(a.result.section_count);
  // With draining barriers that is the profile's total (the sum of its
  // sections); passing them takes a run through the barriers.
  a.alone_cycles = a.result.total_cycles;
  if (!barriers_drain) {
    const Status alone =
        warp_alone_cycles(hw, warp.code, register_count, arena, false, a.alone_cycles);
    if (alone != Status::ok) {
      throw ToolError(fmt::format("warp {}: the analysis rejected its instructions: {}", warp.warp_id,
                                  status_message(alone)));
    }
  }
  return a;
}

BlockAnalysis analyse_block(const HardwareDescription& hw, const TraceFile& trace,
                            std::size_t block_index, bool barriers_drain, bool keep_phases) {
  if (block_index >= trace.blocks.size()) {
    throw ToolError(fmt::format("{}: block {} does not exist (the trace has {})", trace.path,
                                block_index, trace.blocks.size()));
  }
  const BlockTrace& block = trace.blocks[block_index];
  if (block.warps.empty()) throw ToolError(fmt::format("{}: {} has no warps", trace.path, block.label));
  if (block.dropped) {
    throw ToolError(fmt::format("{}: {}: its instructions were not kept while the trace was read",
                                trace.path, block.label));
  }
  BlockAnalysis b;
  b.block_index = block_index;
  b.label = block.label;
  std::vector<SectionSummary> all;
  for (const WarpTrace& w : block.warps) {
    b.warps.push_back(analyse_warp(hw, w, trace.register_count, barriers_drain, keep_phases));
    const WarpAnalysis& a = b.warps.back();
    if (a.sections.size() != b.warps.front().sections.size()) {
      // Named at the warp's first instruction in the trace.
      const std::string where = w.lines.empty() ? trace.path
                                                : fmt::format("{}:{}", trace.path, w.lines.front());
      throw ToolError(fmt::format(
          "{}: {}: warp {} passes {} barriers but warp {} passes {}; a block's warps must meet at "
          "every barrier",
          where, block.label, a.warp_id, a.sections.size() - 1, b.warps.front().warp_id,
          b.warps.front().sections.size() - 1));
    }
    all.insert(all.end(), a.sections.begin(), a.sections.end());
  }
  const std::size_t warps = b.warps.size();
  const std::size_t sections = b.warps.front().sections.size();
  Status st = block_bound(all, warps, sections, b.bound);
  if (st != Status::ok) {
    throw ToolError(fmt::format("{}: {}: {}", trace.path, block.label, status_message(st)));
  }
  std::vector<SectionSummary> one(warps);
  for (std::size_t s = 0; s < sections; ++s) {
    for (std::size_t w = 0; w < warps; ++w) one[w] = all[w * sections + s];
    BlockBound sb;
    st = block_bound(one, warps, 1, sb);
    if (st != Status::ok) {
      throw ToolError(fmt::format("{}: {}: {}", trace.path, block.label, status_message(st)));
    }
    b.section_bounds.push_back(sb);
  }
  // Passing a barrier early can only help, so with several warps and
  // barriers that do not drain the sections' lengths bound nothing below.
  b.lower_bound_holds = hw.collector_units == 0 && (barriers_drain || sections == 1 || warps == 1);
  if (warps == 1) {
    // One warp, one schedule: its time alone bounds it, exactly unless
    // collector units let a queued unit serve in an order the profile does
    // not fix (then it bounds every order).
    const std::uint64_t alone = b.warps.front().alone_cycles;
    b.bound.safe_upper_bound = b.bound.general_upper_bound = b.bound.lower_bound = alone;
    // A section lasts no longer than the block, so the block's bound caps
    // each section's; the per-section profile bound can be looser (it
    // carries the warp's own queued holds for blocks of several warps).
    for (BlockBound& sb : b.section_bounds) {
      sb.safe_upper_bound = std::min(sb.safe_upper_bound, alone);
      sb.general_upper_bound = std::min(sb.general_upper_bound, alone);
      sb.lower_bound = std::min(sb.lower_bound, sb.safe_upper_bound);
    }
  }
  return b;
}

namespace {

// A block's label as a user gives it: without the "block " the readers add.
std::string_view bare_label(const BlockTrace& b) {
  const std::string_view l = b.label;
  return l.substr(detail::starts_with(l, "block ") ? 6 : 0);
}

}  // namespace

BlockChoice parse_block_choice(const std::string& text, const std::vector<BlockTrace>& blocks) {
  BlockChoice c;
  if (text.empty() || text == "worst") return c;
  c.worst = false;
  const std::size_t n = blocks.size();
  const std::string range = n == 0 ? "none" : fmt::format("0..{}", n - 1);
  const bool hash = text.size() > 1 && text[0] == '#';
  const std::string digits = hash ? text.substr(1) : text;
  const bool index = digits.find_first_not_of("0123456789") == std::string::npos;
  // A label as the trace gives it, without "block "; coordinates match
  // whatever their spacing, those left out being 0 (as the readers compare
  // labels: "5" is "5,0,0"). Digits no label has, and '#N', are an index.
  if (!hash) {
    const auto wanted = detail::block_coordinates(text);
    for (std::size_t i = 0; i < n; ++i) {
      const std::string_view label = bare_label(blocks[i]);
      const auto coords = wanted ? detail::block_coordinates(label) : std::nullopt;
      if (label == text || (coords && *coords == *wanted)) {
        c.index = i;
        return c;
      }
    }
  }
  if (index) {
    c.index = static_cast<std::size_t>(parse_unsigned(digits, "block index"));
    if (c.index >= n) {
      throw ToolError(fmt::format("block {} does not exist: the trace has {} block{} ({})", text, n,
                                  n == 1 ? "" : "s", range));
    }
    return c;
  }
  std::string labels;
  for (std::size_t i = 0; i < n && i < 4; ++i) {
    labels += fmt::format("{}'{}'", i == 0 ? "" : ", ", bare_label(blocks[i]));
  }
  if (n > 4) labels += ", ...";
  throw ToolError(fmt::format("block '{}': no block has that label; expected a block index ({}, "
                              "or #N), a block's label ({}) or 'worst'",
                              text, range, n == 0 ? "none" : labels));
}

BlockAnalysis analyse_chosen_block(const HardwareDescription& hw, const TraceFile& trace,
                                   const BlockChoice& choice, bool barriers_drain, bool keep_phases) {
  if (trace.blocks.empty()) throw ToolError(fmt::format("{}: the trace holds no block", trace.path));
  if (!choice.worst || trace.blocks.size() == 1) {
    return analyse_block(hw, trace, choice.worst ? 0 : choice.index, barriers_drain, keep_phases);
  }
  // Every block's bound, phases counted only; those of the worst are kept
  // by analysing it once more.
  BlockAnalysis worst = analyse_block(hw, trace, 0, barriers_drain, false);
  for (std::size_t i = 1; i < trace.blocks.size(); ++i) {
    BlockAnalysis b = analyse_block(hw, trace, i, barriers_drain, false);
    if (b.bound.safe_upper_bound > worst.bound.safe_upper_bound) worst = std::move(b);
  }
  if (!keep_phases) return worst;
  return analyse_block(hw, trace, worst.block_index, barriers_drain, true);
}

bool WorstBlockWhileReading::operator()(TraceFile& trace, std::size_t index) {
  const std::uint64_t bound =
      analyse_block(hw_, trace, index, barriers_drain_, false).bound.safe_upper_bound;
  if (index_ && bound <= bound_) return true;
  if (index_) drop_instructions(trace.blocks[*index_]);
  index_ = index;
  bound_ = bound;
  return false;
}

}  // namespace gpuwcet::tools
