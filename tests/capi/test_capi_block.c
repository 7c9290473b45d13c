/* The multi-phase analysis through the C API, from C99: what the caller
 * passes in is checked before it sizes or touches any memory. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "capi_check.h"
#include "gpuwcet.h"

/* One unit (initiation 1, latency 4) on a resource of its own. */
static gpuwcet_hardware_desc one_unit(void) {
  gpuwcet_hardware_desc hw;
  memset(&hw, 0, sizeof hw);
  hw.struct_size = sizeof hw;
  hw.unit_count = 1;
  strcpy(hw.units[0].name, "alu");
  hw.units[0].initiation = 1;
  hw.units[0].latency = 4;
  hw.units[0].resource = GPUWCET_OWN_RESOURCE;
  return hw;
}

static gpuwcet_instruction reads_and_writes(uint16_t reg) {
  gpuwcet_instruction i;
  memset(&i, 0, sizeof i);
  i.src_count = 1;
  i.src[0] = reg;
  i.dst_count = 1;
  i.dst[0] = reg;
  return i;
}

/* A register count whose 24 bytes per register wrap size_t to 0. */
#define WRAPPING_REGISTER_COUNT ((SIZE_MAX >> 3) + 1)

/* Register ids are 16-bit: larger counts are refused, never sized. */
static void test_register_count_limit(void) {
  static struct {
    unsigned char arena[64];
    unsigned char canary[256];
  } mem;
  const gpuwcet_hardware_desc hw = one_unit();
  const gpuwcet_instruction code = reads_and_writes(4000);
  gpuwcet_section_summary sections[1];
  gpuwcet_profile_info info;
  size_t bytes = 0;
  uint64_t cycles = 0;
  size_t i;
  int canary_intact = 1;
  memset(mem.canary, 0x11, sizeof mem.canary);
  CHECK(gpuwcet_profile_info_init(&info) == GPUWCET_OK);
  CHECK(gpuwcet_profile_arena_bytes(GPUWCET_MAX_REGISTER_COUNT, &bytes) == GPUWCET_OK);
  CHECK(bytes >= 24 * (size_t)GPUWCET_MAX_REGISTER_COUNT);
  CHECK(gpuwcet_profile_arena_bytes((size_t)GPUWCET_MAX_REGISTER_COUNT + 1, &bytes) ==
        GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_profile_arena_bytes(WRAPPING_REGISTER_COUNT, &bytes) == GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_profile_warp(&hw, &code, 1, WRAPPING_REGISTER_COUNT, mem.arena, sizeof mem.arena,
                             NULL, 0, sections, 1, &info) == GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_warp_alone_cycles(&hw, &code, 1, WRAPPING_REGISTER_COUNT, mem.arena,
                                  sizeof mem.arena, 1, &cycles) == GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_profile_warp(&hw, &code, 1, (size_t)GPUWCET_MAX_REGISTER_COUNT + 1, mem.arena,
                             sizeof mem.arena, NULL, 0, sections, 1,
                             &info) == GPUWCET_INVALID_ARGUMENT);
  for (i = 0; i < sizeof mem.canary; ++i) {
    if (mem.canary[i] != 0x11) canary_intact = 0;
  }
  CHECK(canary_intact);
  /* Too small an arena for a valid count is a status, not an overrun. */
  CHECK(gpuwcet_profile_warp(&hw, &code, 1, 4001, mem.arena, sizeof mem.arena, NULL, 0, sections,
                             1, &info) == GPUWCET_BUFFER_TOO_SMALL);
}

/* section_capacity 0 (sections may then be NULL) is a sizing call: the
 * counts come back with GPUWCET_BUFFER_TOO_SMALL. */
