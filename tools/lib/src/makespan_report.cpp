#include "gpuwcet_tools/makespan_report.hpp"

#include <algorithm>
#include <cstdio>
#include <deque>

#include <fmt/format.h>

#include "gpuwcet/checked_math.hpp"
#include "gpuwcet/makespan_approx.hpp"
#include "gpuwcet/makespan_bounds.hpp"
#include "gpuwcet/makespan_search.hpp"
#include "gpuwcet_tools/tool_error.hpp"

#ifdef GPUWCET_HAVE_GLPK
#include "gpuwcet_glpk/makespan_ilp.hpp"
#endif

namespace gpuwcet::tools {

MakespanMethod parse_method(const std::string& text) {
  if (text == "pessimistic") return MakespanMethod::pessimistic;
  if (text == "paper") return MakespanMethod::paper;
  if (text == "exact") return MakespanMethod::exact;
  if (text == "approx") return MakespanMethod::approx;
  if (text == "ilp") return MakespanMethod::ilp;
  throw ToolError(fmt::format(
      "unknown method '{}' (expected exact, approx, ilp, pessimistic or paper)", text));
}

const char* method_name(MakespanMethod method) {
  switch (method) {
    case MakespanMethod::pessimistic: return "pessimistic";
    case MakespanMethod::paper: return "paper";
    case MakespanMethod::exact: return "exact";
    case MakespanMethod::approx: return "approx";
    case MakespanMethod::ilp: return "ilp";
  }
  return "?";
}

bool have_ilp() {
#ifdef GPUWCET_HAVE_GLPK
  return true;
#else
  return false;
#endif
}

namespace {
std::uint64_t checked(Status st, std::uint64_t value, const char* what) {
  if (st == Status::overflow) {
    throw ToolError(fmt::format("the {} overflows a 64-bit cycle count", what));
  }
  if (st != Status::ok) throw ToolError(fmt::format("{}: {}", what, status_message(st)));
  return value;
}
}  // namespace

std::uint64_t search_state_count(std::uint64_t warps, std::uint64_t length, std::uint64_t limit) {
  const std::uint64_t k = std::min(warps, length);
  const std::uint64_t m = warps + length;
  std::uint64_t c = 1;
  for (std::uint64_t i = 1; i <= k; ++i) {
    // c = C(m - k + i - 1, i - 1) here, so c * (m - k + i) / i is exact.
    std::uint64_t next = 0;
    if (!checked_mul(c, m - k + i, next)) return limit + 1;
    c = next / i;
    if (c > limit) return limit + 1;
  }
  return c;
}

std::uint64_t search_memo_entries(std::uint64_t budget_nodes, std::uint64_t warps,
                                  std::uint64_t length) {
  // Only an expanded state is stored, once: a node budget never fills more
  // entries than it has nodes, nor a search more than there are states, and
  // the memo (hundreds of megabytes for long kernels) need not be larger
  // than twice the smaller of the two.
  const std::uint64_t largest = kSearchMemoEntries;
  std::uint64_t stored = search_state_count(warps, length, largest / 2);
  if (budget_nodes != 0) stored = std::min(stored, budget_nodes);
  if (stored >= largest / 2) return largest;
  return std::max<std::uint64_t>(2 * stored, 64);
}

namespace {

void print_progress(const SearchProgress& p, void*) {
  std::fprintf(stderr, "search: %llu nodes, %llu <= worst case <= %llu cycles\n",
               static_cast<unsigned long long>(p.nodes),
               static_cast<unsigned long long>(p.lower_bound),
               static_cast<unsigned long long>(p.upper_bound));
}

// The transformed problem as class indices, for the search and the ILP.
struct Instance {
  std::vector<std::uint8_t> instr;
  MakespanInstance in;
};

Instance make_instance(const MakespanProblem& problem, const ValidatedProblem& v,
                       std::uint64_t warps) {
  Instance i;
  i.instr.resize(static_cast<std::size_t>(v.shape.length));
  std::size_t n = 0;
  const Status st = transform_to_classes(v.sm, problem.kernel, i.instr, n);
  if (st != Status::ok) throw ToolError(status_message(st));
  i.in.instr = i.instr;
  i.in.class_count = v.shape.class_count;
  i.in.capacity = v.shape.capacity;
  i.in.warps = warps;
  return i;
}

SearchOptions search_options(const SearchSettings& settings, std::uint64_t warps,
                             std::uint64_t length) {
  SearchOptions options;
  options.max_nodes = settings.budget_nodes;
  options.max_steps = settings.budget_steps;
  // Every expansion but a cut last one generates a state (a step), so a
  // step budget bounds the states stored too.
  std::uint64_t expansions = settings.budget_nodes;
  if (settings.budget_steps != 0 && settings.budget_steps < ~std::uint64_t{0}) {
    const std::uint64_t by_steps = settings.budget_steps + 1;
    expansions = expansions == 0 ? by_steps : std::min(expansions, by_steps);
  }
  options.memo_entries = search_memo_entries(expansions, warps, length);
  if (settings.progress) options.progress = print_progress;
  return options;
}

// `who`: "the exact search" or "the approximation", which runs it on groups
// of warps.
[[noreturn]] void search_failed(Status st, const char* who, const ValidatedProblem& v,
                                std::uint64_t warps) {
  if (st == Status::kernel_too_long) {
    throw ToolError(fmt::format(
        "{} supports at most {} transformed instructions and {} warps (this problem: {} and {}); "
        "--method pessimistic gives a safe bound of any size{}",
        who, kMaxSearchLength, kMaxSearchWarps, v.shape.length, warps,
#ifdef GPUWCET_HAVE_GLPK
        ", --method ilp the integer program"
#else
        ""
#endif
        ));
  }
  throw ToolError(fmt::format("search: {}", status_message(st)));
}

void run_search(const MakespanProblem& problem, const ValidatedProblem& v,
                const SearchSettings& settings, MakespanReport& r) {
  const Instance i = make_instance(problem, v, problem.warps);
  const SearchOptions options = search_options(settings, problem.warps, v.shape.length);
  std::size_t bytes = 0;
  Status st = makespan_search_arena_bytes(i.in, options, bytes);
  if (st != Status::ok) search_failed(st, "the exact search", v, problem.warps);
  std::vector<std::byte> arena(bytes);
  if (settings.schedule) {
    // The core needs the root's upper bound times the length, the bound the
    // report already holds (min of B1 and the order-aware B2).
    std::uint64_t entries = 0;
    if (!checked_mul(r.upper_bound, v.shape.length, entries) || entries > kMaxScheduleEntries) {
      throw ToolError(fmt::format(
          "--schedule: a worst schedule of up to {} cycles of {} transformed instructions is too "
          "large to keep (at most {} entries); leave --schedule out for the bounds alone",
          r.upper_bound, v.shape.length, kMaxScheduleEntries));
    }
    r.schedule.assign(static_cast<std::size_t>(entries), 0);
  }
  SearchResult result;
  st = search_worst_makespan(i.in, options, arena, result, r.schedule);
  if (!has_result(st)) search_failed(st, "the exact search", v, problem.warps);
  r.method_used = "search";
  r.lower_bound = result.lower_bound;
  r.upper_bound = result.upper_bound;
  r.makespan = result.upper_bound;
  r.exact = result.exact;
  r.safe = true;
  r.nodes = result.nodes;
  r.steps = result.steps;
  r.schedule_cycles = result.schedule_cycles;
  r.schedule_available = st != Status::schedule_unavailable;
  r.schedule.resize(static_cast<std::size_t>(r.schedule_cycles * v.shape.length));
}

void run_approx(const MakespanProblem& problem, const ValidatedProblem& v,
                const SearchSettings& settings, MakespanReport& r) {
  const Instance i = make_instance(problem, v, problem.warps);
  const SearchOptions options = search_options(settings, problem.warps, v.shape.length);
  // Default x: the paper's experiments use small groups; 8 keeps T(y) cheap.
  const std::uint64_t x = settings.approx_x != 0 ? settings.approx_x : std::uint64_t{8};
  std::size_t bytes = 0;
  Status st = makespan_approx_arena_bytes(i.in, x, options, bytes);
  if (st != Status::ok) search_failed(st, "the approximation", v, problem.warps);
  std::vector<std::byte> arena(bytes);
  ApproxResult result;
  st = approximate_makespan(i.in, x, options, arena, result);
  if (st == Status::overflow) throw ToolError("the approximation overflows a 64-bit cycle count");
  if (!has_result(st)) search_failed(st, "the approximation", v, problem.warps);
  r.method_used = "approx";
  r.makespan = result.estimate;
  r.safe = false;  // Eqs. (42)-(43) can under-estimate (LCL, W = 4: 8 < 9)
  r.exact = false;
  r.nodes = result.nodes;
  r.approx_group = result.best_group;
  r.approx_exact_terms = result.exact_terms;
}

#ifdef GPUWCET_HAVE_GLPK
// Runs GLPK; returns false (with a reason) when it gave no usable answer.
bool run_ilp(const MakespanProblem& problem, const ValidatedProblem& v,
             const SearchSettings& settings, glpk::IlpFormulation formulation,
             glpk::IlpResult& out, std::string& why) {
  const Instance i = make_instance(problem, v, problem.warps);
  std::vector<std::uint64_t> capacity(v.shape.capacity.begin(),
                                      v.shape.capacity.begin() +
                                          static_cast<std::ptrdiff_t>(v.shape.class_count));
  glpk::IlpOptions options;
  options.formulation = formulation;
  options.time_limit_seconds = settings.time_limit_seconds;
  out = glpk::solve_makespan_ilp(i.instr, capacity, problem.warps, options);
  if (!has_result(out.status)) {
    why = status_message(out.status);
    return false;
  }
  return true;
}

void take_ilp_schedule(const ValidatedProblem& v, const glpk::IlpResult& ilp, MakespanReport& r) {
  const std::size_t len = static_cast<std::size_t>(v.shape.length);
  r.schedule.assign(ilp.advanced_per_cycle.size() * len, 0);
  for (std::size_t t = 0; t < ilp.advanced_per_cycle.size(); ++t) {
    for (std::size_t k = 0; k < len && k < ilp.advanced_per_cycle[t].size(); ++k) {
      r.schedule[t * len + k] = static_cast<std::uint32_t>(ilp.advanced_per_cycle[t][k]);
    }
  }
  r.schedule_cycles = ilp.advanced_per_cycle.size();
}
#endif

// --method ilp: GLPK alone.
void run_ilp_method(const MakespanProblem& problem, const ValidatedProblem& v,
                    const SearchSettings& settings, MakespanReport& r) {
#ifdef GPUWCET_HAVE_GLPK
  glpk::IlpResult ilp;
  std::string why;
  const auto formulation = settings.ilp_paper_formulation ? glpk::IlpFormulation::paper
                                                          : glpk::IlpFormulation::symmetric;
  if (!run_ilp(problem, v, settings, formulation, ilp, why)) {
    throw ToolError(fmt::format("ilp: {}", why));
  }
  r.method_used = "glpk";
  r.lower_bound = std::max(r.lower_bound, ilp.lower_bound);
  r.upper_bound = std::min(r.upper_bound, ilp.upper_bound);
  r.makespan = r.upper_bound;
  r.exact = ilp.status == Status::ok || r.lower_bound == r.upper_bound;
  r.safe = true;
  take_ilp_schedule(v, ilp, r);
#else
  (void)problem;
  (void)v;
  (void)settings;
  (void)r;
  throw ToolError("--method ilp needs GLPK, which this build of gpuwcet does not include "
                  "(configure with -DGPUWCET_GLPK=ON); use --method exact");
#endif
}

// --method exact: the search under the node budget; when it runs out and
// GLPK is built in, the symmetric ILP under --time-limit; the answer keeps
// the best safe bounds of both.
void run_exact(const MakespanProblem& problem, const ValidatedProblem& v,
               const SearchSettings& settings, MakespanReport& r) {
  run_search(problem, v, settings, r);
#ifdef GPUWCET_HAVE_GLPK
  if (r.exact) return;
  glpk::IlpResult ilp;
  std::string why;
  if (!run_ilp(problem, v, settings, glpk::IlpFormulation::symmetric, ilp, why)) {
    if (settings.progress) std::fprintf(stderr, "ilp fallback: %s\n", why.c_str());
    return;
  }
  if (ilp.upper_bound < r.upper_bound) {
    r.upper_bound = ilp.upper_bound;
    r.method_used = "glpk";
  }
  r.lower_bound = std::max(r.lower_bound, ilp.lower_bound);
  // The cut search may have proved a longer schedule than the one it kept
  // (search_worst_makespan: schedule_cycles below lower_bound): GLPK's, when
  // longer, is the better witness, also when its bound only ties.
  if (ilp.advanced_per_cycle.size() > r.schedule_cycles) take_ilp_schedule(v, ilp, r);
  r.makespan = r.upper_bound;
  r.exact = r.lower_bound == r.upper_bound;
#endif
}

// Gives warps identities: per position, a FIFO of the warps standing there.
// Linear in cycles x length plus warps x length (the schedule of 65,535 warps
// runs to millions of cycles).
std::vector<std::vector<std::uint64_t>> warp_cycles(const ValidatedProblem& v,
                                                    const MakespanReport& r,
                                                    std::uint64_t warps) {
  const std::size_t len = static_cast<std::size_t>(v.shape.length);
  std::vector<std::deque<std::uint64_t>> at(len + 1);
  for (std::uint64_t w = 0; w < warps; ++w) at[0].push_back(w);
  std::vector<std::vector<std::uint64_t>> cycle_of(warps);
  std::vector<std::uint64_t> moved;  // warps that left position k this cycle
  std::vector<std::size_t> moved_to;
  for (std::uint64_t t = 0; t < r.schedule_cycles; ++t) {
    moved.clear();
    moved_to.clear();
    for (std::size_t k = 0; k < len; ++k) {
      const std::uint32_t x = r.schedule[static_cast<std::size_t>(t) * len + k];
      for (std::uint32_t i = 0; i < x && !at[k].empty(); ++i) {
        const std::uint64_t w = at[k].front();
        at[k].pop_front();
        cycle_of[w].push_back(t + 1);
        moved.push_back(w);
        moved_to.push_back(k + 1);
      }
    }
    // Arrivals join after the warps already waiting, in position order.
    for (std::size_t i = 0; i < moved.size(); ++i) at[moved_to[i]].push_back(moved[i]);
  }
  return cycle_of;
}

}  // namespace

std::string gantt(const ValidatedProblem& v, const MakespanReport& r, std::uint64_t warps) {
  if (!r.schedule_available) {
    return "schedule: not available (the bounds are exact; the budget ran out while "
           "making a worst schedule: raise --budget-nodes or --budget-steps)\n";
  }
  if (warps > kMaxChartCells / std::max<std::uint64_t>(r.schedule_cycles, 1)) {
    return fmt::format("schedule: {} warps x {} cycles, too large to draw (over {} cells); "
                       "--json with --schedule lists each warp's instruction cycles\n",
                       warps, r.schedule_cycles, kMaxChartCells);
  }
  const auto cycle_of = warp_cycles(v, r, warps);
  std::string out =
      r.schedule_cycles < r.lower_bound
          ? fmt::format("schedule ({} cycles, the longest kept: a schedule of {} exists, whose "
                        "cycles the budget did not keep; raise --budget-nodes or --budget-steps):\n",
                        r.schedule_cycles, r.lower_bound)
          : fmt::format("schedule ({} cycles; row = warp, column = cycle):\n", r.schedule_cycles);
  for (std::uint64_t w = 0; w < warps; ++w) {
    std::string row(static_cast<std::size_t>(r.schedule_cycles), '.');
    for (std::size_t i = 0; i < cycle_of[w].size(); ++i) {
      row[static_cast<std::size_t>(cycle_of[w][i] - 1)] = v.transformed_kernel[i];
    }
    out += fmt::format("  w{:<4} {}\n", w + 1, row);
  }
  return out;
}

nlohmann::json schedule_json(const ValidatedProblem& v, const MakespanReport& r,
                             std::uint64_t warps) {
  if (!r.schedule_available) {
    return nlohmann::json{{"available", false}, {"cycles", nullptr}, {"instruction_cycles", nullptr}};
  }
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& cycles : warp_cycles(v, r, warps)) rows.push_back(cycles);
  // worst: whether this schedule takes the longest time proven to occur
  // (false when a cut search kept a shorter one).
  return nlohmann::json{{"available", true},
                        {"cycles", r.schedule_cycles},
                        {"worst", r.schedule_cycles >= r.lower_bound},
                        {"instruction_cycles", rows}};
}

