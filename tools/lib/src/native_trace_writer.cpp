// Writes a trace in the native format, so that traces of any format can be
// inspected, edited by hand and read back (docs/trace-formats.md).
#include <string>

#include <fmt/format.h>

#include "gpuwcet_tools/tool_error.hpp"
#include "gpuwcet_tools/trace_input.hpp"

namespace gpuwcet::tools {

namespace {

std::string opcode_of(const Instruction& ins, const HardwareDescription& hw) {
  if (ins.kind == OpKind::barrier) return "barrier";
  if (ins.kind == OpKind::exit) return "exit";
  if (ins.unit >= hw.unit_count) {
    throw ToolError(fmt::format("instruction on unit {} of a {}-unit description", ins.unit,
                                hw.unit_count));
  }
  const std::string unit = hw.units[ins.unit].name.data();
  switch (ins.kind) {
    case OpKind::load:
    case OpKind::store:
      if (unit != "mem" && unit != "mem_shared" && unit != "mem_param") {
        throw ToolError(fmt::format("the native format has no {} on unit '{}'",
                                    ins.kind == OpKind::load ? "load" : "store", unit));
      }
      return std::string(ins.kind == OpKind::load ? "load" : "store") +
             (unit == "mem_shared" ? ".shared" : unit == "mem_param" ? ".param" : "");
    case OpKind::branch:
      if (unit != "branch") {
        throw ToolError(fmt::format("the native format has no branch on unit '{}'", unit));
      }
      return "branch";
    default:
      // A branch that fell through (block_model.hpp: branch_delay applies to
      // taken ones only).
      if (unit == "branch") return "branch.fallthrough";
      // A compute instruction on "mem" would read back as a load.
      if (unit == "mem" || unit == "mem_shared" || unit == "mem_param") {
        throw ToolError(fmt::format("the native format has no compute on unit '{}'", unit));
      }
      return unit;
  }
}

}  // namespace

std::string write_native_trace(const TraceFile& trace, const HardwareDescription& hw) {
  std::string out = fmt::format("# gpuwcet native trace, from {}\n", trace.path);
  if (!trace.kernel.empty() && trace.kernel.find_first_of(" \t#") == std::string::npos) {
    out += fmt::format("kernel {}\n", trace.kernel);
  }
  for (const BlockTrace& b : trace.blocks) {
    std::string label = b.label.rfind("block ", 0) == 0 ? b.label.substr(6) : b.label;
    if (label.find('#') != std::string::npos) label.clear();
    out += fmt::format("\nblock {}\n", label);
    for (const WarpTrace& w : b.warps) {
      out += fmt::format("warp {}\n", w.warp_id);
      for (const Instruction& ins : w.code) {
        out += opcode_of(ins, hw);
        if (ins.extra_cycles != 0) out += fmt::format("+{}", ins.extra_cycles);
        for (std::size_t k = 0; k < ins.dst_count && k < kMaxDestinations; ++k) {
          out += fmt::format(" r{}", ins.dst[k]);
        }
        if (ins.src_count > 0) out += " ,";
        for (std::size_t k = 0; k < ins.src_count && k < kMaxSources; ++k) {
          out += fmt::format(" r{}", ins.src[k]);
        }
        out += '\n';
      }
    }
  }
  return out;
}

}  // namespace gpuwcet::tools
