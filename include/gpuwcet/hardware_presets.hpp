// Built-in functional-unit tables for the multi-phase analysis.
//
// Numbers are GPGPU-Sim's public configuration (-ptx_opcode_latency_* /
// -ptx_opcode_initiation_*; list index 0 add/sub, 1 max/min, 2 mul, 3 mad/fma,
// 4 div). GPGPU-Sim gives every opcode variant its own latency and initiation
// but issues it into one shared pipeline, so each (pipeline, variant) pair is
// a unit of its own sharing that pipeline's resource: int_add and int_mul
// block each other for their initiation interval, as in GPGPU-Sim.
// GPGPU-Sim's config says "All Div operations are executed on SFU unit": the
// *_div units therefore occupy the sfu resource.
//
// Unit names of every preset, in index order (readers map opcodes to these):
//   int_add int_max int_mul int_mad int_div
//   fp_add  fp_max  fp_mul  fp_mad  fp_div
//   dp_add  dp_max  dp_mul  dp_mad  dp_div
//   sfu tensor mem mem_shared mem_param branch
// Resources: int (int_add..int_mad, branch, and the readers' alu), fp
// (fp_add..fp_mad), dp (dp_add..dp_mad), sfu (sfu and every *_div), tensor,
// mem (mem, mem_shared, mem_param: the load/store unit).
// `mem` (global and local loads, stores, atomics) has initiation 1 and the caller's memory
// latency (the paper sweeps 5 to 400). `branch` (bra and other control) has
// initiation 1, latency 1 on the int pipeline: GPGPU-Sim runs control as an
// ALU operation on its INT unit.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "gpuwcet/block_model.hpp"
#include "gpuwcet/status.hpp"