static void test_sizing_call(void) {
  static unsigned char arena[32768];
  const gpuwcet_hardware_desc hw = one_unit();
  gpuwcet_instruction code[3];
  gpuwcet_section_summary sections[2];
  gpuwcet_profile_info sized;
  gpuwcet_profile_info full;
  size_t bytes = 0;
  code[0] = reads_and_writes(1);
  memset(&code[1], 0, sizeof code[1]);
  code[1].kind = GPUWCET_OP_BARRIER;
  code[2] = reads_and_writes(1);
  CHECK(gpuwcet_profile_arena_bytes(4, &bytes) == GPUWCET_OK && bytes <= sizeof arena);
  CHECK(gpuwcet_profile_info_init(&sized) == GPUWCET_OK);
  CHECK(gpuwcet_profile_info_init(&full) == GPUWCET_OK);
  CHECK(gpuwcet_profile_warp(&hw, code, 3, 4, arena, sizeof arena, NULL, 0, sections, 0,
                             &sized) == GPUWCET_BUFFER_TOO_SMALL);
  CHECK(sized.section_count == 2);
  CHECK(gpuwcet_profile_warp(&hw, code, 3, 4, arena, sizeof arena, NULL, 0, NULL, 0, &sized) ==
        GPUWCET_BUFFER_TOO_SMALL);
  CHECK(sized.section_count == 2);
  CHECK(gpuwcet_profile_warp(&hw, code, 3, 4, arena, sizeof arena, NULL, 0, sections, 1,
                             &sized) == GPUWCET_BUFFER_TOO_SMALL);
  CHECK(sized.section_count == 2);
  CHECK(gpuwcet_profile_warp(&hw, code, 3, 4, arena, sizeof arena, NULL, 0, sections, 2, &full) ==
        GPUWCET_OK);
  CHECK(full.section_count == 2 && full.phase_count == sized.phase_count &&
        full.total_cycles == sized.total_cycles && full.total_cycles > 0);
  CHECK(gpuwcet_profile_warp(&hw, code, 3, 4, arena, sizeof arena, NULL, 0, NULL, 1, &sized) ==
        GPUWCET_INVALID_ARGUMENT);
}

/* Summaries that profiling cannot produce are refused, not bounded low. */
static void test_inconsistent_summaries(void) {
  static unsigned char arena[32768];
  const gpuwcet_hardware_desc hw = one_unit();
  const gpuwcet_instruction code = reads_and_writes(1);
  gpuwcet_section_summary sections[2];
  gpuwcet_profile_info info;
  gpuwcet_block_bound b;
  CHECK(gpuwcet_profile_info_init(&info) == GPUWCET_OK);
  CHECK(gpuwcet_block_bound_init(&b) == GPUWCET_OK);
  CHECK(gpuwcet_profile_warp(&hw, &code, 1, 4, arena, sizeof arena, NULL, 0, sections, 1,
                             &info) == GPUWCET_OK);
  sections[1] = sections[0];
  CHECK(gpuwcet_block_bound_from_summaries(sections, 2, 1, &b) == GPUWCET_OK);
  /* Held cycles on resource 3, which the mask says the warp never uses:
   * harmless while no warp uses it, malformed once another one does (its
   * term would miss them). */
  CHECK((sections[1].resource_mask & (1u << 3)) == 0);
  sections[1].held[3] = 1000;
  CHECK(gpuwcet_block_bound_from_summaries(sections, 2, 1, &b) == GPUWCET_OK);
  sections[0].resource_mask |= 1u << 3;
  CHECK(gpuwcet_block_bound_from_summaries(sections, 2, 1, &b) == GPUWCET_MALFORMED_DATA);
  sections[1] = sections[0];
  /* A length shorter than the warp's own phases. */
  sections[0].length = sections[0].execution + sections[0].idle - 1;
  CHECK(gpuwcet_block_bound_from_summaries(sections, 2, 1, &b) == GPUWCET_MALFORMED_DATA);
}

/* SIZE_MAX for a buffer's capacity is a caller's "large enough", not a
 * reason to stop: the calls use what they need (gsl::span terminates on
 * SIZE_MAX, its dynamic extent, so the wrappers never pass it on). A
 * too-small arena leaves info as it was. */
