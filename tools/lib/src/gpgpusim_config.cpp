// GPGPU-Sim configuration files (gpgpusim.config): the -ptx_opcode_latency_*
// and -ptx_opcode_initiation_* lists become the presets' 21 units with the
// file's numbers; every other option is ignored except the few that give the
// memory latency. Format and choices: docs/trace-formats.md.
#include <algorithm>
#include <array>
#include <cstddef>
#include <map>
#include <string>

#include <fmt/format.h>

#include "gpuwcet/hardware_presets.hpp"
#include "gpuwcet_tools/tool_error.hpp"
#include "gpuwcet_tools/trace_input.hpp"
#include "gpuwcet_tools/trace_parsing.hpp"

namespace gpuwcet::tools::detail {

namespace {

constexpr std::uint64_t kMaxCycles = kMaxUnitCycles;

struct ListOption {
  const char* option;
  std::size_t count;    // values GPGPU-Sim reads
  std::size_t first;    // index of the first preset unit it sets
  bool initiation;      // else latency
};

// List index 0 add/sub, 1 max/min, 2 mul, 3 mad, 4 div, in the presets'
// unit order (hardware_presets.hpp). GPGPU-Sim spells the tensor latency
// option "tesnor"; the corrected spelling is accepted too.
constexpr std::array<ListOption, 11> kLists{{
    {"-ptx_opcode_latency_int", 5, 0, false},
    {"-ptx_opcode_initiation_int", 5, 0, true},
    {"-ptx_opcode_latency_fp", 5, 5, false},
    {"-ptx_opcode_initiation_fp", 5, 5, true},
    {"-ptx_opcode_latency_dp", 5, 10, false},
    {"-ptx_opcode_initiation_dp", 5, 10, true},
    {"-ptx_opcode_latency_sfu", 1, 15, false},
    {"-ptx_opcode_initiation_sfu", 1, 15, true},
    {"-ptx_opcode_latency_tesnor", 1, 16, false},
    {"-ptx_opcode_latency_tensor", 1, 16, false},
    {"-ptx_opcode_initiation_tensor", 1, 16, true},
}};

// Single-valued options the reader takes: memory latencies and the operand
// collector's units.
struct ScalarOption {
  const char* option;
  std::uint64_t limit;
  const char* what;  // in the error message
};

constexpr std::array<ScalarOption, 8> kScalars{{
    {"-gpgpu_perfect_mem", kMaxCycles, "a cycle count"},
    {"-gpgpu_smem_latency", kMaxCycles, "a cycle count"},
    {"-gpgpu_l1_latency", kMaxCycles, "a cycle count"},
    {"-gpgpu_l2_rop_latency", kMaxCycles, "a cycle count"},
    {"-dram_latency", kMaxCycles, "a cycle count"},
    {"-gpgpu_enable_specialized_operand_collector", kMaxCollectorUnits, "a count"},
    {"-gpgpu_operand_collector_num_units_gen", kMaxCollectorUnits, "a count"},
    {"-gpgpu_operand_collector_num_units_mem", kMaxCollectorUnits, "a count"},
}};

// Options of how many instructions the SM issues and serves per cycle. The
// block model issues one per cycle for the SM into one unit of each kind
// (docs/multiphase.md, "Machine model"), as every configuration of the data
// set does; a file that says otherwise is read, with a note.
constexpr std::array<const char*, 6> kIssueWidthOptions{{
    "-gpgpu_num_sched_per_core", "-gpgpu_num_sp_units", "-gpgpu_num_sfu_units",
    "-gpgpu_num_dp_units", "-gpgpu_num_int_units", "-gpgpu_num_tensor_core_units",
}};

// The data set's stage widths (one per stage, two write-back ports).
constexpr std::string_view kDataSetPipelineWidths = "1,1,1,1,1,1,1,1,1,1,2,1,1";

std::string without_spaces(std::string_view v) {
  std::string out;
  for (char ch : v) {
    if (ch != ' ' && ch != '\t') out += ch;
  }
  return out;
}

std::vector<std::uint64_t> parse_list(const std::string& name, std::size_t line,
                                      std::string_view option, std::string_view value,
                                      std::size_t count) {
  std::vector<std::uint64_t> out;
  std::size_t pos = 0;
  while (true) {
    const std::size_t comma = value.find(',', pos);
    const std::string_view item =
        trim(value.substr(pos, comma == std::string_view::npos ? std::string_view::npos
                                                               : comma - pos));
    const auto v = parse_uint(item, kMaxCycles);
    if (!v) {
      fail_at(name, line,
              fmt::format("{} expects {} comma-separated cycle counts up to {}, got '{}'", option,
                          count, kMaxCycles, value));
    }
    out.push_back(*v);
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  if (out.size() != count) {
    fail_at(name, line,
            fmt::format("{} expects {} comma-separated cycle counts, got {} in '{}'", option, count,
                        out.size(), value));
  }
  return out;
}

}  // namespace

HardwareConfig parse_gpgpusim_config(const std::string& name, std::string_view content,
                                     std::optional<std::uint32_t> memory_latency) {
  // Start from the preset table: a file that omits a list keeps its numbers.
  std::array<std::uint64_t, kPresetUnitCount> latency{};
  std::array<std::uint64_t, kPresetUnitCount> initiation{};
  for (std::size_t i = 0; i < kPresetUnitCount; ++i) {
    latency[i] = kAmpereUnits[i].latency;
    initiation[i] = kAmpereUnits[i].initiation;
  }
  std::map<std::string, std::uint64_t> scalars;
  std::map<std::string, std::size_t> scalar_lines;  // where each was set, for errors
  std::vector<std::string> notes;
  bool known_read = false;  // a file that sets none of the options describes nothing
  std::size_t first_option_line = 0;  // what made the file read as a configuration
  std::string first_option;

  LineCursor lines(content);
  std::string_view line;
  while (lines.next(line)) {
    if (first_option_line == 0 && is_gpgpusim_option_line(line)) {
      first_option_line = lines.line_number();
      const std::string_view text = trim(line);
      first_option = std::string(text.substr(0, text.find_first_of(" \t#")));
    }
    const std::size_t hash = line.find('#');
    if (hash != std::string_view::npos) line = line.substr(0, hash);
    line = trim(line);
    if (line.empty()) continue;
    std::size_t end = 0;
    while (end < line.size() && line[end] != ' ' && line[end] != '\t') ++end;
    const std::string_view option = line.substr(0, end);
    const std::string_view value = trim(line.substr(end));
    bool list = false;
    for (const ListOption& o : kLists) {
      if (option != o.option) continue;
      list = true;
      known_read = true;
      const auto values = parse_list(name, lines.line_number(), option, value, o.count);
      for (std::size_t k = 0; k < o.count; ++k) {
        if (o.initiation) {
          if (values[k] == 0) {
            fail_at(name, lines.line_number(),
                    fmt::format("{}: an initiation interval must be at least 1", option));
          }
          initiation[o.first + k] = values[k];
        } else {
          latency[o.first + k] = values[k];
        }
      }
    }
    if (list) continue;
    for (const ScalarOption& o : kScalars) {
      if (option != o.option) continue;
      const auto v = parse_uint(value, o.limit);
      if (!v) {
        fail_at(name, lines.line_number(),
                fmt::format("{} expects {} up to {}, got '{}'", option, o.what, o.limit, value));
      }
      scalars[std::string(option)] = *v;
      scalar_lines[std::string(option)] = lines.line_number();
      known_read = true;
    }
    for (const char* o : kIssueWidthOptions) {
      if (option == o && value != "1") {
        notes.push_back(fmt::format(
            "{}:{}: {} {}: the block model issues one instruction per cycle into one unit of "
            "each kind (the data set's 1); its bounds are not shown safe for this machine",
            name, lines.line_number(), option, value));
      }
    }
    if (option == "-gpgpu_pipeline_widths" && without_spaces(value) != kDataSetPipelineWidths) {
      notes.push_back(fmt::format(
          "{}:{}: -gpgpu_pipeline_widths {}: the block model moves one instruction per cycle "
          "through each stage (the data set's {}); its bounds are not shown safe for this machine",
          name, lines.line_number(), value, kDataSetPipelineWidths));
    }
    // Every other option (caches, DRAM timing, ...) is not part of the
    // block model.
  }

  // Any text with a "-name value" line reads as a configuration; one that
  // sets nothing the reader takes would silently be the preset.
  if (!known_read) {
    const std::string sets_none =
        "the file sets none of the options gpuwcet reads (-ptx_opcode_latency_*, "
        "-ptx_opcode_initiation_*, -gpgpu_smem_latency, -gpgpu_perfect_mem, memory latencies, "
        "operand collectors: docs/trace-formats.md); is it a gpgpusim.config?";
    if (first_option_line == 0) throw ToolError(fmt::format("{}: {}", name, sets_none));
    fail_at(name, first_option_line,
            fmt::format("'{}' reads as a GPGPU-Sim option, but {}", first_option, sets_none));
  }
  auto opt = [&](const char* key, std::uint64_t fallback) {
    const auto it = scalars.find(key);
    return it == scalars.end() ? fallback : it->second;
  };
  // Global memory: with perfect memory an access is answered as soon as the
  // load/store unit sends it (kGpgpuSimPerfectMemoryLatency); otherwise the
  // uncontended miss path L1 + L2 + DRAM (GPGPU-Sim's defaults where the file
  // is silent), which is not a bound under contention: docs/trace-formats.md.
  // Shared memory: the configured pipeline depth; kernel-parameter loads:
  // the perfect constant cache (hardware_presets.hpp).
  const std::uint64_t smem = opt("-gpgpu_smem_latency", 3);
  std::uint64_t mem = 0;
  if (opt("-gpgpu_perfect_mem", 0) != 0) {
    mem = kGpgpuSimPerfectMemoryLatency;
  } else {
    mem = opt("-gpgpu_l1_latency", 1) + opt("-gpgpu_l2_rop_latency", 85) + opt("-dram_latency", 30);
    if (mem > kMaxCycles && !memory_latency) {
      // Named at the last line that set one of the three (defaults for the
      // others), with every line that did.
      std::size_t last = 0;
      std::string set_at;
      for (const char* key : {"-gpgpu_l1_latency", "-gpgpu_l2_rop_latency", "-dram_latency"}) {
        const auto it = scalar_lines.find(key);
        if (it == scalar_lines.end()) continue;
        last = std::max(last, it->second);
        set_at += fmt::format("{}{} on line {}", set_at.empty() ? "" : ", ", key, it->second);
      }
      fail_at(name, last,
              fmt::format("the memory latency L1 + L2 + DRAM, {} cycles, exceeds {} ({})", mem,
                          kMaxCycles, set_at));
    }
  }

  HardwareConfig c;
  c.source = name;
  // A machine the model does not describe: its bounds are not claimed safe.
  c.modelled = notes.empty();
  c.notes = std::move(notes);
  c.memory_latency = memory_latency ? *memory_latency : static_cast<std::uint32_t>(mem);
  c.cycles_per_8_transactions = kGpgpuSimCyclesPer8Transactions;
  c.barriers_drain = false;  // bar.sync releases at the last arrival, results pending
  c.barrier_issues = true;   // and issues like an instruction
  c.hw.unit_count = kPresetUnitCount;
  for (std::size_t i = 0; i < kPresetUnitCount; ++i) {
    FunctionalUnit& u = c.hw.units[i];
    set_unit_name(u, kAmpereUnits[i].name, name);
    u.initiation = static_cast<std::uint32_t>(initiation[i]);
    u.latency = kAmpereUnits[i].latency == kMemoryLatency ? c.memory_latency
                                                           : static_cast<std::uint32_t>(latency[i]);
    if (std::string_view(kAmpereUnits[i].name) == "mem_shared") {
      u.latency = static_cast<std::uint32_t>(smem);
    }
    u.resource = kAmpereUnits[i].resource;
    u.flags = kAmpereUnits[i].flags;
  }
  // The pipeline around the units is GPGPU-Sim's own, as in the presets
  // (hardware_presets.hpp).
  set_gpgpusim_pipeline(c.hw);
  // The collector units memory instructions wait in: the generic ones, or
  // the load/store unit's own when the file specializes them. A file silent
  // on both keeps the pipeline's 8.
  const char* units = opt("-gpgpu_enable_specialized_operand_collector", 0) != 0
                          ? "-gpgpu_operand_collector_num_units_mem"
                          : "-gpgpu_operand_collector_num_units_gen";
  c.hw.collector_units = static_cast<std::uint32_t>(opt(units, c.hw.collector_units));
  // 0 would be the model without collector units, a faster machine than
  // the one the file describes: GPGPU-Sim cannot run with none (nothing
  // would read an instruction's operands).
  if (c.hw.collector_units == 0) {
    fail_at(name, scalar_lines.at(units),
            fmt::format("{} 0: GPGPU-Sim needs at least one collector unit to run an instruction", units));
  }
  add_alu_unit(c.hw, name);
  return c;
}

}  // namespace gpuwcet::tools::detail
