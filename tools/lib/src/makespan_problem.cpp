#include "gpuwcet_tools/makespan_problem.hpp"

#include <algorithm>
#include <charconv>
#include <limits>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "gpuwcet_tools/file_io.hpp"
#include "gpuwcet_tools/tool_error.hpp"
#include "gpuwcet_tools/trace_parsing.hpp"

namespace gpuwcet::tools {

namespace {

// Blanks around the number are allowed (`--warps " 8"`, `L=16, C=32`), as
// in every list the command line takes; a sign, a base prefix or anything
// else is not.
std::uint64_t parse_u64(const std::string& text, const std::string& what) {
  std::uint64_t value = 0;
  const std::string_view digits = detail::trim(text);
  const char* first = digits.data();
  const char* last = digits.data() + digits.size();
  const auto [ptr, ec] = std::from_chars(first, last, value);
  if (ec == std::errc::result_out_of_range) {
    throw ToolError(fmt::format("{} '{}' does not fit in 64 bits", what, text));
  }
  if (ec != std::errc() || ptr != last || digits.empty()) {
    throw ToolError(fmt::format("{} '{}' is not a non-negative integer", what, text));
  }
  return value;
}

std::string where(const std::string& path, const toml::source_region& region) {
  return fmt::format("{}:{}", path, region.begin.line);
}

}  // namespace

std::uint64_t parse_unsigned(const std::string& text, const std::string& what,
                             std::uint64_t max) {
  const std::uint64_t v = parse_u64(text, what);
  if (v > max) throw ToolError(fmt::format("{} {} exceeds {}", what, v, max));
  return v;
}

std::vector<std::pair<char, std::uint32_t>> parse_units(const std::string& text) {
  std::vector<std::pair<char, std::uint32_t>> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::string item(detail::trim(std::string_view(text).substr(
        start, comma == std::string::npos ? std::string::npos : comma - start)));
    const std::size_t eq = item.find('=');
    if (eq != 1 || !is_class_symbol(item[0])) {
      throw ToolError(fmt::format(
          "unit item '{}' is not of the form X=N with X a capital letter (e.g. L=16)", item));
    }
    const std::uint64_t n = parse_u64(item.substr(2), fmt::format("unit count of {}", item[0]));
    if (n > std::numeric_limits<std::uint32_t>::max()) {
      throw ToolError(fmt::format("unit count of {} ({}) exceeds 2^32-1", item[0], n));
    }
    out.emplace_back(item[0], static_cast<std::uint32_t>(n));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

MakespanConfig load_makespan_config(const std::string& path) {
  return detail::parse_makespan_config(path, read_text_file(path));
}

MakespanConfig detail::parse_makespan_config(const std::string& path, std::string_view content) {
  toml::table doc;
  try {
    doc = toml::parse(content, path);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    if (b.line == 0) throw ToolError(fmt::format("{}: {}", path, e.description()));
    throw ToolError(fmt::format("{}:{}:{}: {}", path, b.line, b.column, e.description()));
  }
  MakespanConfig p;
  for (const auto& [key, node] : doc) {
    const std::string k(key.str());
    if (k != "kernel" && k != "warps" && k != "warp_size" && k != "units") {
      throw ToolError(fmt::format("{}: unknown key '{}' (expected kernel, warps, warp_size, units)",
                                  where(path, node.source()), k));
    }
  }
  auto optional_uint = [&](const char* key) -> std::optional<std::uint64_t> {
    const toml::node* n = doc.get(key);
    if (n == nullptr) return std::nullopt;
    const auto* v = n->as_integer();
    if (v == nullptr || v->get() < 0) {
      throw ToolError(fmt::format("{}: '{}' must be a non-negative integer",
                                  where(path, n->source()), key));
    }
    return static_cast<std::uint64_t>(v->get());
  };
  if (const toml::node* kernel = doc.get("kernel")) {
    if (!kernel->is_string()) {
      throw ToolError(fmt::format("{}: 'kernel' must be a string such as \"LLCLL\"",
                                  where(path, kernel->source())));
    }
    p.kernel = kernel->as_string()->get();
  }
  p.warps = optional_uint("warps");
  if (const auto ws = optional_uint("warp_size")) {
    if (*ws > std::numeric_limits<std::uint32_t>::max()) {
      throw ToolError(fmt::format("{}: 'warp_size' exceeds 2^32-1",
                                  where(path, doc.get("warp_size")->source())));
    }
    p.warp_size = static_cast<std::uint32_t>(*ws);
  }
  const toml::node* units = doc.get("units");
  if (units == nullptr) return p;
  const toml::table* table = units->as_table();
  if (table == nullptr) {
    throw ToolError(fmt::format("{}: 'units' must be a table such as [units] L = 16",
                                where(path, units->source())));
  }
  std::vector<toml::source_index> unit_lines;
  std::vector<std::pair<char, std::uint32_t>> listed;
  for (const auto& [key, node] : *table) {
    const std::string k(key.str());
    if (k.size() != 1 || !is_class_symbol(k[0])) {
      throw ToolError(fmt::format("{}: unit class '{}' must be one capital letter",
                                  where(path, node.source()), k));
    }
    const auto* v = node.as_integer();
    if (v == nullptr || v->get() < 0 ||
        static_cast<std::uint64_t>(v->get()) > std::numeric_limits<std::uint32_t>::max()) {
      throw ToolError(fmt::format("{}: units of class {} must be an integer in [0, 2^32-1]",
                                  where(path, node.source()), k));
    }
    listed.emplace_back(k[0], static_cast<std::uint32_t>(v->get()));
    unit_lines.push_back(node.source().begin.line);
  }
  // toml++ iterates a table by key; keep the classes in the order of the file,
  // which is the order of the class indices everywhere else.
  std::vector<std::size_t> order(listed.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return unit_lines[a] < unit_lines[b]; });
  p.units.emplace();
  for (const std::size_t i : order) p.units->push_back(listed[i]);
  return p;
}

ValidatedProblem validate_model(const MakespanProblem& problem) {
  ValidatedProblem v;
  v.sm.warp_size = problem.warp_size;
  if (problem.warp_size == 0) throw ToolError("the warp size must be at least 1");
  if (problem.units.empty()) throw ToolError("no unit class described (e.g. --units L=16,C=32)");
  for (const auto& [symbol, count] : problem.units) {
    const Status st = v.sm.add_class(symbol, count);
    if (st == Status::zero_units) {
      throw ToolError(fmt::format("unit class {} has zero units", symbol));
    }
    if (st == Status::duplicate_class) {
      throw ToolError(fmt::format("unit class {} is described twice", symbol));
    }
    if (st == Status::too_many_classes) {
      throw ToolError(fmt::format("more than {} unit classes", kMaxUnitClasses));
    }
    if (st != Status::ok) {
      throw ToolError(fmt::format("unit class '{}': {}", symbol, status_message(st)));
    }
  }
  if (problem.warps == 0) throw ToolError("the number of warps must be at least 1");
  std::size_t bad = 0;
  const Status st = analyze_kernel(v.sm, problem.kernel, v.shape, &bad);
  switch (st) {
    case Status::ok: break;
    case Status::empty_kernel: throw ToolError("the kernel string is empty");
    case Status::unknown_symbol:
      throw ToolError(fmt::format("kernel '{}': character '{}' at position {} is not a unit "
                                  "class symbol (A-Z)",
                                  problem.kernel, problem.kernel[bad], bad + 1));
    case Status::undescribed_class: {
      std::string described;
      for (const auto& [symbol, count] : problem.units) {
        described += described.empty() ? "" : ", ";
        described += symbol;
      }
      throw ToolError(fmt::format("kernel '{}': class '{}' at position {} is not described "
                                  "(described: {})",
                                  problem.kernel, problem.kernel[bad], bad + 1, described));
    }
    default:
      throw ToolError(fmt::format("kernel '{}': {}", problem.kernel, status_message(st)));
  }
  return v;
}

ValidatedProblem validate(const MakespanProblem& problem) {
  ValidatedProblem v = validate_model(problem);
  // The transformed string is shown in every output; refuse to print absurd ones.
  constexpr std::uint64_t kMaxShownLength = 1u << 24;
  if (v.shape.length > kMaxShownLength) {
    throw ToolError(fmt::format("the transformed kernel has {} instructions; at most {} are "
                                "supported by the tools",
                                v.shape.length, kMaxShownLength));
  }
  v.transformed_kernel.resize(static_cast<std::size_t>(v.shape.length));
  std::size_t written = 0;
  const Status ts = transform_to_symbols(v.sm, problem.kernel,
                                         gsl::span<char>(v.transformed_kernel.data(),
                                                         v.transformed_kernel.size()),
                                         written);
  if (ts != Status::ok) throw ToolError(status_message(ts));
  return v;
}

std::string sigma_text(const SmDescription& sm, std::size_t u) {
  const Rational r = sm.sigma(u);
  return r.den == 1 ? fmt::format("{}", r.num) : fmt::format("{}/{}", r.num, r.den);
}

}  // namespace gpuwcet::tools
