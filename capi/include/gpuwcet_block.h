/*
 * gpuwcet: multi-phase analysis of a thread block (Jeanmougin, Carle,
 * Rochange, ECRTS 2025). C99; included by gpuwcet.h. Model, proofs and
 * figures: docs/multiphase.md.
 *
 * 1. Describe the functional units (gpuwcet_hardware_preset or by hand).
 * 2. Profile each warp's instruction sequence (gpuwcet_profile_warp,
 *    Algorithm 1): execution / idle phases and one summary per barrier
 *    section. Store the summaries (offline, e.g. in a profile).
 * 3. At admission time, bound the block from the summaries
 *    (gpuwcet_block_bound_from_summaries): O(warps * sections), no memory.
 *    A block of one warp has one schedule: gpuwcet_warp_alone_cycles gives
 *    its exact time.
 */
#ifndef GPUWCET_BLOCK_H
#define GPUWCET_BLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "gpuwcet.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GPUWCET_MAX_FUNCTIONAL_UNITS 32
#define GPUWCET_MAX_RESOURCES 32
#define GPUWCET_UNIT_NAME_SIZE 16
#define GPUWCET_MAX_DESTINATIONS 4
#define GPUWCET_MAX_SOURCES 6
/* Register ids are 16-bit: register_count is at most 65536. */
#define GPUWCET_MAX_REGISTER_COUNT 65536u
/* gpuwcet_functional_unit.resource: a pipeline resource of its own. */
#define GPUWCET_OWN_RESOURCE 0xFFFFu

/* An instruction issued at cycle t enters its unit at its dispatch cycle
 * d >= t + dispatch_delay; the unit's resource accepts nothing else until
 * d + initiation (+ the instruction's extra_cycles); results are written at
 * d + initiation + latency (see gpuwcet_hardware_desc). Units with the same
 * resource block each other (one pipeline, several opcode timings). */

/* gpuwcet_functional_unit.flags bits. */
/* An instruction's extra_cycles lengthen only its hold of the unit, not its
 * result (GPGPU-Sim's shared-memory bank passes). */
#define GPUWCET_UNIT_EXTRA_HOLDS_ONLY 1u
/* Results skip result_delay (GPGPU-Sim's perfect constant cache). */
#define GPUWCET_UNIT_SKIPS_RESULT_DELAY 2u
/* An instruction for the busy unit waits in front of it (in issue order)
 * while its warp goes on issuing; without it the warp does not issue the
 * instruction before the unit can take it. Units of one resource agree. */
#define GPUWCET_UNIT_QUEUED_DISPATCH 4u
typedef struct gpuwcet_functional_unit {
  char name[GPUWCET_UNIT_NAME_SIZE]; /* NUL-terminated, e.g. "int_add" */
  uint32_t initiation;               /* >= 1 */
  uint32_t latency;
  uint16_t resource;                 /* < GPUWCET_MAX_RESOURCES or GPUWCET_OWN_RESOURCE */
  uint16_t flags;                    /* GPUWCET_UNIT_* bits; 0 for none */
} gpuwcet_functional_unit;

/* Pipeline timing around the units. All zero (issue_interval 0 reads as 1)
 * is the paper's model: a warp may issue every cycle, an instruction enters
 * its unit when it issues and its result is written initiation + latency
 * later. The presets carry GPGPU-Sim's values (docs/multiphase.md). The
 * fields after barrier_delay came with version 0.2, collector_units with
 * 0.3: a caller whose struct_size ends before a field gets 0 for it. */
