// libFuzzer target: the multi-phase C API on any caller input, where the
// readers' validation does not stand in front of it. The bytes become a
// hardware description (its raw bytes, or a preset or a unit table with
// fields drawn from them, valid or not), a register count and up to four
// warps of instructions (any unit, kind, operand count or register id),
// profiled with gpuwcet_profile_warp and gpuwcet_warp_alone_cycles; the
// accepted warps' summaries, and raw bytes taken as summaries, go to
// gpuwcet_block_bound_from_summaries. Any status is an answer; a crash, a
// sanitizer report or a broken documented invariant (gpuwcet_block.h) is a
// bug.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "fuzz_bytes.hpp"
#include "gpuwcet.h"

namespace {

using gpuwcet::fuzz::Bytes;

// A 32-bit field: mostly small, sometimes at or past the documented limits
// (2^20, 2^24), sometimes anything.
std::uint32_t field(Bytes& in) {
  switch (in.u8() % 8) {
    case 0: return in.u32();
    case 1: return (1u << 20) + (in.u8() % 3) - 1;
    case 2: return (1u << 24) + (in.u8() % 3) - 1;
    default: return in.u8();
  }
}

constexpr std::size_t kMaxWarps = 4;
constexpr std::size_t kMaxInstructions = 2048;  // all warps together
constexpr std::size_t kMaxSections = 64;
constexpr std::size_t kMaxPhases = 2 * kMaxInstructions + 2;

void hardware(Bytes& in, gpuwcet_hardware_desc& hw) {
  const std::uint8_t mode = in.u8() % 4;
  if (mode == 0) {  // raw bytes, the size field right or not
    in.copy(&hw, sizeof hw);
    if (in.u8() % 4 != 0) hw.struct_size = sizeof hw;
    return;
  }
  if (gpuwcet_hardware_preset(in.u8() % 2 ? "rtx3070" : "orin-sm", field(in), &hw) !=
      GPUWCET_OK) {
    std::memset(&hw, 0, sizeof hw);
    hw.struct_size = sizeof hw;
  }
  if (mode == 2) {  // a unit table of its own
    hw.unit_count = 1u + in.u8() % (GPUWCET_MAX_FUNCTIONAL_UNITS + 2);
    for (std::uint32_t u = 0; u < GPUWCET_MAX_FUNCTIONAL_UNITS; ++u) {
      gpuwcet_functional_unit& f = hw.units[u];
      f.initiation = field(in);
      f.latency = field(in);
      const std::uint8_t r = in.u8();
      f.resource = r < 200 ? static_cast<std::uint16_t>(r % (GPUWCET_MAX_RESOURCES + 2))
                           : static_cast<std::uint16_t>(GPUWCET_OWN_RESOURCE);
      f.flags = static_cast<std::uint16_t>(in.u8() % 16);
    }
  }
  // Pipeline fields, each possibly replaced.
  std::uint32_t* pipeline[] = {&hw.issue_interval, &hw.branch_delay,  &hw.result_delay,
                               &hw.latency_from_issue, &hw.barrier_delay, &hw.dispatch_delay,
                               &hw.launch_delay,   &hw.exit_issues,   &hw.collector_units};
  for (std::uint8_t n = in.u8() % 6; n != 0; --n) {
    const std::uint8_t which = in.u8() % (sizeof pipeline / sizeof pipeline[0]);
    *pipeline[which] = which == 8 ? in.u8() % 70 : field(in);
  }
}

gpuwcet_instruction instruction(Bytes& in, const gpuwcet_hardware_desc& hw,
                                std::size_t registers) {
  gpuwcet_instruction i;
  std::memset(&i, 0, sizeof i);
  const std::uint32_t units = hw.unit_count <= GPUWCET_MAX_FUNCTIONAL_UNITS ? hw.unit_count : 1;
  i.unit = static_cast<std::uint16_t>(in.u8() % (units + 1));
  const std::uint8_t k = in.u8();
  i.kind = static_cast<std::uint8_t>(k < 160 ? GPUWCET_OP_COMPUTE : k % 7);  // 6: no such kind
  i.dst_count = static_cast<std::uint8_t>(in.u8() % (GPUWCET_MAX_DESTINATIONS + 2));
  i.src_count = static_cast<std::uint8_t>(in.u8() % (GPUWCET_MAX_SOURCES + 2));
  i.extra_cycles = in.u8() % 4 == 0 ? in.u8() : 0;
  const std::size_t ids = registers + 1;  // one past: an invalid id
  for (auto& d : i.dst) d = static_cast<std::uint16_t>(in.u16() % ids);
  for (auto& s : i.src) s = static_cast<std::uint16_t>(in.u16() % ids);
  return i;
}

struct Arena {
  unsigned char* data;
  std::size_t size;
};

struct Warp {
  gpuwcet_profile_info info;
  std::uint64_t alone[2];
  std::array<gpuwcet_section_summary, kMaxSections> sections;
};

// Profiles `code` and checks what gpuwcet_block.h promises of a success.
bool profile(const gpuwcet_hardware_desc& hw, const std::vector<gpuwcet_instruction>& code,
             std::size_t registers, const Arena& arena, Warp& w) {
  static std::array<gpuwcet_phase, kMaxPhases> phases;
  FUZZ_CHECK(gpuwcet_profile_info_init(&w.info) == GPUWCET_OK);
  const gpuwcet_status st =
      gpuwcet_profile_warp(&hw, code.data(), code.size(), registers, arena.data, arena.size,
                           phases.data(), phases.size(), w.sections.data(), w.sections.size(),
                           &w.info);
  for (std::uint32_t drain = 0; drain < 2; ++drain) {
    w.alone[drain] = 0;
    const gpuwcet_status a = gpuwcet_warp_alone_cycles(&hw, code.data(), code.size(), registers,
                                                       arena.data, arena.size, drain,
                                                       &w.alone[drain]);
    // The same input errors; a profile that overflows its phase or section
    // arrays still runs alone.
    if (st == GPUWCET_OK) FUZZ_CHECK(a == GPUWCET_OK);
    if (a != GPUWCET_OK) w.alone[drain] = 0;
  }
  if (st != GPUWCET_OK) return false;
  FUZZ_CHECK(w.info.instructions <= code.size());
  FUZZ_CHECK(w.info.section_count >= 1 && w.info.section_count <= kMaxSections);
  FUZZ_CHECK(w.info.phase_count <= kMaxPhases);
  FUZZ_CHECK(w.alone[1] == w.info.total_cycles);  // barriers_drain 1 is total_cycles
  std::array<std::uint64_t, kMaxSections> lengths{};
  std::array<std::uint32_t, kMaxSections> counts{};
  for (std::size_t p = 0; p < w.info.phase_count; ++p) {
    const gpuwcet_phase& ph = phases[p];
    FUZZ_CHECK(ph.length > 0);
    FUZZ_CHECK(ph.kind == GPUWCET_PHASE_EXECUTION || ph.kind == GPUWCET_PHASE_IDLE);
    FUZZ_CHECK(ph.reserved[0] == 0 && ph.reserved[1] == 0 && ph.reserved[2] == 0);
    FUZZ_CHECK(ph.section < w.info.section_count);
    if (p != 0) {
      FUZZ_CHECK(ph.section >= phases[p - 1].section);
      FUZZ_CHECK(ph.start >= phases[p - 1].start + phases[p - 1].length);
    }
    lengths[ph.section] += ph.length;
    ++counts[ph.section];
  }
  std::uint64_t phase_total = 0;
  for (std::size_t s = 0; s < w.info.section_count; ++s) {
    const gpuwcet_section_summary& sum = w.sections[s];
    FUZZ_CHECK(sum.execution + sum.idle == lengths[s]);
    FUZZ_CHECK(sum.phase_count == counts[s]);
    FUZZ_CHECK(sum.execution + sum.idle <= sum.length);
    phase_total += sum.phase_count;
  }
  FUZZ_CHECK(phase_total == w.info.phase_count);
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Bytes in(data, size);
  gpuwcet_hardware_desc hw;
  std::memset(&hw, 0, sizeof hw);
  hardware(in, hw);
  // Register counts around the documented maximum (65536) now and then.
  const std::uint8_t r = in.u8();
  std::size_t registers = r < 250 ? r : GPUWCET_MAX_REGISTER_COUNT - 1 + (r - 250) % 3;
  std::size_t bytes = 0;
  if (gpuwcet_profile_arena_bytes(registers, &bytes) != GPUWCET_OK) {
    FUZZ_CHECK(registers > GPUWCET_MAX_REGISTER_COUNT);
    bytes = 64;
  }
  // Sometimes an arena a little too small: an error, nothing written past it.
  if (in.u8() % 16 == 0 && bytes > 0) bytes -= 1 + in.u8() % 8;
  // At any alignment: the arena sizes include the slack to align it.
  const std::size_t offset = in.u8() % 8;
  std::vector<unsigned char> storage(bytes + offset);
  Arena arena{storage.data() + offset, bytes};
  const std::size_t ids = registers <= GPUWCET_MAX_REGISTER_COUNT ? registers : 1;

  const std::size_t warps = 1 + in.u8() % kMaxWarps;
  std::vector<Warp> profiled(warps);
  std::size_t ok = 0;
  for (std::size_t w = 0; w < warps; ++w) {
    std::vector<gpuwcet_instruction> code;
    const std::size_t count = in.u16() % (kMaxInstructions / kMaxWarps + 1);
    for (std::size_t i = 0; i < count && in.left() != 0; ++i) {
      code.push_back(instruction(in, hw, ids));
    }
    if (profile(hw, code, registers, arena, profiled[w])) ++ok;
  }
  // A block of the accepted warps, when they agree on the section count.
  if (ok == warps) {
    const std::size_t sections = profiled[0].info.section_count;
    bool same = true;
    for (const Warp& w : profiled) same = same && w.info.section_count == sections;
    if (same) {
      std::vector<gpuwcet_section_summary> all;
      for (const Warp& w : profiled) {
        all.insert(all.end(), w.sections.begin(), w.sections.begin() + sections);
      }
      gpuwcet_block_bound b;
      FUZZ_CHECK(gpuwcet_block_bound_init(&b) == GPUWCET_OK);
      const gpuwcet_status st = gpuwcet_block_bound_from_summaries(all.data(), warps, sections, &b);
      FUZZ_CHECK(st == GPUWCET_OK || st == GPUWCET_OVERFLOW);
      if (st == GPUWCET_OK) {
        FUZZ_CHECK(b.safe_upper_bound >= b.lower_bound);
        // A warp alone is at most the block's safe bound (gpuwcet_block.h).
        for (const Warp& w : profiled) {
          FUZZ_CHECK(w.alone[0] <= b.safe_upper_bound && w.alone[1] <= b.safe_upper_bound);
        }
      }
    }
  }
  // Raw bytes as summaries: any status, no crash.
  const std::size_t raw_warps = in.u8() % 5;
  const std::size_t raw_sections = in.u8() % 4;
  std::vector<gpuwcet_section_summary> raw(raw_warps * raw_sections + 1);
  for (auto& s : raw) in.copy(&s, sizeof s);
  gpuwcet_block_bound b;
  FUZZ_CHECK(gpuwcet_block_bound_init(&b) == GPUWCET_OK);
  (void)gpuwcet_block_bound_from_summaries(raw.data(), raw_warps, raw_sections, &b);
  return 0;
}