namespace gpuwcet {

struct UnitPreset {
  const char* name;
  std::uint32_t initiation;
  std::uint32_t latency;  // kMemoryLatency: replaced by the caller's value
  std::uint16_t resource;
  std::uint16_t flags;    // FunctionalUnit::flags
};

inline constexpr std::uint32_t kMemoryLatency = 0xFFFFFFFFu;
// GPGPU-Sim's load/store unit (docs/multiphase.md, "Single-warp accuracy"),
// counted from the dispatch, before the two write-back cycles every result
// takes (kGpgpuSimResultDelay):
// - a global access under -gpgpu_perfect_mem 1 sends one transaction per
//   cycle and its last response is written two cycles after it is sent;
// - a shared-memory access goes through a pipeline of -gpgpu_smem_latency
//   stages (29 on Ampere); bank passes hold the unit, not the result;
// - a kernel-parameter or constant load through the perfect constant cache
//   releases its register one cycle after the dispatch, with no write-back.
inline constexpr std::uint32_t kGpgpuSimPerfectMemoryLatency = 2;
inline constexpr std::uint32_t kSharedMemoryLatency = 29;
inline constexpr std::uint32_t kParameterLatency = 1;
// Load/store cycles per eight further transactions of an uncoalesced global
// access (readers scale extra_cycles by it): GPGPU-Sim's load/store unit sends
// one transaction per cycle. (A fitted 13 per 8 once stood in for the
// collector units' service order, which collector_units now bounds:
// docs/multiphase.md, "Operand collectors".)
inline constexpr std::uint32_t kGpgpuSimCyclesPer8Transactions = 8;

namespace preset_resource {
inline constexpr std::uint16_t int_pipe = 0, fp = 1, dp = 2, sfu = 3, tensor = 4, mem = 5;
}

// GPGPU-Sim's Ampere RTX 3070 (SM_86) configuration. The single-SM Jetson-Orin
// configuration of the gpgpusim-ptx-traces data set (gpgpusim.config) carries
// the very same latency and initiation lists, so both presets share this table;
// they differ in GPGPU-Sim only in memory system and SM count, which the
// block model does not describe (the memory latency is a parameter).
inline constexpr std::size_t kPresetUnitCount = 21;
inline constexpr std::array<UnitPreset, kPresetUnitCount> kAmpereUnits{{
    {"int_add", 2, 4, preset_resource::int_pipe, 0},
    {"int_max", 2, 4, preset_resource::int_pipe, 0},
    {"int_mul", 2, 4, preset_resource::int_pipe, 0},
    {"int_mad", 2, 4, preset_resource::int_pipe, 0},
    {"int_div", 2, 21, preset_resource::sfu, 0},
    {"fp_add", 1, 4, preset_resource::fp, 0},
    {"fp_max", 1, 4, preset_resource::fp, 0},
    {"fp_mul", 1, 4, preset_resource::fp, 0},
    {"fp_mad", 1, 4, preset_resource::fp, 0},
    {"fp_div", 2, 39, preset_resource::sfu, 0},
    {"dp_add", 64, 64, preset_resource::dp, 0},
    {"dp_max", 64, 64, preset_resource::dp, 0},
    {"dp_mul", 64, 64, preset_resource::dp, 0},
    {"dp_mad", 64, 64, preset_resource::dp, 0},
    {"dp_div", 130, 330, preset_resource::sfu, 0},
    {"sfu", 8, 21, preset_resource::sfu, 0},
    {"tensor", 64, 64, preset_resource::tensor, 0},
    // The load/store unit queues its instructions (kUnitQueuedDispatch);
    // shared-memory and kernel-parameter loads also occupy it (see above).
    {"mem", 1, kMemoryLatency, preset_resource::mem, kUnitQueuedDispatch},
    {"mem_shared", 1, kSharedMemoryLatency, preset_resource::mem,
     kUnitQueuedDispatch | kUnitExtraHoldsOnly},
    {"mem_param", 1, kParameterLatency, preset_resource::mem,
     kUnitQueuedDispatch | kUnitSkipsResultDelay},
    {"branch", 1, 1, preset_resource::int_pipe, 0},
}};

struct HardwarePreset {
  const char* name;
  const UnitPreset* units;
  std::size_t unit_count;
};

// GPGPU-Sim 4.2's SM (shader.cc, read for docs/multiphase.md, "Single-warp
// accuracy"), as the HardwareDescription fields that every preset and the
// GPGPU-Sim configuration reader set:
// - fetch and decode keep up with one issue per warp per cycle
//   (-gpgpu_inst_fetch_throughput 32), a taken branch costs one bubble;
// - an issued instruction spends two cycles in operand collection before it
//   enters its unit; the unit's latency counts from that dispatch, and
//   write-back and the scoreboard release take two more cycles;
// - instructions for a busy load/store unit wait in front of it while the
//   warp goes on issuing (kUnitQueuedDispatch on the memory units). GPGPU-Sim
//   lets instructions wait in front of every unit; the model makes a warp
//   wait for a busy ALU pipe before issuing, which can only lengthen a
//   single warp and keeps the block bound's charge per other-warp ALU
//   instruction one cycle lower (docs/multiphase.md);
// - the first issue comes two cycles after the launch and the kernel's cycle
//   count ends one cycle after the last write-back (launch delay 3);
// - exit is an ALU instruction on the INT unit.
// - a barrier costs two cycles after the warp is free to issue (the least
//   delay that keeps every traced warp at or above GPGPU-Sim's time when the
//   warp passes barriers with its results pending, as GPGPU-Sim's bar.sync
//   lets it: docs/multiphase.md; the block bound drains at barriers, which
//   is safe for both machines).
struct GpgpuSimPipeline {
  static constexpr std::uint32_t issue_interval = 1;
  static constexpr std::uint32_t branch_delay = 1;
  static constexpr std::uint32_t result_delay = 2;
  static constexpr bool latency_from_issue = true;
  static constexpr std::uint32_t barrier_delay = 2;
  static constexpr std::uint32_t dispatch_delay = 2;
  static constexpr std::uint32_t launch_delay = 3;
  static constexpr bool exit_issues = true;
  // -gpgpu_operand_collector_num_units_gen 8 (with the specialized collector
  // units disabled, as in both configurations): every instruction goes
  // through one of 8 collector units, and the load/store unit takes the
  // waiting ones round-robin, not in issue order.
  static constexpr std::uint32_t collector_units = 8;
};

// Sets the pipeline fields of `hw` (not its units) to GPGPU-Sim's.
constexpr void set_gpgpusim_pipeline(HardwareDescription& hw) noexcept {
  hw.issue_interval = GpgpuSimPipeline::issue_interval;
  hw.branch_delay = GpgpuSimPipeline::branch_delay;
  hw.result_delay = GpgpuSimPipeline::result_delay;
  hw.latency_from_issue = GpgpuSimPipeline::latency_from_issue;
  hw.barrier_delay = GpgpuSimPipeline::barrier_delay;
  hw.dispatch_delay = GpgpuSimPipeline::dispatch_delay;
  hw.launch_delay = GpgpuSimPipeline::launch_delay;
  hw.exit_issues = GpgpuSimPipeline::exit_issues;
  hw.collector_units = GpgpuSimPipeline::collector_units;
}

inline constexpr std::array<HardwarePreset, 2> kHardwarePresets{{
    {"rtx3070", kAmpereUnits.data(), kAmpereUnits.size()},
    {"orin-sm", kAmpereUnits.data(), kAmpereUnits.size()},
}};

// Fills `out` from the preset called `name` ("rtx3070", "orin-sm") with the
// given memory latency. Returns not_found for an unknown (or null) name,
// leaving `out` untouched.
[[nodiscard]] Status make_hardware_preset(const char* name, std::uint32_t memory_latency,
                                          HardwareDescription& out) noexcept;

}  // namespace gpuwcet