typedef struct gpuwcet_hardware_desc {
  uint32_t struct_size; /* sizeof(gpuwcet_hardware_desc) */
  uint32_t unit_count;  /* 1..GPUWCET_MAX_FUNCTIONAL_UNITS */
  gpuwcet_functional_unit units[GPUWCET_MAX_FUNCTIONAL_UNITS];
  uint32_t issue_interval;     /* 0..2^20: cycles between two issues of one warp */
  uint32_t branch_delay;       /* <= 2^20: further cycles before issuing after a branch */
  uint32_t result_delay;       /* <= 2^20: cycles added to every result */
  uint32_t latency_from_issue; /* 0: result at dispatch + initiation + latency;
                                  1: at dispatch + max(latency, initiation) */
  uint32_t barrier_delay;      /* <= 2^20: cycles from the last drain to a barrier's release;
                                  >= issue_interval also covers a barrier that takes an
                                  issue slot (each warp's own; the others' are charged) */
  uint32_t dispatch_delay;     /* <= 2^20: cycles from an issue to the earliest dispatch */
  uint32_t launch_delay;       /* <= 2^20: cycles before a warp's first issue */
  uint32_t exit_issues;        /* 0: exit takes no issue slot; 1: it issues on its unit (as a
                                  compute instruction) before the warp ends at its drain */
  uint32_t collector_units;    /* <= 64. 0: instructions waiting for a queued unit are served
                                  in issue order; N: each issued instruction holds one of N
                                  operand-collector units until its dispatch, a warp issues
                                  only while one is free, and a queued unit serves its waiting
                                  instructions in any order (docs/multiphase.md, "Operand
                                  collectors") */
} gpuwcet_hardware_desc;

/* Fills *hw with a built-in preset: "rtx3070" (GPGPU-Sim's Ampere RTX 3070)
 * or "orin-sm" (the single-SM Jetson-Orin-like GPGPU-Sim configuration).
 * Units, in index order: int_add int_max int_mul int_mad int_div fp_add
 * fp_max fp_mul fp_mad fp_div dp_add dp_max dp_mul dp_mad dp_div sfu tensor
 * mem mem_shared mem_param branch (21; gpuwcet_find_unit finds each by
 * name); `mem` gets memory_latency, any value (the command-line tools take
 * at most 2^24).
 * Returns GPUWCET_INVALID_ARGUMENT for a NULL hw, GPUWCET_NOT_FOUND for an
 * unknown or NULL name; *hw is then untouched. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_hardware_preset_sized(const char* name,
                                                                  uint32_t memory_latency,
                                                                  gpuwcet_hardware_desc* hw,
                                                                  size_t size);
/* A macro passing the caller's sizeof(gpuwcet_hardware_desc), so that the
 * library writes only the struct the caller has (struct_size = size). A
 * size from before a field the preset sets (collector_units: 0.3) gives
 * GPUWCET_INVALID_ARGUMENT, and *hw untouched: without it the description
 * would be another machine, and its bounds not safe on this one. */
#define gpuwcet_hardware_preset(name, memory_latency, hw) \
  gpuwcet_hardware_preset_sized((name), (memory_latency), (hw), sizeof(gpuwcet_hardware_desc))
/* The function objects compiled against the headers before 0.4.1 call: it
 * writes the layout of 0.3 and 0.4 (objects compiled against 0.2 headers
 * must be recompiled). */
GPUWCET_CHECK_RETURN gpuwcet_status(gpuwcet_hardware_preset)(const char* name,
                                                             uint32_t memory_latency,
                                                             gpuwcet_hardware_desc* hw);

/* Index of the unit called `name` in *hw through *index. Returns
 * GPUWCET_NOT_FOUND when there is none, GPUWCET_INVALID_ARGUMENT for NULL
 * arguments or a bad struct_size. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_find_unit(const gpuwcet_hardware_desc* hw,
                                                      const char* name, uint32_t* index);

typedef enum gpuwcet_op_kind {
  GPUWCET_OP_COMPUTE = 0,
  GPUWCET_OP_LOAD = 1,
  GPUWCET_OP_STORE = 2,   /* completes when it leaves its unit (plus result_delay), and once
                             the registers it writes, if any, are written */
  GPUWCET_OP_BARRIER = 3, /* bar.sync: ends a barrier section; with barrier_delay >= 1 it
                             may take an issue slot, which the summaries charge to the
                             other warps (docs/multiphase.md, "Barriers") */
  GPUWCET_OP_BRANCH = 4,  /* a taken branch: branch_delay applies */
  GPUWCET_OP_EXIT = 5     /* ret/EXIT: the warp ends once its results are written
                             (after issuing on its unit when exit_issues) */
} gpuwcet_op_kind;

