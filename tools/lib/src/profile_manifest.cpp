// Profile manifests (docs/profile-format.md, "Manifest"): the kernels a
// profile holds, their sections given or computed from a traced block.
#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "gpuwcet/checked_math.hpp"
#include "gpuwcet/profile.hpp"
#include "gpuwcet_tools/block_analysis.hpp"
#include "gpuwcet_tools/file_io.hpp"
#include "gpuwcet_tools/profile_writer.hpp"
#include "gpuwcet_tools/tool_error.hpp"
#include "gpuwcet_tools/trace_input.hpp"

namespace gpuwcet::tools {

namespace {

std::string where(const std::string& path, const toml::node& n) {
  return fmt::format("{}:{}", path, n.source().begin.line);
}

std::uint64_t integer(const std::string& path, const toml::node& n, const std::string& what,
                      std::uint64_t max) {
  // as_integer, not value<std::int64_t>: that converts a float such as 4e97
  // to an integer, undefined behaviour out of range (UBSan).
  const auto* v = n.as_integer();
  if (v == nullptr || v->get() < 0 || static_cast<std::uint64_t>(v->get()) > max) {
    throw ToolError(fmt::format("{}: '{}' must be an integer from 0 to {}", where(path, n), what,
                                max));
  }
  return static_cast<std::uint64_t>(v->get());
}

// A kernel whose sections come from the analysis of a traced block.
struct TraceInput {
  std::string trace;          // relative to the manifest
  std::string preset;         // built-in hardware (default orin-sm)
  std::string hardware_file;  // or a hardware file, relative to the manifest
  std::uint32_t memory_latency = 0;  // 0: the hardware's own / 200 for a preset
  std::string block;          // "worst" (default), an index or a label (parse_block_choice)
  std::string block_dim;      // launch shape for PTX memory costs, "X[,Y[,Z]]"; empty: unknown
  std::string ptx_file;       // the PTX file a PTX trace ran, relative to the manifest;
                              // empty: the one next to the trace, if any
  bool no_ptx_file = false;   // ptx_file = false: none, even next to the trace
  std::string where;          // manifest position of 'trace', else of another of these keys
};

// The (length, demand) pair the profile keeps of a warp's section summary.
std::pair<std::uint64_t, std::uint64_t> length_and_demand(const SectionSummary& s) {
  std::uint64_t demand = s.issues;
  for (std::uint64_t h : s.held) {
    if (!checked_add(demand, h, demand)) throw ToolError("a warp's demand exceeds 64 bits");
  }
  return {s.length, demand};
}

// What a profile keeps of traced blocks.
struct TracedTiming {
  std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> sections;
  std::uint64_t alone_bound = 0;  // block-wcet's bound
  std::size_t warps = 0;          // every row of `sections` has this many
  std::vector<std::string> notes;  // the hardware's and the trace's, each with its file
};

// Folds an analysed block into `t` so that `t` bounds it too: each warp
// section's length and demand become the larger of the two, missing warps
// and sections count as (0, 0), and the alone bound the larger. The
// sections' bound and E only grow with each length and demand (B_S is a sum
// of maxima of sums), so the result bounds every block folded in; their
// alone bounds are each at most their own B_S, hence at most the result's.
void fold_block(const BlockAnalysis& a, TracedTiming& t) {
  const std::size_t sections = a.warps.front().sections.size();
  t.warps = std::max(t.warps, a.warps.size());
  if (t.sections.size() < sections) t.sections.resize(sections);
  for (auto& row : t.sections) row.resize(t.warps);
  for (std::size_t s = 0; s < sections; ++s) {
    auto& row = t.sections[s];
    for (std::size_t w = 0; w < a.warps.size(); ++w) {
      const auto [length, demand] = length_and_demand(a.warps[w].sections[s]);
      row[w] = {std::max(row[w].first, length), std::max(row[w].second, demand)};
    }
  }
  t.alone_bound = std::max(t.alone_bound, a.bound.safe_upper_bound);
}

// Folds block `i` of `trace` into `out`. As block-wcet warns: a block the
// trace may show only in part has no bound an admission controller can
// trust.
void fold_traced_block(const HardwareConfig& hw, const TraceFile& trace, std::size_t i,
                       TracedTiming& out) {
  if (!trace.blocks[i].incomplete.empty()) {
    throw ToolError(fmt::format("{}: {}; its bound would cover only what the trace shows",
                                trace.path, trace.blocks[i].incomplete));
  }
  fold_block(analyse_block(hw.hw, trace, i, hw.barriers_drain, false), out);
}

TracedTiming timing_from_trace(const std::string& manifest, const TraceInput& in) {
  const std::filesystem::path dir = std::filesystem::path(manifest).parent_path();
  // Not normalised: "configs/../traces/t.trace" is where the system finds
  // it, through a folder that is a symbolic link too; dropping "configs/.."
  // by its text would name another file.
  auto relative = [&](const std::string& p) { return (dir / p).string(); };
  if (!in.preset.empty() && !in.hardware_file.empty()) {
    throw ToolError("give 'hardware' or 'hardware_file', not both");
  }
  // "-" is standard input on the command line; in a manifest it would be a
  // file of that name beside it or standard input by how the manifest was
  // named.
  if (in.trace == "-") {
    throw ToolError("'trace' names a file; read a trace from standard input with block-wcet -");
  }
  std::optional<std::uint32_t> latency;
  if (in.memory_latency != 0) latency = in.memory_latency;
  // As block-wcet: without a preset or file, the gpgpusim.config next to
  // the trace if it has one, else orin-sm.
  std::string file = in.hardware_file.empty() ? std::string() : relative(in.hardware_file);
  if (file.empty() && in.preset.empty()) file = config_next_to(relative(in.trace));
  const HardwareConfig hw = file.empty()
                                ? hardware_preset(in.preset.empty() ? "orin-sm" : in.preset,
                                                  latency.value_or(200))
                                : load_hardware_file(file, latency);
  // A profile is what an admission controller trusts: no bound of a machine
  // the model does not describe goes into one.
  if (!hw.modelled) {
    std::string why;
    for (const std::string& n : hw.notes) why += "\n  " + n;
    throw ToolError(fmt::format("{}: not the machine the block model describes, so its bounds are "
                                "not shown safe:{}",
                                hw.source, why));
  }
  TraceReadOptions options;
  if (!in.block_dim.empty()) {
    const auto shape = parse_block_shape(in.block_dim);
    if (!shape) {
      throw ToolError(fmt::format("bad 'block_dim' '{}' (expected X, X,Y or X,Y,Z, at most "
                                  "1024 threads)",
                                  in.block_dim));
    }
    options.block_shape = *shape;
  }
  // As block-wcet: the PTX file the trace's lines name when it lies next
  // to the trace, unless the manifest gives one or says none.
  const TracePtxFile ptx(relative(in.trace), in.ptx_file.empty() ? std::string() : relative(in.ptx_file),
                         in.no_ptx_file, "'ptx_file = false'");
  options.control_flow = ptx.flow();
  // One profile stands for every block of the kernel (docs/kernel-wcet.md,
  // A4): for "worst" it bounds each traced block, not only the one with the
  // largest bound, whose demand (E) need not be the largest. Each block is
  // folded in as soon as it is read, its instructions then dropped: a trace
  // of thousands of blocks takes the memory of one.
  TracedTiming out;
  const bool every_block = in.block.empty() || in.block == "worst";
  if (every_block) {
    options.on_block = [&hw, &out](TraceFile& t, std::size_t i) {
      fold_traced_block(hw, t, i, out);
      return true;
    };
  }
  TraceFile trace;
  try {
    trace = read_trace(relative(in.trace), TraceFormat::automatic, hw, options);
  } catch (const PtxFileMismatch& e) {
    throw ptx.explained(e);
  }
  if (ptx.flow() && trace.format != TraceFormat::ptx) {
    throw ToolError(fmt::format("'ptx_file' is for GPGPU-Sim PTX traces; {} is not one", trace.path));
  }
  BlockChoice choice;
  try {
    choice = parse_block_choice(in.block, trace.blocks);
  } catch (const ToolError& e) {
    throw ToolError(fmt::format("{}: {}", trace.path, e.what()));
  }
  if (trace.blocks.empty()) throw ToolError(fmt::format("{}: the trace holds no block", trace.path));
  // A profile for every block of the kernel needs every block.
  if (choice.worst && !trace.incomplete.empty()) {
    throw ToolError(fmt::format("{}: {}; its bound would cover only the blocks the trace shows",
                                trace.path, trace.incomplete));
  }
  const std::size_t first = choice.worst ? 0 : choice.index;
  const std::size_t last = choice.worst ? trace.blocks.size() : choice.index + 1;
  for (std::size_t i = first; i < last; ++i) {
    if (!trace.blocks[i].dropped) fold_traced_block(hw, trace, i, out);
  }
  // As block-wcet warns, but a profile is trusted without anyone reading
  // the warning: a bound below the run the trace records is refused.
  if (trace.observed_cycles && out.alone_bound < *trace.observed_cycles) {
    throw ToolError(fmt::format(
        "{}: the bound, {} cycles, is below the {} the trace's run took: 'hardware', "
        "'hardware_file', 'memory_latency' or 'block_dim' do not describe that run",
        trace.path, out.alone_bound, *trace.observed_cycles));
  }
  out.notes.insert(out.notes.end(), hw.notes.begin(), hw.notes.end());
  if (ptx.next_to_trace()) {
    out.notes.push_back(fmt::format("{}: split lanes join where {}, the PTX file its lines name, "
                                    "{}, says ('ptx_file = false': at any label)",
                                    trace.path, ptx.path(), ptx.where()));
  }
  for (const std::string& n : trace.notes) out.notes.push_back(trace.path + ": " + n);
  return out;
}

}  // namespace

std::vector<KernelEntry> load_manifest(const std::string& path) {
  return detail::parse_manifest(path, read_text_file(path));
}

std::vector<KernelEntry> detail::parse_manifest(const std::string& path, std::string_view content) {
  toml::table doc;
  try {
    doc = toml::parse(content, path);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    if (b.line == 0) throw ToolError(fmt::format("{}: {}", path, e.description()));
    throw ToolError(fmt::format("{}:{}:{}: {}", path, b.line, b.column, e.description()));
  }
  for (const auto& [key, node] : doc) {
    if (key.str() != "kernel" && key.str() != "format_version") {
      throw ToolError(fmt::format("{}: unknown key '{}'", where(path, node), key.str()));
    }
  }
  // The format a manifest was written for, 0 when it names none. Format 3
  // changed only the order of the kernels in the blob, which the writer
  // chooses, and format 4 added an optional key, so a manifest for 2 or 3
  // means the same as one for 4. Format 5 counts a barrier's issue slot in
  // the demand of the section it ends: numbers written for an earlier one
  // (sections, block_bound_alone) may be too low and are refused below;
  // those computed here from a trace are today's.
  std::uint64_t declared = 0;
  std::string declared_where;
  if (const toml::node* v = doc.get("format_version")) {
    declared = integer(path, *v, "format_version", 0xFFFF);
    declared_where = where(path, *v);
    if (declared < 2 || declared > kProfileFormatVersion) {
      throw ToolError(fmt::format("{}: this gpuwcet writes format_version {} (and reads manifests "
                                  "written for 2 to 4)",
                                  declared_where, kProfileFormatVersion));
    }
  }
  const toml::array* list = doc["kernel"].as_array();
  if (list == nullptr || list->empty()) {
    throw ToolError(fmt::format("{}: no [[kernel]] entries", path));
  }
  std::vector<KernelEntry> out;
  for (const toml::node& kn : *list) {
    const toml::table* t = kn.as_table();
    if (t == nullptr) throw ToolError(fmt::format("{}: 'kernel' must be [[kernel]] tables", where(path, kn)));
    KernelEntry k;
    k.where = where(path, kn);
    TraceInput from_trace;
    std::string sections_where;
    for (const auto& [key, n] : *t) {
      const std::string name(key.str());
      if (name == "name") {
        if (!n.is_string()) throw ToolError(fmt::format("{}: 'name' must be a string", where(path, n)));
        k.name = *n.value<std::string>();
        // Checked here too, so that no message echoes a name of any length.
        if (k.name.size() >= kProfileNameSize) {
          throw ToolError(fmt::format("{}: 'name' has {} characters; a profile keeps at most {}",
                                      where(path, n), k.name.size(), kProfileNameSize - 1));
        }
      } else if (name == "block_threads") {
        k.block_threads = static_cast<std::uint32_t>(integer(path, n, name, 0xFFFFFFFFu));
      } else if (name == "warp_size") {
        k.warp_size = static_cast<std::uint32_t>(integer(path, n, name, 0xFFFFFFFFu));
      } else if (name == "registers_per_thread") {
        k.registers_per_thread = static_cast<std::uint32_t>(integer(path, n, name, 0xFFFFFFFFu));
      } else if (name == "shared_memory_per_block") {
        k.shared_memory_per_block = static_cast<std::uint32_t>(integer(path, n, name, 0xFFFFFFFFu));
      } else if (name == "block_bound_alone") {
        k.block_bound_alone = integer(path, n, name, 0x7FFFFFFFFFFFFFFFull);
        k.block_bound_alone_where = where(path, n);
      } else if (name == "makespan_warps") {
        k.makespan_warps = static_cast<std::uint32_t>(integer(path, n, name, 0xFFFFFFFFu));
      } else if (name == "kernel_string") {
        if (!n.is_string()) throw ToolError(fmt::format("{}: 'kernel_string' must be a string", where(path, n)));
        k.kernel_string = *n.value<std::string>();
      } else if (name == "units") {
        const toml::table* u = n.as_table();
        if (u == nullptr) throw ToolError(fmt::format("{}: 'units' must be a table like {{ L = 16, C = 32 }}", where(path, n)));
        for (const auto& [sym, un] : *u) {
          if (sym.str().size() != 1) {
            throw ToolError(fmt::format("{}: unit class '{}' must be one letter A-Z", where(path, un), sym.str()));
          }
          k.units.emplace_back(sym.str()[0], static_cast<std::uint32_t>(integer(path, un, "units", 0xFFFFFFFFu)));
        }
      } else if (name == "sections") {
        sections_where = where(path, n);
        const toml::array* ss = n.as_array();
        if (ss == nullptr) throw ToolError(fmt::format("{}: 'sections' must be an array of sections", where(path, n)));
        for (const toml::node& sn : *ss) {
          const toml::array* warps = sn.as_array();
          if (warps == nullptr) throw ToolError(fmt::format("{}: a section is an array of [length, demand] pairs, one per warp", where(path, sn)));
          std::vector<std::pair<std::uint64_t, std::uint64_t>> section;
          for (const toml::node& wn : *warps) {
            const toml::array* pair = wn.as_array();
            if (pair == nullptr || pair->size() != 2) {
              throw ToolError(fmt::format("{}: each warp is [length, demand]", where(path, wn)));
            }
            section.emplace_back(integer(path, *pair->get(0), "length", 0x7FFFFFFFFFFFFFFFull),
                                 integer(path, *pair->get(1), "demand", 0x7FFFFFFFFFFFFFFFull));
          }
          k.sections.push_back(std::move(section));
        }
      } else if (name == "trace" || name == "hardware" || name == "hardware_file" ||
                 name == "block" || name == "block_dim") {
        // A block index and a one-dimensional shape read naturally as
        // numbers (block = 3, block_dim = 256): take them as their text.
        const bool numeric = name == "block" || name == "block_dim";
        std::string text;
        if (n.is_string()) {
          text = *n.value<std::string>();
        } else if (numeric && n.is_integer()) {
          text = std::to_string(integer(path, n, name, 0xFFFFFFFFu));
        } else {
          throw ToolError(fmt::format("{}: '{}' must be a string{}", where(path, n), name,
                                      numeric ? " or an integer" : ""));
        }
        (name == "trace"           ? from_trace.trace
         : name == "hardware"      ? from_trace.preset
         : name == "hardware_file" ? from_trace.hardware_file
         : name == "block"         ? from_trace.block
                                   : from_trace.block_dim) = std::move(text);
        if (name == "trace" || from_trace.where.empty()) from_trace.where = where(path, n);
      } else if (name == "ptx_file") {
        // A path, or false for none even next to the trace.
        if (n.is_string()) {
          from_trace.ptx_file = *n.value<std::string>();
          if (from_trace.ptx_file.empty()) {
            throw ToolError(fmt::format("{}: 'ptx_file' is empty: give a path, or false for none",
                                        where(path, n)));
          }
        } else if (n.is_boolean() && !*n.value<bool>()) {
          from_trace.no_ptx_file = true;
        } else {
          throw ToolError(fmt::format("{}: 'ptx_file' must be a path, or false for none",
                                      where(path, n)));
        }
        if (from_trace.where.empty()) from_trace.where = where(path, n);
      } else if (name == "memory_latency") {
        from_trace.memory_latency = static_cast<std::uint32_t>(integer(path, n, name, kMaxUnitCycles));
        if (from_trace.where.empty()) from_trace.where = where(path, n);
      } else {
        throw ToolError(fmt::format("{}: unknown key '{}'", where(path, n), name));
      }
    }
    if (k.name.empty()) throw ToolError(fmt::format("{}: a kernel needs a 'name'", where(path, kn)));
    if (declared != 0 && declared < 5) {
      const std::string& given = !sections_where.empty() ? sections_where : k.block_bound_alone_where;
      if (!given.empty()) {
        throw ToolError(fmt::format(
            "{}: kernel '{}': written for format_version {} ({}), whose section demands did not count "
            "the barrier issue slots format 5 counts (docs/profile-format.md): check the numbers, "
            "or compute them from the trace, and declare format_version = 5",
            given, k.name, declared, declared_where));
      }
    }
    if (!from_trace.trace.empty()) {
      if (!k.block_bound_alone_where.empty()) {
        throw ToolError(fmt::format("{}: kernel '{}': 'block_bound_alone' comes from the trace",
                                    k.block_bound_alone_where, k.name));
      }
      if (!k.sections.empty()) {
        throw ToolError(fmt::format("{}: kernel '{}' gives both 'sections' and 'trace'",
                                    from_trace.where, k.name));
      }
      try {
        TracedTiming traced = timing_from_trace(path, from_trace);
        const std::uint64_t block_warps =
            k.warp_size == 0 ? 0 : ceil_div(k.block_threads, k.warp_size);
        if (k.block_threads != 0 && k.warp_size != 0 && traced.warps != block_warps) {
          throw ToolError(fmt::format(
              "the traced block has {} warps; block_threads = {} with warp_size {} has {}",
              traced.warps, k.block_threads, k.warp_size, block_warps));
        }
        k.sections = std::move(traced.sections);
        k.block_bound_alone = traced.alone_bound;
        for (const std::string& n : traced.notes) {
          k.notes.push_back(fmt::format("{}: kernel '{}': {}", from_trace.where, k.name, n));
        }
      } catch (const ToolError& e) {
        throw ToolError(fmt::format("{}: kernel '{}': {}", from_trace.where, k.name, e.what()));
      }
    } else if (!from_trace.where.empty()) {
      throw ToolError(fmt::format("{}: kernel '{}': 'hardware', 'hardware_file', 'memory_latency', "
                                  "'block', 'block_dim' and 'ptx_file' need a 'trace'",
                                  from_trace.where, k.name));
    }
    if (k.block_threads == 0) {
      throw ToolError(fmt::format("{}: kernel '{}' needs 'block_threads' >= 1", where(path, kn), k.name));
    }
    out.push_back(std::move(k));
  }
  return out;
}

}  // namespace gpuwcet::tools