MakespanReport compute_makespan(const MakespanProblem& problem, const ValidatedProblem& v,
                                MakespanMethod method, const SearchSettings& search) {
  MakespanReport r;
  r.method = method;
  std::uint64_t x = 0;
  Status st = safe_pessimistic_makespan(v.shape, problem.warps, x);
  r.safe_pessimistic = checked(st, x, "safe pessimistic bound");
  {
    const Instance order = make_instance(problem, v, problem.warps);
    st = order_aware_makespan_bound(v.shape, order.instr, problem.warps, x);
    r.order_aware = checked(st, x, "order-aware bound");
  }
  st = paper_pessimistic_estimate(v.shape, problem.warps, x);
  r.paper_estimate = checked(st, x, "paper's estimate");
  st = makespan_lower_bound(v.shape, problem.warps, x);
  r.lower_bound = checked(st, x, "lower bound");
  r.upper_bound = std::min(r.safe_pessimistic, r.order_aware);
  switch (method) {
    case MakespanMethod::pessimistic:
      r.method_used = "pessimistic";
      r.makespan = r.upper_bound;
      r.safe = true;
      break;
    case MakespanMethod::paper:
      r.method_used = "paper";
      r.makespan = r.paper_estimate;
      r.safe = false;
      break;
    case MakespanMethod::exact:
      run_exact(problem, v, search, r);
      return r;
    case MakespanMethod::ilp:
      run_ilp_method(problem, v, search, r);
      return r;
    case MakespanMethod::approx:
      run_approx(problem, v, search, r);
      return r;
  }
  r.exact = r.safe && r.lower_bound == r.upper_bound;
  return r;
}

