// The native hardware file (TOML): functional units, the memory latency and
// opcode rules. Format: docs/trace-formats.md, example
// examples/hardware/orin-sm.toml.
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "gpuwcet_tools/block_simulator.hpp"
#include "gpuwcet_tools/tool_error.hpp"
#include "gpuwcet_tools/trace_input.hpp"
#include "gpuwcet_tools/trace_parsing.hpp"

namespace gpuwcet::tools::detail {

namespace {

constexpr std::int64_t kMaxCycles = kMaxUnitCycles;
// Memory latency when neither the file nor the caller gives one: the middle
// of the 5..400 cycles the multi-phase paper sweeps.
constexpr std::uint32_t kDefaultMemoryLatency = 200;

std::string at(const std::string& name, const toml::node& node) {
  return fmt::format("{}:{}", name, node.source().begin.line);
}

// An integer key in [min, max] (max below 2^32).
std::uint32_t integer_in(const std::string& name, const toml::node& node, std::string_view key,
                         std::int64_t min, std::int64_t max) {
  // as_integer, not value<std::int64_t>: that converts a float such as
  // 4e97 to an integer, undefined behaviour out of range (UBSan).
  const auto* v = node.as_integer();
  if (v == nullptr || v->get() < min || v->get() > max) {
    throw ToolError(fmt::format("{}: '{}' must be an integer in [{}, {}]", at(name, node), key, min,
                                max));
  }
  return static_cast<std::uint32_t>(v->get());
}

std::uint32_t cycles(const std::string& name, const toml::node& node, const char* key,
                     std::int64_t min) {
  return integer_in(name, node, key, min, kMaxCycles);
}

OpKind parse_kind(const std::string& name, const toml::node& node) {
  const auto s = node.value<std::string>();
  if (node.is_string() && s) {
    if (*s == "compute") return OpKind::compute;
    if (*s == "load") return OpKind::load;
    if (*s == "store") return OpKind::store;
    if (*s == "branch") return OpKind::branch;
    if (*s == "barrier") return OpKind::barrier;
    if (*s == "exit") return OpKind::exit;
  }
  throw ToolError(fmt::format(
      "{}: 'kind' must be one of compute, load, store, branch, barrier, exit", at(name, node)));
}

OpcodeRule parse_rule(const std::string& name, const std::string& opcode, const toml::node& node) {
  OpcodeRule r;
  r.opcode = opcode;
  if (node.is_string()) {
    // An empty name would only fail once a trace uses the opcode.
    if (node.value<std::string>()->empty()) {
      throw ToolError(fmt::format("{}: the rule for '{}' needs a unit", at(name, node), opcode));
    }
    const OpcodeClass c = opcode_class_from_name(*node.value<std::string>());
    r.unit = c.unit;
    r.kind = c.kind;
    return r;
  }
  const toml::table* t = node.as_table();
  if (t == nullptr) {
    throw ToolError(fmt::format(
        "{}: opcode '{}' must map to a unit name, \"barrier\", \"exit\" or "
        "{{ unit = \"...\", kind = \"...\" }}",
        at(name, node), opcode));
  }
  bool have_unit = false;
  for (const auto& [k, v] : *t) {
    if (k == "unit" && v.is_string()) {
      r.unit = *v.value<std::string>();
      have_unit = true;
    } else if (k == "kind") {
      r.kind = parse_kind(name, v);
    } else {
      throw ToolError(fmt::format("{}: unknown key '{}' in the rule for '{}' (expected unit, kind)",
                                  at(name, v), k.str(), opcode));
    }
  }
  if (r.kind == OpKind::barrier || r.kind == OpKind::exit) {
    r.unit.clear();
  } else if (!have_unit || r.unit.empty()) {
    throw ToolError(fmt::format("{}: the rule for '{}' needs a unit", at(name, node), opcode));
  }
  return r;
}

// The pipeline around the units (block_model.hpp, docs/multiphase.md);
// absent keys keep the paper's model.
void parse_pipeline(const std::string& name, const toml::table& t, HardwareConfig& c) {
  HardwareDescription& hw = c.hw;
  const auto limit = static_cast<std::int64_t>(kMaxPipelineCycles);
  for (const auto& [key, node] : t) {
    // Plain references: C++17 lambdas cannot capture structured bindings.
    const std::string_view k = key.str();
    const toml::node& v = node;
    auto count = [&](std::int64_t min) { return integer_in(name, v, k, min, limit); };
    if (k == "issue_interval") {
      hw.issue_interval = count(1);
    } else if (k == "branch_delay") {
      hw.branch_delay = count(0);
    } else if (k == "result_delay") {
      hw.result_delay = count(0);
    } else if (k == "barrier_delay") {
      hw.barrier_delay = count(0);
    } else if (k == "dispatch_delay") {
      hw.dispatch_delay = count(0);
    } else if (k == "launch_delay") {
      hw.launch_delay = count(0);
    } else if (k == "collector_units") {
      hw.collector_units = count(0);
      if (hw.collector_units > kMaxCollectorUnits) {
        throw ToolError(fmt::format("{}: 'collector_units' must be at most {}", at(name, v),
                                    kMaxCollectorUnits));
      }
    } else if (k == "cycles_per_8_transactions") {
      c.cycles_per_8_transactions = count(1);
    } else if (k == "latency_from_issue" || k == "exit_issues" || k == "barriers_drain" ||
               k == "barrier_issues") {
      if (!v.is_boolean()) {
        throw ToolError(fmt::format("{}: '{}' must be true or false", at(name, v), k));
      }
      (k == "latency_from_issue" ? hw.latency_from_issue
       : k == "exit_issues"      ? hw.exit_issues
       : k == "barriers_drain"   ? c.barriers_drain
                                 : c.barrier_issues) = *v.value<bool>();
    } else {
      throw ToolError(fmt::format(
          "{}: unknown key '{}' in [pipeline] (expected issue_interval, branch_delay, "
          "result_delay, latency_from_issue, barrier_delay, dispatch_delay, launch_delay, "
          "exit_issues, barriers_drain, barrier_issues, collector_units, cycles_per_8_transactions)",
          at(name, v), k));
    }
  }
  // Named at the barrier_issues line: the keys it depends on are all here.
  if (c.barrier_issues && !barrier_slot_covered(hw)) {
    const toml::node* flag = t.get("barrier_issues");
    throw ToolError(fmt::format(
        "{}: barrier_issues = true needs barrier_delay >= issue_interval (here {} < {})",
        flag != nullptr ? at(name, *flag) : name, hw.barrier_delay, hw.issue_interval));
  }
}

// A unit on a named resource, for the rule that units sharing a resource
// agree on queued_dispatch (the core refuses a description where they do
// not, with no word of which units).
struct SharedResourceUse {
  std::string resource;
  std::string unit;
  std::size_t line = 0;
  bool queued = false;
};

void check_shared_resource(const std::string& name, std::vector<SharedResourceUse>& uses,
                           const SharedResourceUse& unit) {
  for (const SharedResourceUse& other : uses) {
    if (other.resource != unit.resource || other.queued == unit.queued) continue;
    throw ToolError(fmt::format(
        "{}:{}: unit '{}' has queued_dispatch = {} but unit '{}' (line {}) on the same resource "
        "'{}' has {}: units sharing a resource must agree",
        name, unit.line, unit.unit, unit.queued, other.unit, other.line, unit.resource,
        other.queued));
  }
  uses.push_back(unit);
}

}  // namespace

HardwareConfig parse_native_hardware(const std::string& name, std::string_view content,
                                     std::optional<std::uint32_t> memory_latency) {
  toml::table doc;
  try {
    doc = toml::parse(content, name);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    if (b.line == 0) throw ToolError(fmt::format("{}: {}", name, e.description()));
    throw ToolError(fmt::format("{}:{}:{}: {}", name, b.line, b.column, e.description()));
  }

  HardwareConfig c;
  c.source = name;
  c.memory_latency = kDefaultMemoryLatency;
  const toml::array* units = nullptr;
  const toml::table* opcodes = nullptr;
  for (const auto& [k, node] : doc) {
    if (k == "name") {
      if (!node.is_string()) throw ToolError(fmt::format("{}: 'name' must be a string", at(name, node)));
    } else if (k == "memory_latency") {
      c.memory_latency = cycles(name, node, "memory_latency", 0);
    } else if (k == "unit") {
      units = node.as_array();
      if (units == nullptr) {
        throw ToolError(fmt::format("{}: 'unit' must be an array of tables ([[unit]])", at(name, node)));
      }
    } else if (k == "pipeline") {
      const toml::table* t = node.as_table();
      if (t == nullptr) {
        throw ToolError(fmt::format("{}: 'pipeline' must be a table ([pipeline])", at(name, node)));
      }
      parse_pipeline(name, *t, c);
    } else if (k == "opcodes") {
      opcodes = node.as_table();
      if (opcodes == nullptr) {
        throw ToolError(fmt::format("{}: 'opcodes' must be a table ([opcodes])", at(name, node)));
      }
    } else {
      throw ToolError(fmt::format(
          "{}: unknown key '{}' (expected name, memory_latency, [pipeline], [[unit]], [opcodes])",
          at(name, node), k.str()));
    }
  }
  if (memory_latency) c.memory_latency = *memory_latency;
  if (units == nullptr || units->empty()) {
    throw ToolError(fmt::format("{}: no [[unit]] tables", name));
  }
  if (units->size() > kMaxFunctionalUnits) {
    throw ToolError(fmt::format("{}: {} units (at most {})", at(name, *units), units->size(),
                                kMaxFunctionalUnits));
  }

  // Named resources and units without one each get an id of their own, so
  // that no unit shares a pipeline by accident.
  std::map<std::string, std::uint16_t> resources;
  std::uint16_t next_resource = 0;
  std::vector<SharedResourceUse> uses;
  for (const toml::node& entry : *units) {
    const toml::table* t = entry.as_table();
    if (t == nullptr) throw ToolError(fmt::format("{}: a [[unit]] must be a table", at(name, entry)));
    FunctionalUnit u;
    bool have_name = false;
    bool have_latency = false;
    bool have_initiation = false;
    std::optional<std::string> resource;
    for (const auto& [k, v] : *t) {
      if (k == "name") {
        const auto s = v.value<std::string>();
        if (!v.is_string() || !s) throw ToolError(fmt::format("{}: 'name' must be a string", at(name, v)));
        set_unit_name(u, *s, at(name, v));
        if (find_unit(c.hw, u.name.data()) >= 0) {
          throw ToolError(fmt::format("{}: unit '{}' described twice", at(name, v), *s));
        }
        have_name = true;
      } else if (k == "initiation") {
        u.initiation = cycles(name, v, "initiation", 1);
        have_initiation = true;
      } else if (k == "latency") {
        if (v.is_string() && v.value<std::string>() == std::string("memory")) {
          u.latency = c.memory_latency;
        } else {
          u.latency = cycles(name, v, "latency", 0);
        }
        have_latency = true;
      } else if (k == "resource") {
        const auto s = v.value<std::string>();
        if (!v.is_string() || !s || s->empty()) {
          throw ToolError(fmt::format("{}: 'resource' must be a non-empty string", at(name, v)));
        }
        resource = *s;
      } else if (k == "extra_holds_only" || k == "skips_result_delay" || k == "queued_dispatch") {
        if (!v.is_boolean()) {
          throw ToolError(fmt::format("{}: '{}' must be true or false", at(name, v), k.str()));
        }
        const std::uint16_t bit = k == "extra_holds_only"     ? kUnitExtraHoldsOnly
                                  : k == "skips_result_delay" ? kUnitSkipsResultDelay
                                                              : kUnitQueuedDispatch;
        if (*v.value<bool>()) {
          u.flags = static_cast<std::uint16_t>(u.flags | bit);
        } else {
          u.flags = static_cast<std::uint16_t>(u.flags & ~bit);
        }
      } else {
        throw ToolError(fmt::format(
            "{}: unknown key '{}' in [[unit]] (expected name, initiation, latency, resource, "
            "extra_holds_only, skips_result_delay, queued_dispatch)",
            at(name, v), k.str()));
      }
    }
    if (!have_name || !have_latency || !have_initiation) {
      throw ToolError(fmt::format("{}: a [[unit]] needs name, initiation and latency",
                                  at(name, entry)));
    }
    if (resource) {
      auto it = resources.find(*resource);
      if (it == resources.end()) it = resources.emplace(*resource, next_resource++).first;
      u.resource = it->second;
      check_shared_resource(name, uses, {*resource, std::string(u.name.data()), entry.source().begin.line,
                                         (u.flags & kUnitQueuedDispatch) != 0});
    } else {
      u.resource = next_resource++;
    }
    c.hw.units[c.hw.unit_count++] = u;
  }

  if (opcodes != nullptr) {
    for (const auto& [k, v] : *opcodes) {
      if (k.empty()) throw ToolError(fmt::format("{}: empty opcode in [opcodes]", at(name, v)));
      OpcodeRule r = parse_rule(name, std::string(k.str()), v);
      if (!r.unit.empty() && find_unit(c.hw, r.unit.c_str()) < 0 && r.unit != "alu") {
        throw ToolError(fmt::format("{}: opcode '{}' maps to unknown unit '{}'", at(name, v),
                                    r.opcode, r.unit));
      }
      c.rules.push_back(std::move(r));
    }
  }
  add_alu_unit(c.hw, name);
  return c;
}

}  // namespace gpuwcet::tools::detail