static void test_size_max_capacities(void) {
  static unsigned char arena[32768];
  const gpuwcet_hardware_desc hw = one_unit();
  const gpuwcet_instruction code = reads_and_writes(1);
  gpuwcet_phase phases[8];
  gpuwcet_section_summary sections[2];
  gpuwcet_profile_info info;
  gpuwcet_block_bound b;
  uint64_t cycles = 0;
  CHECK(gpuwcet_profile_info_init(&info) == GPUWCET_OK);
  CHECK(gpuwcet_block_bound_init(&b) == GPUWCET_OK);
  CHECK(gpuwcet_profile_warp(&hw, &code, 1, 4, arena, SIZE_MAX, phases, SIZE_MAX, sections,
                             SIZE_MAX, &info) == GPUWCET_OK);
  CHECK(info.section_count == 1 && info.total_cycles > 0);
  CHECK(gpuwcet_warp_alone_cycles(&hw, &code, 1, 4, arena, SIZE_MAX, 1, &cycles) == GPUWCET_OK);
  CHECK(cycles == info.total_cycles);
  CHECK(gpuwcet_block_bound_from_summaries(sections, 1, SIZE_MAX, &b) ==
        GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_profile_warp(&hw, &code, SIZE_MAX, 4, arena, sizeof arena, NULL, 0, sections, 1,
                             &info) == GPUWCET_INVALID_ARGUMENT);
  info.section_count = 777;
  info.total_cycles = 777;
  CHECK(gpuwcet_profile_warp(&hw, &code, 1, 4, arena, 8, NULL, 0, sections, 1, &info) ==
        GPUWCET_BUFFER_TOO_SMALL);
  CHECK(info.section_count == 777 && info.total_cycles == 777);
  /* Without collector units the arena needs only the registers' words, far
   * less than gpuwcet_profile_arena_bytes: a sizing call with such an arena
   * still fills info. */
  CHECK(hw.collector_units == 0);
  CHECK(gpuwcet_profile_warp(&hw, &code, 1, 4, arena, 4 * 24 + 8, NULL, 0, NULL, 0, &info) ==
        GPUWCET_BUFFER_TOO_SMALL);
  CHECK(info.section_count == 1 && info.total_cycles > 0 && info.total_cycles != 777);
}

/* gpuwcet_hardware_preset writes only the struct the caller has, and
 * refuses one that ends before a field the preset sets (collector_units,
 * 0.3): the description would be another machine. */
static void test_preset_sizes(void) {
  static gpuwcet_hardware_desc hw;
  static gpuwcet_hardware_desc full;
  const size_t before_collectors = offsetof(gpuwcet_hardware_desc, collector_units);
  memset(&full, 0, sizeof full);
  CHECK(gpuwcet_hardware_preset("orin-sm", 200, &full) == GPUWCET_OK);
  CHECK(full.struct_size == sizeof full && full.collector_units == 8);
  memset(&hw, 0xAB, sizeof hw);
  CHECK(gpuwcet_hardware_preset_sized("orin-sm", 200, &hw, before_collectors) ==
        GPUWCET_INVALID_ARGUMENT);
  CHECK(hw.struct_size == 0xABABABABu && hw.collector_units == 0xABABABABu);
  CHECK(gpuwcet_hardware_preset_sized("orin-sm", 200, &hw, sizeof hw + 1) ==
        GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_hardware_preset_sized("orin-sm", 200, NULL, sizeof hw) ==
        GPUWCET_INVALID_ARGUMENT);
  CHECK(gpuwcet_hardware_preset_sized("no-such", 200, &hw, sizeof hw) == GPUWCET_NOT_FOUND);
  CHECK((gpuwcet_hardware_preset)("orin-sm", 200, &hw) == GPUWCET_OK);
  CHECK(memcmp(&hw, &full, sizeof hw) == 0);
}

int main(void) {
  test_register_count_limit();
  test_size_max_capacities();
  test_sizing_call();
  test_inconsistent_summaries();
  test_preset_sizes();
  printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}