nlohmann::json to_json(const MakespanProblem& problem, const ValidatedProblem& v,
                       const MakespanReport& r) {
  nlohmann::json units = nlohmann::json::object();
  nlohmann::json sigma = nlohmann::json::object();
  nlohmann::json capacity = nlohmann::json::object();
  for (std::size_t u = 0; u < v.sm.class_count; ++u) {
    const std::string s(1, v.sm.classes[u].symbol);
    units[s] = v.sm.classes[u].units;
    sigma[s] = sigma_text(v.sm, u);
    capacity[s] = v.shape.capacity[u];
  }
  nlohmann::json j{
      {"kernel", problem.kernel},
      {"warps", problem.warps},
      {"warp_size", problem.warp_size},
      {"units", units},
      {"sigma", sigma},
      {"transformed_kernel", v.transformed_kernel},
      {"capacity", capacity},
      {"method", method_name(r.method)},
      {"method_used", r.method_used},
      {"makespan", r.makespan},
      {"lower_bound", r.lower_bound},
      {"upper_bound", r.upper_bound},
      {"exact", r.exact},
      {"safe", r.safe},
      {"safe_pessimistic", r.safe_pessimistic},
      {"order_aware_bound", r.order_aware},
      {"nodes", r.nodes},
      {"steps", r.steps},
      {"paper_estimate", {{"makespan", r.paper_estimate}, {"equations", "5-7"}, {"safe", false}}},
  };
  if (r.method == MakespanMethod::approx) {
    j["approx"] = {{"makespan", r.makespan}, {"equations", "42-43"}, {"group", r.approx_group},
                   {"exact_terms", r.approx_exact_terms}, {"safe", false}};
  }
  return j;
}

