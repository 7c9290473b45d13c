// Runs a makespan method on a validated problem and renders the answer as
// text or JSON: what `gpuwcet makespan` prints.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "gpuwcet_tools/makespan_problem.hpp"

namespace gpuwcet::tools {

enum class MakespanMethod { pessimistic, paper };

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
  std::uint64_t paper_estimate = 0;    // Eqs. (5)-(7), never safe in general
};

// Throws ToolError on overflow.
MakespanReport compute_makespan(const MakespanProblem& problem, const ValidatedProblem& v,
                                MakespanMethod method);

nlohmann::json to_json(const MakespanProblem& problem, const ValidatedProblem& v,
                       const MakespanReport& report);
std::string to_text(const MakespanProblem& problem, const ValidatedProblem& v,
                    const MakespanReport& report);

}  // namespace gpuwcet::tools
