#include "gpuwcet_tools/makespan_report.hpp"

#include <fmt/format.h>

#include "gpuwcet/makespan_bounds.hpp"
#include "gpuwcet_tools/tool_error.hpp"

namespace gpuwcet::tools {

MakespanMethod parse_method(const std::string& text) {
  if (text == "pessimistic") return MakespanMethod::pessimistic;
  if (text == "paper") return MakespanMethod::paper;
  throw ToolError(fmt::format("unknown method '{}' (expected pessimistic or paper)", text));
}

const char* method_name(MakespanMethod method) {
  switch (method) {
    case MakespanMethod::pessimistic: return "pessimistic";
    case MakespanMethod::paper: return "paper";
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

MakespanReport compute_makespan(const MakespanProblem& problem, const ValidatedProblem& v,
                                MakespanMethod method) {
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
