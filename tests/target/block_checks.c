/* Multi-phase analysis (Jeanmougin et al., ECRTS 2025) on the target:
 * Algorithm 1 over one warp in a static arena, then block bounds from the
 * section summaries alone, as done at admission time. */
#include <stddef.h>
#include <string.h>

#include "gpuwcet.h"
#include "target_check.h"

static unsigned char g_profile_arena[32768];

static gpuwcet_instruction op(uint16_t unit, uint16_t dst, int src) {
  gpuwcet_instruction i;
  memset(&i, 0, sizeof i);
  i.unit = unit;
  i.kind = GPUWCET_OP_COMPUTE;
  i.dst_count = 1;
  i.dst[0] = dst;
  if (src >= 0) {
    i.src_count = 1;
    i.src[0] = (uint16_t)src;
  }
  return i;
}

void target_block_checks(void) {
  /* Example 3 of the paper (its Fig. 2): FU0 (II 2, latency 6), FU1 (3, 4),
   * FU2 (2, 4); i0 on FU0, i1 and i2 on FU1, i3 on FU2 reads i0's result. */
  gpuwcet_hardware_desc hw;
  gpuwcet_instruction code[5];
  gpuwcet_phase phases[8];
  gpuwcet_section_summary sections[3];
  gpuwcet_profile_info info;
  gpuwcet_block_bound b;
  size_t bytes = 0;
  memset(&hw, 0, sizeof hw);
  hw.struct_size = sizeof hw;
  hw.unit_count = 3;
  strcpy(hw.units[0].name, "FU0");
  hw.units[0].initiation = 2;
  hw.units[0].latency = 6;
  strcpy(hw.units[1].name, "FU1");
  hw.units[1].initiation = 3;
  hw.units[1].latency = 4;
  strcpy(hw.units[2].name, "FU2");
  hw.units[2].initiation = 2;
  hw.units[2].latency = 4;
  hw.units[0].resource = hw.units[1].resource = hw.units[2].resource = GPUWCET_OWN_RESOURCE;
  code[0] = op(0, 0, -1);
  code[1] = op(1, 1, -1);
  code[2] = op(1, 2, -1);
  code[3] = op(2, 3, 0);
  memset(&code[4], 0, sizeof code[4]);
  code[4].kind = GPUWCET_OP_EXIT;

  CHECK(gpuwcet_profile_arena_bytes(16, &bytes) == GPUWCET_OK);
  CHECK(bytes <= sizeof g_profile_arena);
  CHECK(gpuwcet_profile_info_init(&info) == GPUWCET_OK);
  if (bytes <= sizeof g_profile_arena) {
    CHECK(gpuwcet_profile_warp(&hw, code, 5, 16, g_profile_arena, bytes, phases, 8, sections, 1,
                               &info) == GPUWCET_OK);
    /* The paper's phases: execution [0,7), idle [7,8), execution [8,10),
     * idle [10,14). */
    CHECK(info.total_cycles == 14 && info.phase_count == 4 && info.section_count == 1);
    CHECK(phases[1].start == 7 && phases[1].length == 1 && phases[1].kind == GPUWCET_PHASE_IDLE);
    CHECK(sections[0].execution == 9 && sections[0].idle == 5 && sections[0].issues == 4);
  }

  /* A caller built against the first release (struct_size ends at
   * barrier_delay) keeps the paper's model whatever follows in memory. */
  if (bytes <= sizeof g_profile_arena) {
    hw.struct_size = (uint32_t)(offsetof(gpuwcet_hardware_desc, barrier_delay) + sizeof(uint32_t));
    hw.dispatch_delay = 7;
    CHECK(gpuwcet_profile_warp(&hw, code, 5, 16, g_profile_arena, bytes, phases, 8, sections, 1,
                               &info) == GPUWCET_OK);
    CHECK(info.total_cycles == 14);
    /* Operand collection (2 cycles) and a queue in front of busy units, by
     * hand: i0 issues at 0, enters FU0 at 2, writes at 2 + 2 + 6 = 10; i1
     * issues at 1, enters FU1 at 3 (busy to 6), writes at 10; i2 issues at
     * 2, waits for FU1 until 6, writes at 13; i3 waits for r0 until 10,
     * enters FU2 at 12 and, with 3 extra cycles, holds it to 17 and writes
     * at 12 + 2 + 4 + 3 = 21. */
    hw.struct_size = sizeof hw;
    hw.dispatch_delay = 2;
    hw.units[0].flags = hw.units[1].flags = hw.units[2].flags = GPUWCET_UNIT_QUEUED_DISPATCH;
    code[3].extra_cycles = 3;
    CHECK(gpuwcet_profile_warp(&hw, code, 5, 16, g_profile_arena, bytes, phases, 8, sections, 1,
                               &info) == GPUWCET_OK);
    CHECK(info.total_cycles == 21);
    /* Collector units (0.3): the units may serve their waiting instructions
     * in any order, and the bound covers every one, the issue order too; a
     * caller built against 0.2 gets none. */
    hw.collector_units = 8;
    CHECK(gpuwcet_profile_warp(&hw, code, 5, 16, g_profile_arena, bytes, phases, 8, sections, 1,
                               &info) == GPUWCET_OK);
    CHECK(info.total_cycles >= 21);
    hw.struct_size = (uint32_t)offsetof(gpuwcet_hardware_desc, collector_units);
    CHECK(gpuwcet_profile_warp(&hw, code, 5, 16, g_profile_arena, bytes, phases, 8, sections, 1,
                               &info) == GPUWCET_OK);
    CHECK(info.total_cycles == 21);
    hw.struct_size = sizeof hw;
    hw.collector_units = 65;
    CHECK(gpuwcet_profile_warp(&hw, code, 5, 16, g_profile_arena, bytes, phases, 8, sections, 1,
                               &info) == GPUWCET_INVALID_ARGUMENT);
    hw.collector_units = 0;
    hw.units[1].flags = 8; /* no such flag */
    CHECK(gpuwcet_profile_warp(&hw, code, 5, 16, g_profile_arena, bytes, phases, 8, sections, 1,
                               &info) == GPUWCET_INVALID_ARGUMENT);
    hw.units[0].flags = hw.units[1].flags = hw.units[2].flags = 0;
    hw.dispatch_delay = 0;
    code[3].extra_cycles = 0;
    CHECK(gpuwcet_profile_warp(&hw, code, 5, 16, g_profile_arena, bytes, phases, 8, sections, 1,
                               &info) == GPUWCET_OK);
    CHECK(info.total_cycles == 14);
  }

  /* A block of one warp, by hand in the paper's model with barrier_delay 1:
   * i0 (FU0, II 2, latency 6) writes r0 at 0 + 2 + 6 = 8; a barrier; i1
   * (FU1, 3, 4) independent; i3 (FU2, 2, 4) reads r0. Drained: the warp
   * reaches the barrier at 8 and is released at 9; then i1 issues at 9
   * (written 16), i3 at 10 (written 16): 16 cycles. Passing: the warp is
   * free to issue at 1 and goes on at 2; i1 issues at 2 (written 9), i3
   * waits for r0 until 8 (written 14): 14 cycles. */
  if (bytes <= sizeof g_profile_arena) {
    gpuwcet_instruction barrier_code[5];
    uint64_t cycles = 0;
    barrier_code[0] = code[0];
    memset(&barrier_code[1], 0, sizeof barrier_code[1]);
    barrier_code[1].kind = GPUWCET_OP_BARRIER;
    barrier_code[2] = code[1];
    barrier_code[3] = code[3];
    barrier_code[4] = code[4];
    hw.barrier_delay = 1;
    CHECK(gpuwcet_warp_alone_cycles(&hw, barrier_code, 5, 16, g_profile_arena, bytes, 1,
                                    &cycles) == GPUWCET_OK);
    CHECK(cycles == 16);
    CHECK(gpuwcet_profile_warp(&hw, barrier_code, 5, 16, g_profile_arena, bytes, phases, 8,
                               sections, 2, &info) == GPUWCET_OK);
    CHECK(info.total_cycles == 16 && info.section_count == 2);
    CHECK(gpuwcet_warp_alone_cycles(&hw, barrier_code, 5, 16, g_profile_arena, bytes, 0,
                                    &cycles) == GPUWCET_OK);
    CHECK(cycles == 14);
    cycles = 7;
    CHECK(gpuwcet_warp_alone_cycles(&hw, barrier_code, 5, 16, g_profile_arena, bytes, 2,
                                    &cycles) == GPUWCET_INVALID_ARGUMENT);
    CHECK(gpuwcet_warp_alone_cycles(&hw, barrier_code, 5, 16, g_profile_arena, 8, 0, &cycles) ==
          GPUWCET_BUFFER_TOO_SMALL);
    CHECK(gpuwcet_warp_alone_cycles(&hw, barrier_code, 5, 16, NULL, bytes, 0, &cycles) ==
          GPUWCET_INVALID_ARGUMENT);
    CHECK(gpuwcet_warp_alone_cycles(&hw, NULL, 5, 16, g_profile_arena, bytes, 0, &cycles) ==
          GPUWCET_INVALID_ARGUMENT);
    barrier_code[2].unit = 9;
    CHECK(gpuwcet_warp_alone_cycles(&hw, barrier_code, 5, 16, g_profile_arena, bytes, 0,
                                    &cycles) == GPUWCET_NOT_FOUND);
    barrier_code[2].unit = 1;
    barrier_code[2].kind = 6; /* no such kind */
    CHECK(gpuwcet_warp_alone_cycles(&hw, barrier_code, 5, 16, g_profile_arena, bytes, 0,
                                    &cycles) == GPUWCET_INVALID_ARGUMENT);
    CHECK(cycles == 7); /* untouched on failure */
    CHECK(gpuwcet_warp_alone_cycles(&hw, barrier_code, 5, 16, g_profile_arena, bytes, 0, NULL) ==
          GPUWCET_INVALID_ARGUMENT);
    hw.barrier_delay = 0;
    /* Back to Example 3's summary for the block bounds below. */
    CHECK(gpuwcet_profile_warp(&hw, code, 5, 16, g_profile_arena, bytes, phases, 8, sections, 1,
                               &info) == GPUWCET_OK);
  }

  /* Unit lookup by name, and the preset's GPGPU-Sim pipeline. */
  {
    gpuwcet_hardware_desc preset;
    uint32_t index = 99;
    CHECK(gpuwcet_find_unit(&hw, "FU2", &index) == GPUWCET_OK && index == 2);
    CHECK(gpuwcet_find_unit(&hw, "FU3", &index) == GPUWCET_NOT_FOUND);
    CHECK(gpuwcet_find_unit(&hw, "a-name-longer-than-fifteen", &index) == GPUWCET_NOT_FOUND);
    CHECK(gpuwcet_find_unit(NULL, "FU2", &index) == GPUWCET_INVALID_ARGUMENT);
    CHECK(gpuwcet_find_unit(&hw, NULL, &index) == GPUWCET_INVALID_ARGUMENT);
    CHECK(gpuwcet_hardware_preset("orin-sm", 200, &preset) == GPUWCET_OK);
    CHECK(gpuwcet_find_unit(&preset, "mem_shared", &index) == GPUWCET_OK);
    CHECK(preset.units[index].flags ==
          (GPUWCET_UNIT_QUEUED_DISPATCH | GPUWCET_UNIT_EXTRA_HOLDS_ONLY));
    CHECK(preset.dispatch_delay == 2 && preset.launch_delay == 3 && preset.exit_issues == 1 &&
          preset.collector_units == 8);
    CHECK(gpuwcet_find_unit(&preset, "mem", &index) == GPUWCET_OK && preset.units[index].latency == 200);
  }

  /* One warp: every bound is its length. Three copies: the paper's GUB adds
   * the others' execution, 14 + 2 * 9; the safe bound adds per other warp its
   * 4 issues and 1 + 4 + 1 held cycles of the units this warp uses: 34. */
  CHECK(gpuwcet_block_bound_init(&b) == GPUWCET_OK);
  CHECK(gpuwcet_block_bound_from_summaries(sections, 1, 1, &b) == GPUWCET_OK);
  CHECK(b.safe_upper_bound == 14 && b.lower_bound == 14);
  sections[1] = sections[0];
  sections[2] = sections[0];
  CHECK(gpuwcet_block_bound_from_summaries(sections, 3, 1, &b) == GPUWCET_OK);
  CHECK(b.general_upper_bound == 32 && b.safe_upper_bound == 34 && b.lower_bound == 14);
  CHECK(gpuwcet_block_bound_from_summaries(sections, 0, 1, &b) == GPUWCET_ZERO_WARPS);
  CHECK(gpuwcet_block_bound_from_summaries(NULL, 3, 1, &b) == GPUWCET_INVALID_ARGUMENT);
  sections[0].length = UINT64_MAX - 1;
  CHECK(gpuwcet_block_bound_from_summaries(sections, 3, 1, &b) == GPUWCET_OVERFLOW);
}
