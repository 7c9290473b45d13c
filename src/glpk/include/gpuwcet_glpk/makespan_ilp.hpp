// Exact worst-case makespan as an integer program solved by GLPK
// (Berezovskyi, Bletsas, Andersson, ECRTS 2012, Sec. 5 and Fig. 3;
// both formulations are written out in docs/makespan-ilp.md).
//
// Host-only: GLPK allocates, so this is its own library (gpuwcet_glpk),
// never part of the core. Nothing here throws.
// NOLINT(core-heap): the result keeps its schedule in vectors, see above.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include <gsl/span>

#include "gpuwcet/kernel_string.hpp"
#include "gpuwcet/sm_model.hpp"
#include "gpuwcet/status.hpp"

namespace gpuwcet::glpk {

enum class IlpFormulation {
  paper,      // one binary per warp, position and cycle (the paper's Fig. 3)
  symmetric,  // one integer count of warps per position and cycle
};

// Models with more columns or constraint non-zeros than this are refused
// with kernel_too_long instead of being built.
inline constexpr std::uint64_t kMaxIlpColumns = 2'000'000;
inline constexpr std::uint64_t kMaxIlpNonzeros = 40'000'000;

struct IlpOptions {
  IlpFormulation formulation = IlpFormulation::symmetric;
  // Wall-clock budget of the whole solve (LP relaxation and branch and bound).
  double time_limit_seconds = 60.0;
  // Cycles the model may use. 0 = the safe pessimistic bound
  // (gpuwcet::safe_pessimistic_makespan). A smaller value, such as the paper's
  // estimate, silently drops every schedule longer than it: the answer is
  // then only the worst makespan among schedules that fit.
  std::uint64_t horizon = 0;
};

struct IlpResult {
  // ok when proven optimal (lower_bound == upper_bound); budget_exhausted
  // when time ran out (bounds still valid); solver_failed, invalid_argument,
  // zero_warps, overflow or kernel_too_long otherwise.
  Status status = Status::solver_failed;
  // Makespan of the schedule in advanced_per_cycle; without a schedule
  // (time ran out before the first one) the trivial lower bound.
  std::uint64_t lower_bound = 0;
  // min(horizon, ceil of the solver's proven bound).
  std::uint64_t upper_bound = 0;
  double seconds = 0;
  // [cycle][position]: warps that executed the instruction at that position
  // in that cycle; lower_bound cycles, or empty when there is no schedule.
  std::vector<std::vector<std::uint64_t>> advanced_per_cycle;  // NOLINT(core-heap)
};

// Worst-case makespan of `warps` warps each running instr[0..I'-1] (class
// indices into `capacity`, capacity[u] = warps class u serves per cycle).
// Returns (in result.status) invalid_argument for an empty string, a class
// index >= capacity.size(), more than kMaxUnitClasses classes, a zero
// capacity or a non-positive time limit; zero_warps for warps == 0; overflow
// when the safe bound does not fit in 64 bits; kernel_too_long when the model
// would exceed kMaxIlpColumns / kMaxIlpNonzeros; solver_failed when GLPK
// gives no usable answer (also when a caller-given horizon admits no schedule).
IlpResult solve_makespan_ilp(gsl::span<const std::uint8_t> instr,
                             gsl::span<const std::uint64_t> capacity, std::uint64_t warps,
                             const IlpOptions& options);

// The same for a kernel string of the SM model, transformed here (shape from
// analyze_kernel): the class-index copy of a string of up to kMaxIlpColumns
// instructions is allocated in this library, which catches an allocation
// failure (solver_failed), so that callers built without exceptions (the C
// API) allocate nothing themselves.
IlpResult solve_kernel_makespan_ilp(const SmDescription& sm, std::string_view kernel,
                                    const TransformedShape& shape, std::uint64_t warps,
                                    const IlpOptions& options);

}  // namespace gpuwcet::glpk
