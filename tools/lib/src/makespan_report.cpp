#include "gpuwcet_tools/makespan_report.hpp"

#include <cstdio>

#include <fmt/format.h>

#include "gpuwcet/makespan_bounds.hpp"
#include "gpuwcet/makespan_search.hpp"
#include "gpuwcet_tools/tool_error.hpp"

namespace gpuwcet::tools {

MakespanMethod parse_method(const std::string& text) {
  if (text == "pessimistic") return MakespanMethod::pessimistic;
  if (text == "paper") return MakespanMethod::paper;
  if (text == "exact") return MakespanMethod::exact;
  throw ToolError(fmt::format("unknown method '{}' (expected exact, pessimistic or paper)", text));
}

const char* method_name(MakespanMethod method) {
  switch (method) {
    case MakespanMethod::pessimistic: return "pessimistic";
    case MakespanMethod::paper: return "paper";
    case MakespanMethod::exact: return "exact";
  }
  return "?";
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

namespace {

void print_progress(const SearchProgress& p, void*) {
  std::fprintf(stderr, "search: %llu nodes, longest schedule so far %llu cycles\n",
               static_cast<unsigned long long>(p.nodes),
               static_cast<unsigned long long>(p.lower_bound));
}

void run_search(const MakespanProblem& problem, const ValidatedProblem& v,
                const SearchSettings& settings, MakespanReport& r) {
  std::vector<std::uint8_t> instr(v.shape.length);
  std::size_t n = 0;
  Status st = transform_to_classes(v.sm, problem.kernel, instr, n);
  if (st != Status::ok) throw ToolError(status_message(st));
  MakespanInstance in;
  in.instr = instr;
  in.class_count = v.shape.class_count;
  in.capacity = v.shape.capacity;
  in.warps = problem.warps;
  SearchOptions options;
  options.max_nodes = settings.budget_nodes;
  options.memo_entries = 1u << 22;
  if (settings.progress) options.progress = print_progress;
  std::size_t bytes = 0;
  st = makespan_search_arena_bytes(in, options, bytes);
  if (st == Status::kernel_too_long) {
    throw ToolError(fmt::format("the exact search supports at most {} transformed instructions "
                                "and {} warps",
                                kMaxSearchLength, kMaxSearchWarps));
  }
  if (st != Status::ok) throw ToolError(fmt::format("search: {}", status_message(st)));
  std::vector<std::byte> arena(bytes);
  r.schedule.assign(static_cast<std::size_t>(r.safe_pessimistic * v.shape.length), 0);
  SearchResult result;
  st = search_worst_makespan(in, options, arena, result, r.schedule);
  if (!has_result(st)) throw ToolError(fmt::format("search: {}", status_message(st)));
  r.method_used = "search";
  r.lower_bound = result.lower_bound;
  r.upper_bound = result.upper_bound;
  r.makespan = result.upper_bound;
  r.exact = result.exact;
  r.safe = true;
  r.nodes = result.nodes;
  r.schedule_cycles = result.schedule_cycles;
  r.schedule.resize(static_cast<std::size_t>(r.schedule_cycles * v.shape.length));
}

// Gives warps identities: per position, a FIFO of the warps standing there.
std::vector<std::vector<std::uint64_t>> warp_cycles(const ValidatedProblem& v,
                                                    const MakespanReport& r,
                                                    std::uint64_t warps) {
  const std::size_t len = static_cast<std::size_t>(v.shape.length);
  std::vector<std::vector<std::uint64_t>> at(len + 1);
  for (std::uint64_t w = 0; w < warps; ++w) at[0].push_back(w);
  std::vector<std::vector<std::uint64_t>> cycle_of(warps);
  for (std::uint64_t t = 0; t < r.schedule_cycles; ++t) {
    std::vector<std::vector<std::uint64_t>> moved(len + 1);
    for (std::size_t k = 0; k < len; ++k) {
      const std::uint32_t x = r.schedule[static_cast<std::size_t>(t) * len + k];
      for (std::uint32_t i = 0; i < x && !at[k].empty(); ++i) {
        const std::uint64_t w = at[k].front();
        at[k].erase(at[k].begin());
        cycle_of[w].push_back(t + 1);
        moved[k + 1].push_back(w);
      }
    }
    for (std::size_t k = 1; k <= len; ++k) {
      at[k].insert(at[k].end(), moved[k].begin(), moved[k].end());
    }
  }
  return cycle_of;
}

}  // namespace

std::string gantt(const ValidatedProblem& v, const MakespanReport& r, std::uint64_t warps) {
  const auto cycle_of = warp_cycles(v, r, warps);
  std::string out = fmt::format("schedule ({} cycles; row = warp, column = cycle):\n",
                                r.schedule_cycles);
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
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& cycles : warp_cycles(v, r, warps)) rows.push_back(cycles);
  return nlohmann::json{{"cycles", r.schedule_cycles}, {"instruction_cycles", rows}};
}

MakespanReport compute_makespan(const MakespanProblem& problem, const ValidatedProblem& v,
                                MakespanMethod method, const SearchSettings& search) {
  MakespanReport r;
  r.method = method;
  std::uint64_t x = 0;
  Status st = safe_pessimistic_makespan(v.shape, problem.warps, x);
  r.safe_pessimistic = checked(st, x, "safe pessimistic bound");
  st = paper_pessimistic_estimate(v.shape, problem.warps, x);
  r.paper_estimate = checked(st, x, "paper's estimate");
  st = makespan_lower_bound(v.shape, problem.warps, x);
  r.lower_bound = checked(st, x, "lower bound");
  r.upper_bound = r.safe_pessimistic;
  switch (method) {
    case MakespanMethod::pessimistic:
      r.method_used = "pessimistic";
      r.makespan = r.safe_pessimistic;
      r.safe = true;
      break;
    case MakespanMethod::paper:
      r.method_used = "paper";
      r.makespan = r.paper_estimate;
      r.safe = false;
      break;
    case MakespanMethod::exact:
      run_search(problem, v, search, r);
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
  return nlohmann::json{
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
      {"nodes", r.nodes},
      {"paper_estimate", {{"makespan", r.paper_estimate}, {"equations", "5-7"}, {"safe", false}}},
  };
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
  out += fmt::format("transformed kernel  {}  (warps served per cycle: {})\n",
                     v.transformed_kernel, caps);
  out += fmt::format("makespan            {} cycles  [method {}, {}{}]\n", r.makespan,
                     r.method_used, r.safe ? "safe upper bound" : "NOT a safe bound",
                     r.exact ? ", exact" : "");
  out += fmt::format("bounds              {} <= worst case <= {} cycles\n", r.lower_bound,
                     r.upper_bound);
  out += fmt::format("paper's estimate    {} cycles  (Eqs. 5-7; unsafe when some sigma > 1)\n",
                     r.paper_estimate);
  return out;
}

}  // namespace gpuwcet::tools
