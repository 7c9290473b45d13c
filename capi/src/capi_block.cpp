// The C face of the multi-phase analysis (capi/include/gpuwcet_block.h).
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "capi_internal.hpp"
#include "gpuwcet/block_bound.hpp"
#include "gpuwcet/hardware_presets.hpp"
#include "gpuwcet/phase_profile.hpp"
#include "gpuwcet_block.h"

using gpuwcet::Status;
using gpuwcet::capi::caller_arena;
using gpuwcet::capi::caller_span;
using gpuwcet::capi::to_c;

// The C structs for instructions, phases and summaries mirror the core's
// field for field, so that spans over the caller's arrays are passed without
// a copy (profiling stays linear and allocation-free). These asserts keep the
// two layouts in lock step.
#define GPUWCET_SAME_FIELD(c_type, core_type, c_field, core_field)          \
  static_assert(offsetof(c_type, c_field) == offsetof(core_type, core_field), \
                #c_type "." #c_field)
GPUWCET_SAME_FIELD(gpuwcet_instruction, gpuwcet::Instruction, unit, unit);
GPUWCET_SAME_FIELD(gpuwcet_instruction, gpuwcet::Instruction, kind, kind);
GPUWCET_SAME_FIELD(gpuwcet_instruction, gpuwcet::Instruction, dst_count, dst_count);
GPUWCET_SAME_FIELD(gpuwcet_instruction, gpuwcet::Instruction, src_count, src_count);
GPUWCET_SAME_FIELD(gpuwcet_instruction, gpuwcet::Instruction, extra_cycles, extra_cycles);
GPUWCET_SAME_FIELD(gpuwcet_instruction, gpuwcet::Instruction, dst, dst);
GPUWCET_SAME_FIELD(gpuwcet_instruction, gpuwcet::Instruction, src, src);
static_assert(sizeof(gpuwcet_instruction) == sizeof(gpuwcet::Instruction), "instruction size");
GPUWCET_SAME_FIELD(gpuwcet_phase, gpuwcet::Phase, start, start);
GPUWCET_SAME_FIELD(gpuwcet_phase, gpuwcet::Phase, length, length);
GPUWCET_SAME_FIELD(gpuwcet_phase, gpuwcet::Phase, kind, kind);
GPUWCET_SAME_FIELD(gpuwcet_phase, gpuwcet::Phase, section, section);
static_assert(sizeof(gpuwcet_phase) == sizeof(gpuwcet::Phase), "phase size");
GPUWCET_SAME_FIELD(gpuwcet_section_summary, gpuwcet::SectionSummary, length, length);
GPUWCET_SAME_FIELD(gpuwcet_section_summary, gpuwcet::SectionSummary, execution, execution);
GPUWCET_SAME_FIELD(gpuwcet_section_summary, gpuwcet::SectionSummary, idle, idle);
GPUWCET_SAME_FIELD(gpuwcet_section_summary, gpuwcet::SectionSummary, issues, issues);
GPUWCET_SAME_FIELD(gpuwcet_section_summary, gpuwcet::SectionSummary, resource_mask, resource_mask);
GPUWCET_SAME_FIELD(gpuwcet_section_summary, gpuwcet::SectionSummary, phase_count, phase_count);
GPUWCET_SAME_FIELD(gpuwcet_section_summary, gpuwcet::SectionSummary, held, held);
static_assert(sizeof(gpuwcet_section_summary) == sizeof(gpuwcet::SectionSummary), "summary size");
static_assert(GPUWCET_MAX_FUNCTIONAL_UNITS == gpuwcet::kMaxFunctionalUnits, "units");
static_assert(GPUWCET_MAX_RESOURCES == gpuwcet::kMaxResources, "resources");
static_assert(GPUWCET_OWN_RESOURCE == gpuwcet::kOwnResource, "own resource");
static_assert(GPUWCET_MAX_REGISTER_COUNT == gpuwcet::kMaxRegisterCount, "registers");
static_assert(std::is_trivially_copyable_v<gpuwcet::Instruction> &&
                  std::is_standard_layout_v<gpuwcet::Instruction>,
              "instruction layout");

namespace {

// sizeof(gpuwcet_hardware_desc) in its first release: up to barrier_delay;
// in 0.2: up to exit_issues.
constexpr std::size_t kHardwareDescFirstSize =
    offsetof(gpuwcet_hardware_desc, barrier_delay) + sizeof(std::uint32_t);
constexpr std::size_t kHardwareDescSize02 =
    offsetof(gpuwcet_hardware_desc, exit_issues) + sizeof(std::uint32_t);

Status hw_from_c(const gpuwcet_hardware_desc* in, gpuwcet::HardwareDescription& out) noexcept {
  if (in == nullptr || !gpuwcet::capi::struct_size_ok(in->struct_size, kHardwareDescFirstSize)) {
    return Status::invalid_argument;
  }
  if (in->unit_count == 0 || in->unit_count > gpuwcet::kMaxFunctionalUnits) {
    return Status::invalid_argument;
  }
  // Field by field, not from a default-constructed temporary: a second
  // description on the stack costs a firmware about a kilobyte.
  out.unit_count = in->unit_count;
  for (std::size_t i = 0; i < gpuwcet::kMaxFunctionalUnits; ++i) {
    gpuwcet::FunctionalUnit& u = out.units[i];
    if (i >= in->unit_count) {
      u = gpuwcet::FunctionalUnit{};
      continue;
    }
    std::memcpy(u.name.data(), in->units[i].name, gpuwcet::kUnitNameSize);
    u.name[gpuwcet::kUnitNameSize - 1] = '\0';
    u.initiation = in->units[i].initiation;
    u.latency = in->units[i].latency;
    u.resource = in->units[i].resource;
    u.flags = in->units[i].flags;
  }
  out.dispatch_delay = 0;
  out.launch_delay = 0;
  out.exit_issues = false;
  out.collector_units = 0;
  if (in->latency_from_issue > 1) return Status::invalid_argument;
  // A zeroed struct describes the paper's model: 0 reads as 1.
  out.issue_interval = in->issue_interval == 0 ? 1u : in->issue_interval;
  out.branch_delay = in->branch_delay;
  out.result_delay = in->result_delay;
  out.latency_from_issue = in->latency_from_issue != 0;
  out.barrier_delay = in->barrier_delay;
  // Fields added after the first release: read only if the caller's struct
  // has them.
  if (in->struct_size >= kHardwareDescSize02) {
    if (in->exit_issues > 1) return Status::invalid_argument;
    out.dispatch_delay = in->dispatch_delay;
    out.launch_delay = in->launch_delay;
    out.exit_issues = in->exit_issues != 0;
  }
  if (in->struct_size >= sizeof(gpuwcet_hardware_desc)) out.collector_units = in->collector_units;
  return gpuwcet::validate(out);
}

// The instruction kinds the core knows; checked here because the C struct
// carries the kind as a plain byte. An array of more than PTRDIFF_MAX bytes
// does not exist.
bool kinds_ok(const gpuwcet_instruction* instructions, size_t count) noexcept {
  if (count > static_cast<std::size_t>(PTRDIFF_MAX) / sizeof(gpuwcet_instruction)) return false;
  for (std::size_t i = 0; i < count; ++i) {
    if (instructions[i].kind > static_cast<uint8_t>(gpuwcet::OpKind::exit)) return false;
  }
  return true;
}

gsl::span<const gpuwcet::Instruction> core_code(const gpuwcet_instruction* instructions,
                                                size_t count) noexcept {
  return {reinterpret_cast<const gpuwcet::Instruction*>(instructions), count};
}

}  // namespace

extern "C" {

gpuwcet_status gpuwcet_hardware_preset_sized(const char* name, uint32_t memory_latency,
                                             gpuwcet_hardware_desc* hw, size_t size) {
  if (hw == nullptr || size < kHardwareDescFirstSize || size > sizeof(gpuwcet_hardware_desc)) {
    return GPUWCET_INVALID_ARGUMENT;
  }
  gpuwcet::HardwareDescription core;
  const Status st = gpuwcet::make_hardware_preset(name, memory_latency, core);
  if (st != Status::ok) return to_c(st);
  gpuwcet_hardware_desc out;
  std::memset(&out, 0, sizeof out);
  out.struct_size = sizeof out;
  out.unit_count = static_cast<uint32_t>(core.unit_count);
  for (std::size_t i = 0; i < core.unit_count; ++i) {
    std::memcpy(out.units[i].name, core.units[i].name.data(), gpuwcet::kUnitNameSize);
    out.units[i].initiation = core.units[i].initiation;
    out.units[i].latency = core.units[i].latency;
    out.units[i].resource = core.units[i].resource;
    out.units[i].flags = core.units[i].flags;
  }
  out.issue_interval = core.issue_interval;
  out.branch_delay = core.branch_delay;
  out.result_delay = core.result_delay;
  out.latency_from_issue = core.latency_from_issue ? 1u : 0u;
  out.barrier_delay = core.barrier_delay;
  out.dispatch_delay = core.dispatch_delay;
  out.launch_delay = core.launch_delay;
  out.exit_issues = core.exit_issues ? 1u : 0u;
  out.collector_units = core.collector_units;
  // A field the caller's struct lacks reads as 0 (hw_from_c): refuse a
  // preset that needs one rather than describe another machine.
  const auto* bytes = reinterpret_cast<const unsigned char*>(&out);
  for (std::size_t i = size; i < sizeof out; ++i) {
    if (bytes[i] != 0) return GPUWCET_INVALID_ARGUMENT;
  }
  out.struct_size = static_cast<std::uint32_t>(size);
  std::memcpy(hw, &out, size);
  return GPUWCET_OK;
}

gpuwcet_status(gpuwcet_hardware_preset)(const char* name, uint32_t memory_latency,
                                        gpuwcet_hardware_desc* hw) {
  return gpuwcet_hardware_preset_sized(name, memory_latency, hw, sizeof(gpuwcet_hardware_desc));
}

gpuwcet_status gpuwcet_find_unit(const gpuwcet_hardware_desc* hw, const char* name,
                                 uint32_t* index) {
  if (name == nullptr || index == nullptr) return GPUWCET_INVALID_ARGUMENT;
  // Names only: no copy of the whole description (a firmware's stack).
  if (hw == nullptr || !gpuwcet::capi::struct_size_ok(hw->struct_size, kHardwareDescFirstSize) ||
      hw->unit_count == 0 || hw->unit_count > gpuwcet::kMaxFunctionalUnits) {
    return GPUWCET_INVALID_ARGUMENT;
  }
  // Unit names hold at most kUnitNameSize - 1 characters.
  if (std::memchr(name, '\0', gpuwcet::kUnitNameSize) == nullptr) return GPUWCET_NOT_FOUND;
  for (uint32_t i = 0; i < hw->unit_count; ++i) {
    if (std::strncmp(hw->units[i].name, name, gpuwcet::kUnitNameSize) == 0) {
      *index = i;
      return GPUWCET_OK;
    }
  }
  return GPUWCET_NOT_FOUND;
}

gpuwcet_status gpuwcet_profile_info_init(gpuwcet_profile_info* info) {
  if (info == nullptr) return GPUWCET_INVALID_ARGUMENT;
  std::memset(info, 0, sizeof *info);
  info->struct_size = sizeof *info;
  return GPUWCET_OK;
}

gpuwcet_status gpuwcet_profile_arena_bytes(size_t register_count, size_t* bytes) {
  if (bytes == nullptr) return GPUWCET_INVALID_ARGUMENT;
  const std::size_t n = gpuwcet::profile_arena_bytes(register_count);
  if (n == 0) return GPUWCET_INVALID_ARGUMENT;  // above GPUWCET_MAX_REGISTER_COUNT
  *bytes = n;
  return GPUWCET_OK;
}

gpuwcet_status gpuwcet_profile_warp(const gpuwcet_hardware_desc* hw,
                                    const gpuwcet_instruction* instructions, size_t count,
                                    size_t register_count, void* arena, size_t arena_bytes,
                                    gpuwcet_phase* phases, size_t phase_capacity,
                                    gpuwcet_section_summary* sections, size_t section_capacity,
                                    gpuwcet_profile_info* info) {
  if ((instructions == nullptr && count != 0) || arena == nullptr ||
      (sections == nullptr && section_capacity != 0) || info == nullptr ||
      (phases == nullptr && phase_capacity != 0) ||
      !gpuwcet::capi::struct_size_ok(info->struct_size, sizeof(gpuwcet_profile_info))) {
    return GPUWCET_INVALID_ARGUMENT;
  }
  gpuwcet::HardwareDescription core;
  Status st = hw_from_c(hw, core);
  if (st != Status::ok) return to_c(st);
  if (!kinds_ok(instructions, count)) return GPUWCET_INVALID_ARGUMENT;
  gpuwcet::ProfileResult result;
  st = gpuwcet::profile_warp(
      core, core_code(instructions, count), register_count, caller_arena(arena, arena_bytes),
      caller_span(reinterpret_cast<gpuwcet::Phase*>(phases), phase_capacity),
      caller_span(reinterpret_cast<gpuwcet::SectionSummary*>(sections), section_capacity), result);
  // The counts are known unless the arena was too small to profile with:
  // every run that profiled closes at least one section.
  if (st == Status::ok || (st == Status::buffer_too_small && result.section_count != 0)) {
    // The core writes a phase field by field, so the bytes of `reserved`
    // (padding in gpuwcet::Phase) would keep whatever the caller's array
    // held, or not, as the compiler merges the stores: zeroed, as documented.
    const std::uint64_t stored =
        result.phase_count < phase_capacity ? result.phase_count : phase_capacity;
    for (std::uint64_t i = 0; i < stored; ++i) {
      std::memset(phases[i].reserved, 0, sizeof phases[i].reserved);
    }
    info->total_cycles = result.total_cycles;
    info->phase_count = result.phase_count;
    info->section_count = result.section_count;
    info->instructions = result.instructions;
  }
  return to_c(st);
}

gpuwcet_status gpuwcet_warp_alone_cycles(const gpuwcet_hardware_desc* hw,
                                         const gpuwcet_instruction* instructions, size_t count,
                                         size_t register_count, void* arena, size_t arena_bytes,
                                         uint32_t barriers_drain, uint64_t* cycles) {
  if ((instructions == nullptr && count != 0) || arena == nullptr || cycles == nullptr ||
      barriers_drain > 1) {
    return GPUWCET_INVALID_ARGUMENT;
  }
  gpuwcet::HardwareDescription core;
  Status st = hw_from_c(hw, core);
  if (st != Status::ok) return to_c(st);
  if (!kinds_ok(instructions, count)) return GPUWCET_INVALID_ARGUMENT;
  std::uint64_t total = 0;
  st = gpuwcet::warp_alone_cycles(core, core_code(instructions, count), register_count,
                                  caller_arena(arena, arena_bytes), barriers_drain != 0, total);
  if (st == Status::ok) *cycles = total;
  return to_c(st);
}

gpuwcet_status gpuwcet_block_bound_init(gpuwcet_block_bound* bound) {
  if (bound == nullptr) return GPUWCET_INVALID_ARGUMENT;
  std::memset(bound, 0, sizeof *bound);
  bound->struct_size = sizeof *bound;
  return GPUWCET_OK;
}

gpuwcet_status gpuwcet_block_bound_from_summaries(const gpuwcet_section_summary* summaries,
                                                  size_t warp_count, size_t section_count,
                                                  gpuwcet_block_bound* bound) {
  if (summaries == nullptr || bound == nullptr ||
      !gpuwcet::capi::struct_size_ok(bound->struct_size, sizeof(gpuwcet_block_bound))) {
    return GPUWCET_INVALID_ARGUMENT;
  }
  if (warp_count == 0) return GPUWCET_ZERO_WARPS;
  // An array of more than PTRDIFF_MAX bytes does not exist.
  std::size_t total = 0;
  if (__builtin_mul_overflow(warp_count, section_count, &total) ||
      total > static_cast<std::size_t>(PTRDIFF_MAX) / sizeof(gpuwcet_section_summary)) {
    return GPUWCET_INVALID_ARGUMENT;
  }
  gpuwcet::BlockBound b;
  const Status st = gpuwcet::block_bound(
      caller_span(reinterpret_cast<const gpuwcet::SectionSummary*>(summaries), total), warp_count,
      section_count, b);
  if (st != Status::ok) return to_c(st);
  bound->general_upper_bound = b.general_upper_bound;
  bound->safe_upper_bound = b.safe_upper_bound;
  bound->lower_bound = b.lower_bound;
  return GPUWCET_OK;
}

}  // extern "C"