std::string to_text(const MakespanProblem& problem, const ValidatedProblem& v,
                    const MakespanReport& r) {
  std::string units;
  std::string caps;
  for (std::size_t u = 0; u < v.sm.class_count; ++u) {
    const char s = v.sm.classes[u].symbol;
    units += fmt::format("{}{}={} (sigma {})", units.empty() ? "" : ", ", s,
                         v.sm.classes[u].units, sigma_text(v.sm, u));
    caps += fmt::format("{}{}:{}", caps.empty() ? "" : " ", s, v.shape.capacity[u]);
  }
  std::string out;
  out += fmt::format("kernel              {}  ({} warps of {} threads)\n", problem.kernel,
                     problem.warps, problem.warp_size);
  out += fmt::format("units               {}\n", units);
  out += fmt::format("transformed kernel  {}  (instructions of it served per cycle: {})\n",
                     v.transformed_kernel, caps);
  out += fmt::format("makespan            {} cycles  [method {}, {}{}]\n", r.makespan,
                     r.method_used, r.safe ? "safe upper bound" : "NOT a safe bound",
                     r.exact ? ", exact" : "");
  out += fmt::format("bounds              {} <= worst case <= {} cycles\n", r.lower_bound,
                     r.upper_bound);
  out += fmt::format("closed-form bounds  {} cycles (B1), {} cycles (order-aware)\n",
                     r.safe_pessimistic, r.order_aware);
  out += fmt::format("paper's estimate    {} cycles  (Eqs. 5-7; unsafe when some sigma > 1)\n",
                     r.paper_estimate);
  if (r.method == MakespanMethod::approx) {
    out += fmt::format("approximation       {} cycles  (Eqs. 42-43, best group y = {}{}; NOT a "
                       "safe bound, use --method exact)\n",
                       r.makespan, r.approx_group,
                       r.approx_exact_terms ? "" : ", some T(y) only bounded");
  }
  return out;
}

}  // namespace gpuwcet::tools
