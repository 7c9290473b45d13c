// gpuwcet from C++: the WCET bound of a traced thread block on a built-in
// hardware preset.
//
//   cpp_usage [TRACE] [PRESET] [MEMORY_LATENCY]
//
// The host library reads the trace (native, Accel-Sim .traceg or GPGPU-Sim
// PTX) and maps its opcodes to the preset's functional units; everything
// after that is the core API a target would run: profile each warp alone
// (Algorithm 1, caller-provided memory), keep its per-section summaries, and
// bound the block from them; a block of one warp has one schedule, and its
// bound is the warp's time alone.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "gpuwcet/block_bound.hpp"
#include "gpuwcet/phase_profile.hpp"
#include "gpuwcet_tools/tool_error.hpp"
#include "gpuwcet_tools/trace_input.hpp"

int main(int argc, char** argv) {
  const std::string trace_path = argc > 1 ? argv[1] : "examples/traces/two-warps.trace";
  const std::string preset = argc > 2 ? argv[2] : "orin-sm";
  const auto memory_latency = static_cast<std::uint32_t>(argc > 3 ? std::stoul(argv[3]) : 200);
  try {
    // 1. Hardware and trace (host side: may allocate and throw ToolError).
    const gpuwcet::tools::HardwareConfig hw = gpuwcet::tools::hardware_preset(preset, memory_latency);
    const gpuwcet::tools::TraceFile trace =
        gpuwcet::tools::read_trace(trace_path, gpuwcet::tools::TraceFormat::automatic, hw);
    if (trace.blocks.empty()) {
      std::fprintf(stderr, "%s: no block in the trace\n", trace_path.c_str());
      return 1;
    }
    const gpuwcet::tools::BlockTrace& block = trace.blocks.front();

    // 2. Per-warp profiles with the core API: no heap inside, so the caller
    //    sizes the arena, the phase and the summary buffers.
    std::vector<std::byte> arena(gpuwcet::profile_arena_bytes(trace.register_count));
    std::vector<gpuwcet::SectionSummary> summaries;  // warp-major
    std::size_t sections = 0;
    std::uint64_t one_warp_bound = 0;
    for (const gpuwcet::tools::WarpTrace& warp : block.warps) {
      std::vector<gpuwcet::SectionSummary> mine(warp.code.size() + 1);
      gpuwcet::ProfileResult result;
      // Phases are not needed for the bound: an empty span only counts them.
      const gpuwcet::Status st = gpuwcet::profile_warp(hw.hw, warp.code, trace.register_count, arena,
                                                       {}, mine, result);
      if (st != gpuwcet::Status::ok) {
        std::fprintf(stderr, "warp %u: %s\n", warp.warp_id, gpuwcet::status_message(st));
        return 1;
      }
      if (sections != 0 && result.section_count != sections) {
        std::fprintf(stderr, "warps disagree on the number of barriers\n");
        return 1;
      }
      sections = result.section_count;
      // Its time alone on this machine, whose barriers may let it pass with
      // results pending (profile_warp's sections start drained).
      std::uint64_t alone = 0;
      if (gpuwcet::warp_alone_cycles(hw.hw, warp.code, trace.register_count, arena, hw.barriers_drain,
                                     alone) != gpuwcet::Status::ok) {
        return 1;  // profile_warp accepted the same input
      }
      std::printf("warp %u: %llu cycles alone, %zu instructions\n", warp.warp_id,
                  static_cast<unsigned long long>(alone), result.instructions);
      if (block.warps.size() == 1) one_warp_bound = alone;
      summaries.insert(summaries.end(), mine.begin(), mine.begin() + static_cast<std::ptrdiff_t>(sections));
    }

    // 3. The block bound: a cheap query over the summaries (for one warp,
    //    its time alone: docs/multiphase.md, "Barriers that do not drain").
    gpuwcet::BlockBound bound;
    const gpuwcet::Status st = gpuwcet::block_bound(summaries, block.warps.size(), sections, bound);
    if (st != gpuwcet::Status::ok) {
      std::fprintf(stderr, "block bound: %s\n", gpuwcet::status_message(st));
      return 1;
    }
    if (block.warps.size() == 1) bound.safe_upper_bound = bound.general_upper_bound = one_warp_bound;
    std::printf("%s, %s, memory latency %u\n", block.label.c_str(), hw.source.c_str(), memory_latency);
    std::printf("block bound %llu cycles (safe for every work-conserving scheduler)\n",
                static_cast<unsigned long long>(bound.safe_upper_bound));
    std::printf("paper's GUB %llu cycles (for comparison, not safe in general)\n",
                static_cast<unsigned long long>(bound.general_upper_bound));
    return 0;
  } catch (const gpuwcet::tools::ToolError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
