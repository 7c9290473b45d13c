// A makespan problem as the host tools hold it: from the command line or a
// TOML configuration file, validated against the core before use.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpuwcet/kernel_string.hpp"
#include "gpuwcet/sm_model.hpp"

namespace gpuwcet::tools {

struct MakespanProblem {
  std::string kernel;
  std::uint64_t warps = 0;
  std::uint32_t warp_size = 32;
  std::vector<std::pair<char, std::uint32_t>> units;  // in the order given
};

// Parses a decimal unsigned integer; `what` names it in the error message.
// Throws ToolError when it is not a number or exceeds `max`.
std::uint64_t parse_unsigned(const std::string& text, const std::string& what,
                             std::uint64_t max = ~std::uint64_t{0});

// Parses "L=16,C=32". Throws ToolError naming the bad item.
std::vector<std::pair<char, std::uint32_t>> parse_units(const std::string& text);

// What a TOML configuration file gives:
//   kernel = "LLCLL"
//   warps = 8
//   warp_size = 32          # default 32
//   [units]
//   L = 16
//   C = 32
// Every key may be absent: the command line completes or overrides the
// file, and only the merged problem must be complete.
struct MakespanConfig {
  std::optional<std::string> kernel;
  std::optional<std::uint64_t> warps;
  std::optional<std::uint32_t> warp_size;
  std::optional<std::vector<std::pair<char, std::uint32_t>>> units;
};

// Throws ToolError with "file:line: message" on any problem.
MakespanConfig load_makespan_config(const std::string& path);

namespace detail {
// load_makespan_config on a file already read, `path` naming it in messages.
MakespanConfig parse_makespan_config(const std::string& path, std::string_view content);
}  // namespace detail

// The problem in the core's terms, fully validated (kernel symbols, classes,
// sizes). Throws ToolError saying exactly what is wrong.
struct ValidatedProblem {
  SmDescription sm;
  TransformedShape shape;
  std::string transformed_kernel;  // e.g. "LLC" for "LC" with L=16, C=32, S=32
};
ValidatedProblem validate(const MakespanProblem& problem);

// validate() without the transformed kernel string (left empty), whose
// length the tools cap only to print it: what a compiled profile's
// makespan model needs.
ValidatedProblem validate_model(const MakespanProblem& problem);

// "1/2", "3", ... for sigma of class index u.
std::string sigma_text(const SmDescription& sm, std::size_t u);

}  // namespace gpuwcet::tools
