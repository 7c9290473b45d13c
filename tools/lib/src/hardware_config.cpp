// Built-in presets, the "alu" unit every description gets, and the choice
// between the two hardware file formats.
#include <cctype>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "gpuwcet/hardware_presets.hpp"
#include "gpuwcet_tools/file_io.hpp"
#include "gpuwcet_tools/tool_error.hpp"
#include "gpuwcet_tools/trace_input.hpp"
#include "gpuwcet_tools/trace_parsing.hpp"

namespace gpuwcet::tools {

namespace detail {

void set_unit_name(FunctionalUnit& unit, std::string_view name, const std::string& where) {
  if (name.empty() || name.size() >= kUnitNameSize) {
    throw ToolError(fmt::format("{}: unit name '{}' must have 1 to {} characters", where, name,
                                kUnitNameSize - 1));
  }
  unit.name.fill('\0');
  std::memcpy(unit.name.data(), name.data(), name.size());
}

// GPGPU-Sim runs every ALU opcode without a latency list of its own (mov,
// logic, setp, cvt, ...) with latency 1 and initiation 1, and, when the SM
// has INT units (Volta and later, and the Orin configuration), issues it to
// the INT pipeline (shader.cc: "execute ALU and INT operations on INT
// unit"). So "alu" shares int_add's resource, and with it the flag units
// sharing a resource must agree on (queued dispatch: validate() refuses a
// resource whose units disagree).
void add_alu_unit(HardwareDescription& hw, const std::string& name) {
  if (find_unit(hw, "alu") >= 0) return;
  if (hw.unit_count >= kMaxFunctionalUnits) {
    throw ToolError(fmt::format(
        "{}: {} units leave no room for the 'alu' unit the readers need (at most {}); "
        "describe at most {} units or name one of them 'alu'",
        name, hw.unit_count, kMaxFunctionalUnits, kMaxFunctionalUnits - 1));
  }
  FunctionalUnit& u = hw.units[hw.unit_count];
  set_unit_name(u, "alu", name);
  u.initiation = 1;
  u.latency = 1;
  const int int_add = find_unit(hw, "int_add");
  if (int_add >= 0) {
    const auto i = static_cast<std::size_t>(int_add);
    u.resource = static_cast<std::uint16_t>(unit_resource(hw, i));
    u.flags = static_cast<std::uint16_t>(hw.units[i].flags & kUnitQueuedDispatch);
  } else {
    // A resource no other unit uses (there are fewer units than resources).
    std::uint32_t used = 0;
    for (std::size_t i = 0; i < hw.unit_count; ++i) {
      const std::size_t r = unit_resource(hw, i);
      if (r < kMaxResources) used |= 1u << r;
    }
    std::uint16_t free = 0;
    while (free < kMaxResources && (used & (1u << free)) != 0) ++free;
    u.resource = free;
  }
  ++hw.unit_count;
}

bool is_gpgpusim_option_line(std::string_view line) {
  line = trim(line);
  return line.size() >= 2 && line[0] == '-' && std::isalpha(static_cast<unsigned char>(line[1])) != 0 &&
         line.find('=') == std::string_view::npos;
}

bool looks_like_gpgpusim_config(std::string_view content) {
  LineCursor lines(content);
  std::string_view line;
  while (lines.next(line)) {
    if (is_gpgpusim_option_line(line)) return true;
  }
  return false;
}

namespace {

bool has_content(std::string_view content) {
  LineCursor lines(content);
  std::string_view line;
  while (lines.next(line)) {
    line = trim(line.substr(0, line.find('#')));
    if (!line.empty()) return true;
  }
  return false;
}

}  // namespace

}  // namespace detail

HardwareConfig hardware_preset(const std::string& name, std::uint32_t memory_latency) {
  HardwareConfig c;
  if (make_hardware_preset(name.c_str(), memory_latency, c.hw) != Status::ok) {
    std::string known;
    for (const HardwarePreset& p : kHardwarePresets) {
      known += known.empty() ? p.name : fmt::format(", {}", p.name);
    }
    throw ToolError(fmt::format("unknown hardware preset '{}' (known: {})", name, known));
  }
  c.source = "preset " + name;
  c.memory_latency = memory_latency;
  c.cycles_per_8_transactions = kGpgpuSimCyclesPer8Transactions;
  c.barriers_drain = false;  // GPGPU-Sim's bar.sync
  c.barrier_issues = true;
  detail::add_alu_unit(c.hw, c.source);
  return c;
}

HardwareConfig parse_hardware_text(const std::string& name, std::string_view content,
                                   std::optional<std::uint32_t> memory_latency) {
  content = detail::skip_byte_order_mark(content);
  if (!detail::has_content(content)) {
    throw ToolError(fmt::format(
        "{}: describes no hardware: expected [[unit]] tables (a native hardware file) or "
        "-ptx_opcode_* options (a GPGPU-Sim configuration)",
        name));
  }
  if (detail::looks_like_gpgpusim_config(content)) {
    return detail::parse_gpgpusim_config(name, content, memory_latency);
  }
  return detail::parse_native_hardware(name, content, memory_latency);
}

HardwareConfig load_hardware_file(const std::string& path,
                                  std::optional<std::uint32_t> memory_latency) {
  const std::string content = read_text_file(path);
  return parse_hardware_text(path, content, memory_latency);
}

}  // namespace gpuwcet::tools
