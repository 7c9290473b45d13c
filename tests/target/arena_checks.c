/* Caller memory on the target: the core takes its working memory from the
 * caller (an arena) and writes its results into the caller's arrays, so what
 * those held before a call must never change a result. Random warps (both
 * presets, collector units and pipeline delays varied) are profiled, and
 * random makespan problems searched exactly and approximated, with the
 * arena and the result arrays first zeroed, then filled with 0xFF, then
 * poisoned: every result, phase, summary and schedule must be the same to
 * the byte. Under MemorySanitizer (scripts/test.sh) "poisoned"
 * marks the bytes uninitialised, so a read of a byte the call has not written
 * is reported where it happens, and the results are checked to be written
 * whole, reserved fields included. Output structs are filled the same way
 * past what their _init sets, so a field a call leaves unwritten shows too.
 * Elsewhere "poisoned" is one more fill pattern. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gpuwcet.h"
#include "target_check.h"

#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#include <sanitizer/msan_interface.h>
#define GPUWCET_MSAN 1
#endif
#endif

enum {
  kWarps = 2000,
  kMaxLength = 320,  /* instructions per warp, exit included */
  kRegisters = 40,
  kPhases = 2 * kMaxLength + 2,
  kSections = 8, /* barriers + 1: at most 3 */
  kFills = 3,
  kProblems = 300,
  kScheduleEntries = 2048
};

/* 32-bit state: the Cortex-M has no 64-bit multiply in one instruction, and
 * a fixed sequence keeps every target on the same cases. */
static uint32_t g_state = 0x9E3779B9u;
static uint32_t next_random(void) {
  g_state ^= g_state << 13;
  g_state ^= g_state >> 17;
  g_state ^= g_state << 5;
  return g_state;
}
static uint32_t below(uint32_t n) { return next_random() % n; }

static gpuwcet_instruction g_code[kMaxLength];
static unsigned char g_arena[32768];
static gpuwcet_phase g_phases[kPhases];
static gpuwcet_section_summary g_sections[kSections];
static uint32_t g_schedule[kScheduleEntries];
static uint32_t g_first_schedule[kScheduleEntries];
/* The results of the first fill, compared with the others'. */
static gpuwcet_phase g_first_phases[kPhases];
static gpuwcet_section_summary g_first_sections[kSections];

static void fill(void* p, size_t n, int pattern) {
  if (pattern == 2) {
#ifdef GPUWCET_MSAN
    __msan_poison(p, n);
#else
    memset(p, 0x5A, n);
#endif
    return;
  }
  memset(p, pattern == 0 ? 0x00 : 0xFF, n);
}

/* An output struct after its _init: everything past its first `header`
 * bytes (struct_size and what _init alone sets) filled like the arrays, so
 * that a field the call leaves unwritten shows in the comparison and, under
 * MemorySanitizer, as unwritten. */
static void fill_fields(void* p, size_t n, size_t header, int pattern) {
  fill((unsigned char*)p + header, n - header, pattern);
}

/* Results written whole: under MemorySanitizer, no byte left poisoned. */
static int written(const void* p, size_t n) {
#ifdef GPUWCET_MSAN
  return n == 0 || __msan_test_shadow(p, n) == -1;
#else
  (void)p;
  (void)n;
  return 1;
#endif
}

static int random_hardware(gpuwcet_hardware_desc* hw) {
  static const uint32_t latencies[] = {5, 200, 400};
  /* Drawn in sequence: the order of a call's arguments is unspecified. */
  const char* preset = below(2) ? "rtx3070" : "orin-sm";
  const uint32_t latency = latencies[below(3)];
  if (gpuwcet_hardware_preset(preset, latency, hw) != GPUWCET_OK) return 0;
  switch (below(4)) {
    case 0:
      hw->collector_units = 0; /* issue order */
      break;
    case 1:
      hw->collector_units = 1 + below(64);
      hw->dispatch_delay = below(6);
      hw->issue_interval = 1 + below(3);
      break;
    default:
      break; /* the preset as it is */
  }
  return 1;
}

/* A warp of `length` instructions (the last an exit) with `barriers` barriers. */
static void random_warp(const gpuwcet_hardware_desc* hw, size_t length, size_t barriers) {
  uint32_t mem = 0;
  size_t i;
  if (gpuwcet_find_unit(hw, "mem", &mem) != GPUWCET_OK) mem = 0;
  for (i = 0; i + 1 < length; ++i) {
    gpuwcet_instruction* ins = &g_code[i];
    uint32_t k;
    memset(ins, 0, sizeof *ins);
    if (barriers != 0 && below((uint32_t)(length - 1 - i)) < barriers) {
      ins->kind = GPUWCET_OP_BARRIER;
      --barriers;
      continue;
    }
    ins->unit = (uint16_t)(below(3) == 0 ? mem : below(hw->unit_count));
    if (ins->unit == mem) {
      ins->kind = (uint8_t)(below(3) == 0 ? GPUWCET_OP_STORE : GPUWCET_OP_LOAD);
      if (below(3) == 0) ins->extra_cycles = (uint8_t)below(40);
    } else if (below(30) == 0) {
      ins->kind = GPUWCET_OP_BRANCH;
    }
    ins->dst_count = (uint8_t)(ins->kind == GPUWCET_OP_STORE ? 0 : below(3));
    ins->src_count = (uint8_t)below(GPUWCET_MAX_SOURCES + 1);
    for (k = 0; k < ins->dst_count; ++k) ins->dst[k] = (uint16_t)below(kRegisters);
    for (k = 0; k < ins->src_count; ++k) ins->src[k] = (uint16_t)below(kRegisters);
  }
  memset(&g_code[length - 1], 0, sizeof g_code[0]);
  g_code[length - 1].kind = GPUWCET_OP_EXIT;
}

