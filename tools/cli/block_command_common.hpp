// What the block commands (phases, block-wcet, simulate) share: their
// options, the inputs they load, and what they print.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "gpuwcet_tools/svg_timeline.hpp"
#include "gpuwcet_tools/trace_input.hpp"

namespace gpuwcet::cli {

struct BlockOptions {
  std::string trace;
  std::string format = "auto";
  std::string hw_file;
  std::string hw_preset;
  std::string mem_latency;
  std::string block;
  std::string warp;
  std::string policy = "all";
  std::string collector_pick = "round-robin";
  std::string seed;   // empty: 1
  std::string seeds;  // empty: 16
  std::string search;  // empty: no search
  std::string svg;
  std::string block_dim;
  std::string ptx;
  bool no_ptx = false;
  bool json = false;
};

struct Inputs {
  tools::HardwareConfig config;
  tools::TraceFile trace;
  std::string block_dim;  // as given, or "unknown"
  std::string ptx;        // the PTX file given or taken next to the trace, or empty
  // With --block worst (the default), the block with the largest bound,
  // found while the trace was read: every other block's instructions are
  // dropped as soon as it is bounded (TraceReadOptions::on_block). Unset
  // when the reader hands no blocks over (PTX traces: one block).
  std::optional<std::size_t> worst_block;
};

// What a command produces: the text for stdout and, with --svg, the
// timeline to draw.
struct CommandOutput {
  std::string text;
  tools::Timeline timeline;
  // A bound was printed that is not shown safe: the command exits with 3.
  bool unsafe = false;
};

// The hardware and the trace the options name (notes on stderr).
Inputs load_inputs(const BlockOptions& o);
// The inputs, as every command's JSON begins.
nlohmann::json inputs_json(const Inputs& in);
// Why `bound` is not shown safe against the cycles the trace's own run
// took (GPGPU-Sim PTX traces), or empty.
std::string below_observed(const Inputs& in, std::uint64_t bound);
// Why the block --block names (`index`), or for the worst block some block
// of the trace, may not be shown whole: empty when it is.
std::string incomplete_block(const Inputs& in, const std::string& block, std::size_t index);
// Whether that is because the trace may leave blocks out and --block names
// the worst one.
bool blocks_missing(const Inputs& in, const std::string& block);
// The block --block names; the worst one when not given.
std::size_t chosen_block(const Inputs& in, const std::string& block);

CommandOutput run_simulate(const BlockOptions& o);

}  // namespace gpuwcet::cli
