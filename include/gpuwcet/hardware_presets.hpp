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
// Resources: int (int_add..int_mad), fp (fp_add..fp_mad), dp (dp_add..dp_mad),
// sfu (sfu and every *_div), tensor, mem (mem, mem_shared, mem_param),
// branch.
// `mem` (global and local loads, stores, atomics) has initiation 1 and the caller's memory
// latency (the paper sweeps 5 to 400). `branch` (bra, setp-free control,
// barriers' own work) has initiation 1, latency 1: GPGPU-Sim gives control no
// latency list; a reader that prefers its SP timing maps branches to int_add.
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
};

inline constexpr std::uint32_t kMemoryLatency = 0xFFFFFFFFu;
// Cycles the load/store unit adds to a shared-memory access beyond
// GPGPU-Sim's -gpgpu_smem_latency, and the latency of a global access under
// -gpgpu_perfect_mem 1: calibrated on the single-warp traces of the
// gpgpusim-ptx-traces data set (docs/multiphase.md, "Single-warp accuracy").
inline constexpr std::uint32_t kGpgpuSimLoadStorePipeline = 3;
inline constexpr std::uint32_t kGpgpuSimPerfectMemoryLatency = 12;
// The presets' shared-memory and parameter latencies (Ampere's
// -gpgpu_smem_latency 29, which the parameter loads of the traces match);
// the GPGPU-Sim configuration reader takes them from the file instead.
inline constexpr std::uint32_t kSharedMemoryLatency = 29 + kGpgpuSimLoadStorePipeline;
inline constexpr std::uint32_t kParameterLatency = 29;

namespace preset_resource {
inline constexpr std::uint16_t int_pipe = 0, fp = 1, dp = 2, sfu = 3, tensor = 4, mem = 5,
                               branch = 6;
}

// GPGPU-Sim's Ampere RTX 3070 (SM_86) configuration. The single-SM Jetson-Orin
// configuration of the gpgpusim-ptx-traces data set (gpgpusim.config) carries
// the very same latency and initiation lists, so both presets share this table;
// they differ in GPGPU-Sim only in memory system and SM count, which the
// block model does not describe (the memory latency is a parameter).
inline constexpr std::size_t kPresetUnitCount = 21;
inline constexpr std::array<UnitPreset, kPresetUnitCount> kAmpereUnits{{
    {"int_add", 2, 4, preset_resource::int_pipe},
    {"int_max", 2, 4, preset_resource::int_pipe},
    {"int_mul", 2, 4, preset_resource::int_pipe},
    {"int_mad", 2, 4, preset_resource::int_pipe},
    {"int_div", 2, 21, preset_resource::sfu},
    {"fp_add", 1, 4, preset_resource::fp},
    {"fp_max", 1, 4, preset_resource::fp},
    {"fp_mul", 1, 4, preset_resource::fp},
    {"fp_mad", 1, 4, preset_resource::fp},
    {"fp_div", 2, 39, preset_resource::sfu},
    {"dp_add", 64, 64, preset_resource::dp},
    {"dp_max", 64, 64, preset_resource::dp},
    {"dp_mul", 64, 64, preset_resource::dp},
    {"dp_mad", 64, 64, preset_resource::dp},
    {"dp_div", 130, 330, preset_resource::sfu},
    {"sfu", 8, 21, preset_resource::sfu},
    {"tensor", 64, 64, preset_resource::tensor},
    {"mem", 1, kMemoryLatency, preset_resource::mem},
    // Shared memory (GPGPU-Sim's -gpgpu_smem_latency 29, plus the three
    // cycles of the load/store unit's pipeline that the single-warp traces
    // show) and kernel-parameter loads; both occupy the load/store unit.
    {"mem_shared", 1, kSharedMemoryLatency, preset_resource::mem},
    {"mem_param", 1, kParameterLatency, preset_resource::mem},
    {"branch", 1, 1, preset_resource::branch},
}};

struct HardwarePreset {
  const char* name;
  const UnitPreset* units;
  std::size_t unit_count;
  // Pipeline timing (HardwareDescription): GPGPU-Sim's SM model, calibrated
  // against the single-warp traces of the gpgpusim-ptx-traces data set
  // (docs/multiphase.md, "Single-warp accuracy").
  std::uint32_t issue_interval;
  std::uint32_t branch_delay;
  std::uint32_t result_delay;
  bool latency_from_issue;
  std::uint32_t barrier_delay;
};

// GPGPU-Sim's front end refills a warp's two-entry instruction buffer only
// when it is empty, so one warp issues at most every other cycle; a branch
// flushes the buffer (one more cycle); operand collection and write-back add
// two cycles to every result. Readers of GPGPU-Sim configurations use the
// same numbers.
inline constexpr std::uint32_t kGpgpuSimIssueInterval = 2;
inline constexpr std::uint32_t kGpgpuSimBranchDelay = 1;
inline constexpr std::uint32_t kGpgpuSimResultDelay = 2;
// A barrier releases the block 15 cycles after the last warp drained
// (calibrated on the single-warp traces: docs/multiphase.md).
inline constexpr std::uint32_t kGpgpuSimBarrierDelay = 15;

inline constexpr std::array<HardwarePreset, 2> kHardwarePresets{{
    {"rtx3070", kAmpereUnits.data(), kAmpereUnits.size(), kGpgpuSimIssueInterval,
     kGpgpuSimBranchDelay, kGpgpuSimResultDelay, true, kGpgpuSimBarrierDelay},
    {"orin-sm", kAmpereUnits.data(), kAmpereUnits.size(), kGpgpuSimIssueInterval,
     kGpgpuSimBranchDelay, kGpgpuSimResultDelay, true, kGpgpuSimBarrierDelay},
}};

// Fills `out` from the preset called `name` ("rtx3070", "orin-sm") with the
// given memory latency. Returns not_found for an unknown (or null) name,
// leaving `out` untouched.
[[nodiscard]] Status make_hardware_preset(const char* name, std::uint32_t memory_latency,
                                          HardwareDescription& out) noexcept;

}  // namespace gpuwcet