void target_arena_checks(void) {
  size_t bytes = 0;
  int w;
  int mismatches = 0;
  int failures = 0;
  CHECK(gpuwcet_profile_arena_bytes(kRegisters, &bytes) == GPUWCET_OK);
  CHECK(bytes <= sizeof g_arena);
  if (bytes > sizeof g_arena) return;
  for (w = 0; w < kWarps; ++w) {
    gpuwcet_hardware_desc hw;
    gpuwcet_profile_info first;
    uint64_t first_alone[2] = {0, 0};
    const size_t length = 1 + below(below(4) == 0 ? kMaxLength : 40);
    const size_t barriers = below(3);
    int f;
    if (!random_hardware(&hw)) {
      ++failures;
      continue;
    }
    random_warp(&hw, length, length > barriers ? barriers : 0);
    memset(&first, 0, sizeof first);
    for (f = 0; f < kFills; ++f) {
      gpuwcet_profile_info info;
      uint64_t alone[2];
      uint32_t drain;
      size_t stored_phases;
      size_t stored_sections;
      fill(g_phases, sizeof g_phases, f);
      fill(g_sections, sizeof g_sections, f);
      fill(g_arena, bytes, f);
      if (gpuwcet_profile_info_init(&info) != GPUWCET_OK) {
        ++failures;
        break;
      }
      fill_fields(&info, sizeof info, offsetof(gpuwcet_profile_info, total_cycles), f);
      if (gpuwcet_profile_warp(&hw, g_code, length, kRegisters, g_arena, bytes, g_phases,
                               kPhases, g_sections, kSections, &info) != GPUWCET_OK) {
        ++failures;
        break;
      }
      stored_phases = (size_t)info.phase_count;
      stored_sections = (size_t)info.section_count;
      if (stored_phases > kPhases || stored_sections > kSections ||
          !written(g_phases, stored_phases * sizeof g_phases[0]) ||
          !written(g_sections, stored_sections * sizeof g_sections[0]) ||
          !written(&info, sizeof info)) {
        ++failures;
        break;
      }
      for (drain = 0; drain < 2; ++drain) {
        fill(g_arena, bytes, f);
        fill(&alone[drain], sizeof alone[drain], f);
        if (gpuwcet_warp_alone_cycles(&hw, g_code, length, kRegisters, g_arena, bytes, drain,
                                      &alone[drain]) != GPUWCET_OK ||
            !written(&alone[drain], sizeof alone[drain])) {
          ++failures;
          alone[drain] = 0;
        }
      }
      if (f == 0) {
        first = info;
        first_alone[0] = alone[0];
        first_alone[1] = alone[1];
        memcpy(g_first_phases, g_phases, stored_phases * sizeof g_phases[0]);
        memcpy(g_first_sections, g_sections, stored_sections * sizeof g_sections[0]);
      } else if (memcmp(&info, &first, sizeof info) != 0 || alone[0] != first_alone[0] ||
                 alone[1] != first_alone[1] ||
                 memcmp(g_phases, g_first_phases, stored_phases * sizeof g_phases[0]) != 0 ||
                 memcmp(g_sections, g_first_sections, stored_sections * sizeof g_sections[0]) !=
                     0) {
        ++mismatches;
        printf("arena checks: warp %d (%u instructions) differs with fill %d\n", w,
               (unsigned)length, f);
      }
    }
  }
  CHECK(failures == 0);
  CHECK(mismatches == 0);
}

/* One makespan problem with arena and schedule buffer filled by `f`: the
 * exact search (with a worst schedule) and the approximation. Returns 0 when
 * a call fails or leaves a result byte unwritten. */