/* One dynamic instruction of a warp. Registers are dense ids < register_count. */
typedef struct gpuwcet_instruction {
  uint16_t unit;      /* index into gpuwcet_hardware_desc.units; ignored for barrier/exit */
  uint8_t kind;       /* gpuwcet_op_kind */
  uint8_t dst_count;  /* <= GPUWCET_MAX_DESTINATIONS */
  uint8_t src_count;  /* <= GPUWCET_MAX_SOURCES */
  uint8_t extra_cycles; /* cycles this instance holds its unit beyond the unit's initiation,
                           delaying its result as much unless the unit has
                           GPUWCET_UNIT_EXTRA_HOLDS_ONLY (further transactions of an
                           uncoalesced access, shared-memory bank conflicts); 0 if none */
  uint16_t dst[GPUWCET_MAX_DESTINATIONS];
  uint16_t src[GPUWCET_MAX_SOURCES];
} gpuwcet_instruction;

typedef enum gpuwcet_phase_kind { GPUWCET_PHASE_EXECUTION = 0, GPUWCET_PHASE_IDLE = 1 } gpuwcet_phase_kind;

typedef struct gpuwcet_phase {
  uint64_t start;  /* cycle from the warp's start */
  uint64_t length; /* > 0 */
  uint8_t kind;    /* gpuwcet_phase_kind */
  uint8_t reserved[3]; /* 0 */
  uint32_t section; /* barrier section */
} gpuwcet_phase;

/* What a block bound needs of one warp in one barrier section. The bound is
 * safe for summaries gpuwcet_profile_warp makes from the same description;
 * the block bound checks their consistency only (docs/multiphase.md). */
typedef struct gpuwcet_section_summary {
  uint64_t length;    /* start to drain alone (the sum of the section's phases),
                         plus the warp's own queued holds with collector units */
  uint64_t execution; /* cycles in execution phases */
  uint64_t idle;      /* cycles in idle phases */
  uint64_t issues;    /* issue slots it may take from other warps: one per
                         instruction (dispatch_delay each when collector_units
                         <= dispatch_delay), as many for the barrier ending
                         it when barrier_delay >= 1 */
  uint32_t resource_mask; /* bit r: resource r used (with collector units,
                             every queued resource once it issues) */
  uint32_t phase_count;
  uint64_t held[GPUWCET_MAX_RESOURCES]; /* per resource, the sum of blocking
                                           cycles: initiation + extra - 1, or
                                           initiation + extra when queued */
} gpuwcet_section_summary;

typedef struct gpuwcet_profile_info {
  uint32_t struct_size;    /* sizeof(gpuwcet_profile_info) */
  uint32_t reserved;
  uint64_t total_cycles;   /* warp alone: start to last result written */
  uint64_t phase_count;    /* phases produced (also those not stored) */
  uint64_t section_count;  /* summaries produced (also those not stored) */
  uint64_t instructions;   /* instructions consumed, up to the first exit */
} gpuwcet_profile_info;

