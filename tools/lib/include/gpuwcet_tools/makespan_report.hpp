// Runs a makespan method on a validated problem and renders the answer as
// text or JSON: what `gpuwcet makespan` prints.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuwcet_tools/makespan_problem.hpp"

namespace gpuwcet::tools {

// exact: the search, then (with GLPK) the symmetric ILP when the node budget
// runs out; ilp: GLPK only; approx: Eqs. (42)-(43), never safe.
enum class MakespanMethod { pessimistic, paper, exact, approx, ilp };

// Parses a --method value; throws ToolError listing the accepted ones.
MakespanMethod parse_method(const std::string& text);
const char* method_name(MakespanMethod method);

struct MakespanReport {
  MakespanMethod method = MakespanMethod::pessimistic;
  std::string method_used;       // what produced `makespan`
  std::uint64_t makespan = 0;    // the answer for the method asked
  std::uint64_t lower_bound = 0;
  std::uint64_t upper_bound = 0;
  bool exact = false;
  bool safe = true;
  std::uint64_t safe_pessimistic = 0;  // always computed, for comparison
  // The order-aware closed form min(B1, B2) (docs/makespan-search.md), safe
  // and never above safe_pessimistic; --method pessimistic answers with it.
  std::uint64_t order_aware = 0;
  std::uint64_t paper_estimate = 0;    // Eqs. (5)-(7), never safe in general
  std::uint64_t nodes = 0;             // search expansions (exact and approx methods)
  std::uint64_t steps = 0;             // states generated (exact method's search)
  std::uint64_t approx_group = 0;      // approx: the y of Eq. (43) that reaches the minimum
  bool approx_exact_terms = false;     // approx: every T(y) was exact
  // Worst schedule found, warps advanced per cycle and position (exact method).
  std::vector<std::uint32_t> schedule;
  std::uint64_t schedule_cycles = 0;
  // false: the bounds are exact but the node budget ran out before a worst
  // schedule was rebuilt (Status::schedule_unavailable).
  bool schedule_available = true;
};

struct SearchSettings {
  std::uint64_t budget_nodes = 0;  // 0: no limit
  // States generated, the incumbent schedules' cycles included
  // (SearchOptions::max_steps): bounds the whole search; 0: no limit.
  std::uint64_t budget_steps = 0;
  bool progress = true;            // progress lines on stderr
  std::uint64_t approx_x = 0;      // approx: largest group size y; 0 = min(W, 8)
  double time_limit_seconds = 60;  // ILP time limit (ilp, and the exact method's fallback)
  bool ilp_paper_formulation = false;  // ilp: the paper's binaries instead of counts
  // exact: keep a worst schedule (--schedule). Its buffer holds the safe
  // bound times the transformed length (a gigabyte for 65,535 warps of 64
  // instructions), and rebuilding it spends the node budget: off unless asked.
  bool schedule = false;
};

// Memo entries a search gets (SearchOptions::memo_entries): twice what it
// can store, which is at most one entry per state it meets and per node of
// its budget (0: none), and at most kSearchMemoEntries. A makespan call for a
// few warps of a short kernel so takes kilobytes, not the 54 MB of the
// largest memo.
inline constexpr std::uint64_t kSearchMemoEntries = std::uint64_t{1} << 22;
std::uint64_t search_memo_entries(std::uint64_t budget_nodes, std::uint64_t warps,
                                  std::uint64_t length);
// min(C(warps + length, length), limit + 1): the states of `warps`
// identical warps over a transformed string of `length` instructions (the
// number of warps at each of its length + 1 positions, finished included),
// counted up to just past `limit`.
std::uint64_t search_state_count(std::uint64_t warps, std::uint64_t length, std::uint64_t limit);

// True when the GLPK integer programs are built in.
bool have_ilp();

// Throws ToolError on overflow.
MakespanReport compute_makespan(const MakespanProblem& problem, const ValidatedProblem& v,
                                MakespanMethod method, const SearchSettings& search = {});

// Largest schedule --schedule keeps (entries of cycles x transformed
// instructions, 4 bytes each: 1 GiB; a larger bound refuses --schedule
// before the search), and largest text chart (warps x cycles characters;
// a larger one is replaced by a line saying so, JSON still lists it).
inline constexpr std::uint64_t kMaxScheduleEntries = std::uint64_t{1} << 28;
inline constexpr std::uint64_t kMaxChartCells = std::uint64_t{1} << 26;

// The schedule as a text Gantt chart in the style of the paper's Fig. 2: one
// row per warp, one column per cycle, the symbol executed or '.' when waiting.
std::string gantt(const ValidatedProblem& v, const MakespanReport& report, std::uint64_t warps);
// The same schedule as JSON: per warp, the cycle (from 1) of each instruction.
nlohmann::json schedule_json(const ValidatedProblem& v, const MakespanReport& report,
                             std::uint64_t warps);

nlohmann::json to_json(const MakespanProblem& problem, const ValidatedProblem& v,
                       const MakespanReport& report);
std::string to_text(const MakespanProblem& problem, const ValidatedProblem& v,
                    const MakespanReport& report);

}  // namespace gpuwcet::tools