static int search_once(const gpuwcet_sm_desc* sm, const char* kernel, size_t len, uint64_t warps,
                       const gpuwcet_search_options* opts, size_t bytes, size_t entries, int f,
                       gpuwcet_makespan_result* exact, gpuwcet_search_stats* stats,
                       gpuwcet_makespan_result* approx, uint64_t* group) {
  gpuwcet_status st;
  fill(g_arena, bytes, f);
  fill(g_schedule, sizeof g_schedule, f);
  if (gpuwcet_makespan_result_init(exact) != GPUWCET_OK ||
      gpuwcet_search_stats_init(stats) != GPUWCET_OK ||
      gpuwcet_makespan_result_init(approx) != GPUWCET_OK) {
    return 0;
  }
  fill_fields(exact, sizeof *exact, offsetof(gpuwcet_makespan_result, method), f);
  fill_fields(stats, sizeof *stats, offsetof(gpuwcet_search_stats, nodes), f);
  fill_fields(approx, sizeof *approx, offsetof(gpuwcet_makespan_result, method), f);
  st = gpuwcet_makespan_search(sm, kernel, len, warps, opts, g_arena, bytes, exact, g_schedule,
                               entries, stats);
  if (st != GPUWCET_OK && st != GPUWCET_BUDGET_EXHAUSTED && st != GPUWCET_SCHEDULE_UNAVAILABLE) {
    return 0;
  }
  if (!written(exact, sizeof *exact) || !written(stats, sizeof *stats) ||
      stats->schedule_cycles * stats->transformed_length > entries ||
      !written(g_schedule, (size_t)(stats->schedule_cycles * stats->transformed_length) *
                               sizeof g_schedule[0])) {
    return 0;
  }
  fill(group, sizeof *group, f);
  fill(g_arena, bytes, f);
  st = gpuwcet_makespan_approx(sm, kernel, len, warps, warps < 3 ? warps : 3, opts, g_arena, bytes,
                               approx, group);
  return (st == GPUWCET_OK || st == GPUWCET_BUDGET_EXHAUSTED) && written(approx, sizeof *approx) &&
         written(group, sizeof *group);
}

void target_search_arena_checks(void) {
  static const uint32_t l_units[] = {8, 16, 32, 64};
  static const uint32_t c_units[] = {16, 32, 64};
  int p;
  int mismatches = 0;
  int failures = 0;
  int searched = 0;
  for (p = 0; p < kProblems; ++p) {
    gpuwcet_sm_desc sm;
    gpuwcet_search_options opts;
    char kernel[8];
    const size_t len = 1 + below(6);
    const uint64_t warps = 1 + below(6);
    size_t bytes = 0;
    size_t approx_bytes = 0;
    size_t entries = 0;
    size_t k;
    int f;
    gpuwcet_makespan_result first_exact;
    gpuwcet_makespan_result first_approx;
    gpuwcet_search_stats first_stats;
    uint64_t first_group = 0;
    memset(&first_exact, 0, sizeof first_exact);
    memset(&first_approx, 0, sizeof first_approx);
    memset(&first_stats, 0, sizeof first_stats);
    for (k = 0; k < len; ++k) kernel[k] = below(2) ? 'L' : 'C';
    kernel[len] = 0;
    if (gpuwcet_sm_init(&sm, 32) != GPUWCET_OK ||
        gpuwcet_sm_add_class(&sm, 'L', l_units[below(4)]) != GPUWCET_OK ||
        gpuwcet_sm_add_class(&sm, 'C', c_units[below(3)]) != GPUWCET_OK ||
        gpuwcet_search_options_init(&opts) != GPUWCET_OK) {
      ++failures;
      continue;
    }
    opts.memo_entries = 1024;
    opts.max_nodes = 20000; /* bounded time on the target; a budget is a result too */
    if (gpuwcet_makespan_search_arena_bytes(&sm, kernel, len, warps, &opts, &bytes) !=
            GPUWCET_OK ||
        gpuwcet_makespan_approx_arena_bytes(&sm, kernel, len, warps, warps < 3 ? warps : 3, &opts,
                                            &approx_bytes) != GPUWCET_OK ||
        gpuwcet_makespan_schedule_entries(&sm, kernel, len, warps, &entries) != GPUWCET_OK) {
      ++failures;
      continue;
    }
    if (approx_bytes > bytes) bytes = approx_bytes;
    if (bytes > sizeof g_arena || entries > kScheduleEntries) continue; /* too big here */
    ++searched;
    for (f = 0; f < kFills; ++f) {
      gpuwcet_makespan_result exact;
      gpuwcet_makespan_result approx;
      gpuwcet_search_stats stats;
      uint64_t group = 0;
      size_t cells;
      if (!search_once(&sm, kernel, len, warps, &opts, bytes, entries, f, &exact, &stats, &approx,
                       &group)) {
        ++failures;
        break;
      }
      cells = (size_t)(stats.schedule_cycles * stats.transformed_length);
      if (f == 0) {
        first_exact = exact;
        first_stats = stats;
        first_approx = approx;
        first_group = group;
        memcpy(g_first_schedule, g_schedule, cells * sizeof g_schedule[0]);
      } else if (memcmp(&exact, &first_exact, sizeof exact) != 0 ||
                 memcmp(&stats, &first_stats, sizeof stats) != 0 ||
                 memcmp(&approx, &first_approx, sizeof approx) != 0 || group != first_group ||
                 memcmp(g_schedule, g_first_schedule, cells * sizeof g_schedule[0]) != 0) {
        ++mismatches;
        printf("arena checks: %s, %u warps differs with fill %d\n", kernel, (unsigned)warps, f);
      }
    }
  }
  CHECK(failures == 0);
  CHECK(mismatches == 0);
  CHECK(searched >= kProblems / 2); /* the arena holds most of them */
}