/* Sets struct_size; zeroes the rest. Returns GPUWCET_INVALID_ARGUMENT on NULL. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_profile_info_init(gpuwcet_profile_info* info);

/* Arena bytes gpuwcet_profile_warp needs for register ids < register_count:
 * 24 per register plus about 27 KiB for the collector units' state (kept out
 * of the stack; needed only when hw->collector_units is not 0, but always
 * counted). Returns GPUWCET_INVALID_ARGUMENT for a NULL bytes or a
 * register_count above GPUWCET_MAX_REGISTER_COUNT. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_profile_arena_bytes(size_t register_count,
                                                                size_t* bytes);

/* Algorithm 1: phases and section summaries of one warp running
 * instructions[0..count) alone, in linear time. Phases come in time order,
 * each starting at or after the end of the one before, with their sections
 * in order; a section's phases sum to its summary's execution + idle. `phases` may be NULL (with
 * phase_capacity 0): phases are then only counted. `sections` must hold at
 * least barriers + 1 entries. `info` receives the counts even when the
 * phases or sections are too few; `sections` may be NULL with
 * section_capacity 0 to learn them (a sizing call: it returns
 * GPUWCET_BUFFER_TOO_SMALL with info filled).
 * Returns GPUWCET_BUFFER_TOO_SMALL for a small arena (nothing written) or too
 * few phases or sections (the others filled), GPUWCET_NOT_FOUND when an
 * instruction names an unknown unit, GPUWCET_INVALID_ARGUMENT for NULL hw,
 * arena or info, NULL sections with section_capacity > 0, NULL
 * instructions with count > 0, a bad
 * struct_size, an invalid unit table (initiation 0, resource out of range,
 * unit_count 0 or too large), register_count above
 * GPUWCET_MAX_REGISTER_COUNT, a register id >= register_count or operand
 * counts above the maxima, GPUWCET_OVERFLOW when a cycle count leaves 2^62. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_profile_warp(
    const gpuwcet_hardware_desc* hw, const gpuwcet_instruction* instructions, size_t count,
    size_t register_count, void* arena, size_t arena_bytes, gpuwcet_phase* phases,
    size_t phase_capacity, gpuwcet_section_summary* sections, size_t section_capacity,
    gpuwcet_profile_info* info);

/* Cycles from the warp's start to its last result written when it runs
 * instructions[0..count) alone: the exact time of a block of this one warp
 * (one warp has one schedule) when hw->collector_units is 0, and a bound over
 * every service order of the queued units otherwise; at most the block's
 * safe bound. With
 * barriers_drain 1 every barrier waits for the warp's results and this is
 * gpuwcet_profile_warp's total_cycles; with 0 a barrier lets the warp go on
 * barrier_delay cycles after it is free to issue, its results still pending
 * (GPGPU-Sim's bar.sync, which the presets describe: pass 0 with them;
 * docs/multiphase.md, "Barriers that do not drain"). Same arena as
 * gpuwcet_profile_warp, no other memory; *cycles is set only on success.
 * Returns GPUWCET_INVALID_ARGUMENT for NULL hw, arena or cycles, NULL
 * instructions with count > 0, barriers_drain above 1 and the input errors
 * of gpuwcet_profile_warp, GPUWCET_NOT_FOUND for an unknown unit,
 * GPUWCET_BUFFER_TOO_SMALL for a small arena, GPUWCET_OVERFLOW when a cycle
 * count leaves 2^62. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_warp_alone_cycles(
    const gpuwcet_hardware_desc* hw, const gpuwcet_instruction* instructions, size_t count,
    size_t register_count, void* arena, size_t arena_bytes, uint32_t barriers_drain,
    uint64_t* cycles);

typedef struct gpuwcet_block_bound {
  uint32_t struct_size; /* sizeof(gpuwcet_block_bound) */
  uint32_t reserved;
  /* The paper's General Upper Bound. NOT safe on this machine model (a
   * delayed warp's execution phases can stretch; docs/multiphase.md):
   * for comparison only. */
  uint64_t general_upper_bound;
  /* Proven safe for every work-conserving scheduler: use this one. */
  uint64_t safe_upper_bound;
  /* No schedule is shorter (longest warp alone, per section), for a
   * description without collector units on a machine whose barriers drain;
   * with collector units a warp's length bounds every service order, and
   * barriers that do not drain let warps start a section early: then it is
   * no lower bound. */
  uint64_t lower_bound;
} gpuwcet_block_bound;

/* Sets struct_size; zeroes the rest. Returns GPUWCET_INVALID_ARGUMENT on NULL. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_block_bound_init(gpuwcet_block_bound* bound);

/* Bounds a block from its warps' section summaries, laid out warp-major:
 * summaries[w * section_count + s]. Every warp must have section_count
 * sections (the same number of barriers).
 * Returns GPUWCET_ZERO_WARPS for warp_count 0, GPUWCET_INVALID_ARGUMENT for
 * NULL summaries or bound, a bad struct_size, section_count 0 or a
 * warp_count * section_count that does not fit in size_t,
 * GPUWCET_MALFORMED_DATA for a summary gpuwcet_profile_warp cannot have made
 * (held[r] != 0 with bit r clear in its resource_mask while another summary
 * of the section has it set, or execution + idle above length),
 * GPUWCET_OVERFLOW when a bound exceeds 64 bits; *bound is then
 * untouched. */
GPUWCET_CHECK_RETURN gpuwcet_status gpuwcet_block_bound_from_summaries(
    const gpuwcet_section_summary* summaries, size_t warp_count, size_t section_count,
    gpuwcet_block_bound* bound);

#ifdef __cplusplus
}
#endif

#endif /* GPUWCET_BLOCK_H */
