// gpuwcet phases / block-wcet / simulate: the multi-phase analysis of a
// traced thread block (docs/multiphase.md) and the reference simulator.
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "block_command_common.hpp"
#include "commands.hpp"
#include "progress.hpp"
#include "gpuwcet_tools/block_analysis.hpp"
#include "gpuwcet_tools/block_simulator.hpp"
#include "gpuwcet_tools/file_io.hpp"
#include "gpuwcet_tools/json_output.hpp"
#include "gpuwcet_tools/makespan_problem.hpp"
#include "gpuwcet_tools/svg_timeline.hpp"
#include "gpuwcet_tools/tool_error.hpp"
#include "gpuwcet_tools/trace_input.hpp"

namespace gpuwcet::cli {

using namespace gpuwcet::tools;

namespace {

// Memory latency when neither the option nor the hardware file gives one:
// the middle of the 5..400 cycles the paper sweeps.
constexpr std::uint32_t kDefaultMemoryLatency = 200;

void add_common_options(CLI::App* cmd, BlockOptions& o) {
  cmd->add_option("trace", o.trace,
                  "trace file (native, Accel-Sim .traceg, GPGPU-Sim PTX trace), or '-' for "
                  "standard input")
      ->required();
  cmd->add_option("--format", o.format, "trace format: auto, native, accelsim, ptx")
      ->capture_default_str();
  cmd->add_option("--hw", o.hw_file,
                  "hardware file: native TOML or GPGPU-Sim config (default: gpgpusim.config next "
                  "to the trace if there is one, else --hw-preset orin-sm)");
  cmd->add_option("--hw-preset", o.hw_preset, "built-in hardware: rtx3070, orin-sm");
  cmd->add_option("--mem-latency", o.mem_latency,
                  "memory latency in cycles, at most 2^24 (default: the hardware file's, else 200)");
  cmd->add_option("--block-dim", o.block_dim,
                  "launch shape X[,Y[,Z]] of the traced kernel's thread blocks, for the cost of "
                  "PTX memory accesses (default: unknown, the worst placement of a warp's lanes)");
  cmd->add_option("--ptx", o.ptx,
                  "the PTX file a GPGPU-Sim PTX trace ran (named on its lines): split lanes then "
                  "join where GPGPU-Sim joins them (default: that file if it lies next to the "
                  "trace, else at any label)");
  cmd->add_flag("--no-ptx", o.no_ptx,
                "read a GPGPU-Sim PTX trace without its PTX file even if one lies next to it: "
                "split lanes may join at any label");
  cmd->add_flag("--json", o.json, "print JSON on stdout");
  cmd->add_option("--svg", o.svg, "draw the timeline into this SVG file");
}

}  // namespace

Inputs load_inputs(const BlockOptions& o) {
  if (!o.hw_file.empty() && !o.hw_preset.empty()) throw ToolError("give --hw or --hw-preset, not both");
  std::optional<std::uint32_t> mem;
  if (!o.mem_latency.empty()) {
    mem = static_cast<std::uint32_t>(parse_unsigned(o.mem_latency, "memory latency", kMaxUnitCycles));
  }
  Inputs in;
  std::string hw_file = o.hw_file;
  if (hw_file.empty() && o.hw_preset.empty()) hw_file = config_next_to(o.trace);
  if (!hw_file.empty()) {
    in.config = load_hardware_file(hw_file, mem);
  } else {
    in.config = hardware_preset(o.hw_preset.empty() ? "orin-sm" : o.hw_preset,
                                mem.value_or(kDefaultMemoryLatency));
  }
  TraceReadOptions read_options;
  if (!o.block_dim.empty()) {
    const auto shape = parse_block_shape(o.block_dim);
    if (!shape) {
      throw ToolError(fmt::format(
          "bad --block-dim '{}': expected X, X,Y or X,Y,Z, each at least 1, at most 1024 threads",
          o.block_dim));
    }
    read_options.block_shape = *shape;
  }
  in.block_dim = o.block_dim.empty() ? "unknown" : o.block_dim;
  if (!o.ptx.empty() && o.no_ptx) throw ToolError("give --ptx or --no-ptx, not both");
  const TraceFormat format = parse_trace_format(o.format);
  // As GPGPU-Sim leaves it in its run's folder, the PTX file the trace's
  // lines name is taken when it lies next to the trace, like the
  // gpgpusim.config.
  const TracePtxFile ptx(o.trace, o.ptx,
                         o.no_ptx || (format != TraceFormat::automatic && format != TraceFormat::ptx),
                         "--no-ptx");
  in.ptx = ptx.path();
  read_options.control_flow = ptx.flow();
  if (ptx.next_to_trace()) {
    fmt::print(stderr, "note: {}: split lanes join where {}, the PTX file its lines name, {}, "
               "says (--no-ptx: at any label)\n", o.trace, in.ptx, ptx.where());
  }
  read_options.progress = Progress("reading " + o.trace, "bytes");
  // The worst block (the default): each block bounded as soon as it is
  // read, and only the worst one's instructions kept, so that a trace of
  // thousands of blocks takes the memory of two.
  WorstBlockWhileReading worst(in.config.hw, in.config.barriers_drain);
  if (o.block.empty() || o.block == "worst") read_options.on_block = std::ref(worst);
  try {
    in.trace = read_trace(o.trace, format, in.config, read_options);
  } catch (const PtxFileMismatch& e) {
    throw ptx.explained(e);
  }
  in.worst_block = worst.index();
  if (ptx.flow() && in.trace.format != TraceFormat::ptx) {
    throw ToolError(fmt::format("--ptx is for GPGPU-Sim PTX traces; {} is not one", o.trace));
  }
  if (!o.block_dim.empty() && in.trace.format != TraceFormat::ptx) {
    // Accel-Sim traces carry every lane's address and mask; native traces
    // carry costs: neither needs the launch shape.
    fmt::print(stderr, "note: --block-dim is for GPGPU-Sim PTX traces; {} does not use it\n", in.trace.path);
  }
  for (const std::string& note : in.config.notes) fmt::print(stderr, "note: {}\n", note);
  for (const std::string& note : in.trace.notes) fmt::print(stderr, "note: {}: {}\n", in.trace.path, note);
  return in;
}

namespace {

// The hardware description's notes, then the trace's, each with its file.
std::vector<std::string> all_notes(const Inputs& in) {
  std::vector<std::string> out;
  out.insert(out.end(), in.config.notes.begin(), in.config.notes.end());
  for (const std::string& n : in.trace.notes) out.push_back(in.trace.path + ": " + n);
  return out;
}

}  // namespace

nlohmann::json inputs_json(const Inputs& in) {
  return {{"trace", in.trace.path},
          {"kernel", in.trace.kernel},
          {"hardware", in.config.source},
          {"memory_latency", in.config.memory_latency},
          {"block_dim", in.block_dim},
          {"ptx_file", in.ptx.empty() ? nlohmann::json() : nlohmann::json(in.ptx)},
          {"notes", all_notes(in)},
          {"blocks_in_trace", in.trace.blocks.size()}};
}

namespace {

std::vector<std::uint32_t> chosen_warps(const BlockTrace& block, const std::string& warp) {
  std::vector<std::uint32_t> idx;
  if (warp.empty()) {
    for (std::uint32_t i = 0; i < block.warps.size(); ++i) idx.push_back(i);
    return idx;
  }
  const std::uint64_t id = parse_unsigned(warp, "warp id");
  for (std::uint32_t i = 0; i < block.warps.size(); ++i) {
    if (block.warps[i].warp_id == id) idx.push_back(i);
  }
  if (idx.empty()) throw ToolError(fmt::format("{} has no warp {}", block.label, id));
  return idx;
}

}  // namespace

// A bound below what the trace's own run took means the inputs do not
// describe that run: the commands say so rather than print an unsafe number
// quietly. Empty when the bound is not below it, or the trace records none.
std::string below_observed(const Inputs& in, std::uint64_t bound) {
  if (!in.trace.observed_cycles || bound >= *in.trace.observed_cycles) return {};
  return fmt::format(
      "the bound, {} cycles, is below the {} the trace's run took: the hardware description, "
      "--mem-latency or --block-dim do not describe that run",
      bound, *in.trace.observed_cycles);
}

// The block the commands look at: --block as an index or label, or
// 'worst', the block with the largest bound, the default (chosen while the
// trace was read when its reader hands blocks over).
std::size_t chosen_block(const Inputs& in, const std::string& block) {
  if (in.trace.blocks.empty()) throw ToolError(fmt::format("{}: the trace holds no block", in.trace.path));
  const BlockChoice choice = parse_block_choice(block, in.trace.blocks);
  if (!choice.worst) return choice.index;
  if (in.worst_block) return *in.worst_block;
  if (in.trace.blocks.size() == 1) return 0;
  return analyse_chosen_block(in.config.hw, in.trace, choice, in.config.barriers_drain, false)
      .block_index;
}

// Why the block (or, for 'worst', some block) the bound stands for may not
// be shown whole by the trace; empty when it is.
std::string incomplete_block(const TraceFile& trace, const BlockChoice& choice, std::size_t index) {
  if (!choice.worst) return trace.blocks[index].incomplete;
  if (!trace.incomplete.empty()) return trace.incomplete;
  for (const BlockTrace& b : trace.blocks) {
    if (!b.incomplete.empty()) return b.incomplete;
  }
  return {};
}

std::string incomplete_block(const Inputs& in, const std::string& block, std::size_t index) {
  return incomplete_block(in.trace, parse_block_choice(block, in.trace.blocks), index);
}

bool blocks_missing(const Inputs& in, const std::string& block) {
  return !in.trace.incomplete.empty() && parse_block_choice(block, in.trace.blocks).worst;
}

namespace {

// Exit status of a command that printed its results, the bound among them,
// but cannot show that bound safe (the notes and warnings say why): a
// script that checks the status does not take it for one.
constexpr int kExitNotSafe = 3;

// The "s" of a count's noun in text output: "1 warp", "2 warps".
const char* plural(std::uint64_t n) { return n == 1 ? "" : "s"; }

const char* kind_name(PhaseKind k) { return k == PhaseKind::execution ? "execution" : "idle"; }

// A warp's phases as json_text prints a "phases" array at `indent` spaces
// (keys in order, two spaces a level). Written directly: a JSON object per
// phase costs a hundred bytes and more while it is built, and a long trace
// has tens of millions of phases.
std::string phases_json(const std::vector<Phase>& phases, std::size_t indent) {
  if (phases.empty()) return "[]";
  const std::string open(indent + 2, ' '), key(indent + 4, ' ');
  std::string s = "[\n";
  s.reserve(phases.size() * (110 + 4 * indent));
  for (std::size_t i = 0; i < phases.size(); ++i) {
    const Phase& p = phases[i];
    fmt::format_to(std::back_inserter(s),
                   "{0}{{\n{1}\"end\": {2},\n{1}\"kind\": \"{3}\",\n{1}\"section\": {4},\n{1}"
                   "\"start\": {5}\n{0}}}{6}\n",
                   open, key, p.start + p.length, kind_name(p.kind), p.section, p.start,
                   i + 1 < phases.size() ? "," : "");
  }
  s.append(indent, ' ');
  s += ']';
  return s;
}

CommandOutput run_phases(const BlockOptions& o) {
  const Inputs in = load_inputs(o);
  CommandOutput out;
  const std::size_t block_index = chosen_block(in, o.block);
  const BlockTrace& block = in.trace.blocks[block_index];
  Timeline timeline;
  timeline.title = fmt::format("{} {}: phases of each warp alone", o.trace, block.label);
  nlohmann::json j = inputs_json(in);
  j["block"] = block.label;
  j["block_index"] = block_index;
  j["warps"] = nlohmann::json::array();
  // As block-wcet and simulate warn: the times alone of a block the trace
  // may show in part (or, for the worst block, a trace that may leave
  // blocks out) cover only what it shows.
  if (const std::string incomplete = incomplete_block(in, o.block, block_index); !incomplete.empty()) {
    const std::string why = incomplete + "; the times cover only what the trace shows";
    fmt::print(stderr, "warning: {}: {}\n", in.trace.path, why);
    j["notes"].push_back("warning: " + why);
  }
  // Which block, when the trace has several (as block-wcet and simulate say).
  if (!o.json && in.trace.blocks.size() > 1) {
    out.text += fmt::format("{} (index {} of the trace's {} blocks)\n", block.label, block_index,
                            in.trace.blocks.size());
  }
  // Each warp's phases in JSON, spliced into the document where its
  // placeholder string stands.
  std::vector<std::string> phase_arrays;
  for (std::uint32_t i : chosen_warps(block, o.warp)) {
    WarpAnalysis a = analyse_warp(in.config.hw, block.warps[i], in.trace.register_count,
                                  in.config.barriers_drain);
    if (o.json) {
      // "warps": [ { ... "phases": here: six spaces in.
      phase_arrays.push_back(phases_json(a.phases, 6));
      j["warps"].push_back({{"warp", a.warp_id},
                            {"cycles", a.result.total_cycles},
                            {"cycles_alone", a.alone_cycles},
                            {"instructions", a.result.instructions},
                            {"phases", fmt::format("@phases {}@", phase_arrays.size() - 1)}});
      if (!o.svg.empty()) timeline.rows.push_back({fmt::format("warp {}", a.warp_id), std::move(a.phases), {}});
      continue;
    }
    // The phases run every barrier drained; a warp that passes barriers with
    // results pending (GPGPU-Sim's bar.sync) is faster alone.
    const std::string alone =
        a.alone_cycles == a.result.total_cycles
            ? fmt::format("{} cycles alone", a.alone_cycles)
            : fmt::format("{} cycles alone ({} with every barrier drained, as the phases are)",
                          a.alone_cycles, a.result.total_cycles);
    out.text += fmt::format("warp {}: {}, {} instruction{}, {} phase{}, {} section{}\n", a.warp_id,
                            alone, a.result.instructions,
                            plural(a.result.instructions), a.phases.size(), plural(a.phases.size()),
                            a.sections.size(), plural(a.sections.size()));
    for (const Phase& p : a.phases) {
      fmt::format_to(std::back_inserter(out.text), "  {:<9} [{}, {})  {} cycle{}  section {}\n",
                     kind_name(p.kind), p.start, p.start + p.length, p.length, plural(p.length),
                     p.section);
    }
    if (!o.svg.empty()) timeline.rows.push_back({fmt::format("warp {}", a.warp_id), std::move(a.phases), {}});
  }
  if (o.json) {
    const std::string text = json_text(j);
    out.text.reserve(text.size());
    // The placeholders are looked for from the top-level "warps" key on
    // ("warps" sorts last, and a string in JSON holds no raw newline): a
    // path or label that reads like one is left alone.
    std::size_t from = 0;
    const std::size_t warps_key = text.find("\n  \"warps\": [");
    for (std::size_t k = 0; k < phase_arrays.size(); ++k) {
      const std::string mark = fmt::format("\"@phases {}@\"", k);
      const std::size_t at = text.find(mark, std::max(from, warps_key));
      out.text.append(text, from, at - from);
      out.text += phase_arrays[k];
      std::string().swap(phase_arrays[k]);
      from = at + mark.size();
    }
    out.text.append(text, from, std::string::npos);
    out.text += '\n';
  }
  out.timeline = std::move(timeline);
  return out;
}

CommandOutput run_block_wcet(const BlockOptions& o) {
  const Inputs in = load_inputs(o);
  CommandOutput out;
  const BlockChoice choice = parse_block_choice(o.block, in.trace.blocks);
  // Phases are kept for the timeline only: counting them is enough for the
  // bound, and keeping them costs tens of bytes per instruction.
  const BlockAnalysis a = analyse_block(in.config.hw, in.trace, chosen_block(in, o.block),
                                       in.config.barriers_drain, !o.svg.empty());
  const BlockBound& bb = a.bound;
  // A trace that may not show the whole block (cut short, warps missing),
  // or for the worst block every block: its bound covers only what it shows.
  std::string incomplete;
  if (const std::string why = incomplete_block(in.trace, choice, a.block_index); !why.empty()) {
    incomplete = why + "; the bound covers only what the trace shows";
    fmt::print(stderr, "warning: {}: {}\n", in.trace.path, incomplete);
  }
  const std::string below = below_observed(in, bb.safe_upper_bound);
  if (!below.empty()) fmt::print(stderr, "warning: {}: {}\n", in.trace.path, below);
  out.unsafe = !in.config.modelled || !below.empty() || !incomplete.empty();
  if (o.json) {
    nlohmann::json j = inputs_json(in);
    if (!below.empty()) j["notes"].push_back("warning: " + below);
    if (!incomplete.empty()) j["notes"].push_back("warning: " + incomplete);
    j["block"] = a.label;
    j["block_index"] = a.block_index;
    j["bound"] = bb.safe_upper_bound;
    // Shown safe for the modelled machine only (HardwareConfig::modelled),
    // and not for a run the inputs do not describe or show in part.
    j["safe"] = !out.unsafe;
    j["gub"] = bb.general_upper_bound;
    j["gub_safe"] = false;
    // null where the longest warp bounds nothing from below.
    const auto lower = [&](std::uint64_t v) {
      return a.lower_bound_holds ? nlohmann::json(v) : nlohmann::json(nullptr);
    };
    j["lower_bound"] = lower(bb.lower_bound);
    j["longest_warp_length"] = bb.lower_bound;
    if (in.trace.observed_cycles) j["observed_cycles"] = *in.trace.observed_cycles;
    j["sections"] = nlohmann::json::array();
    for (std::size_t s = 0; s < a.section_bounds.size(); ++s) {
      j["sections"].push_back({{"index", s},
                               {"bound", a.section_bounds[s].safe_upper_bound},
                               {"gub", a.section_bounds[s].general_upper_bound},
                               {"lower_bound", lower(a.section_bounds[s].lower_bound)}});
    }
    j["warps"] = nlohmann::json::array();
    for (const WarpAnalysis& w : a.warps) {
      std::uint64_t exec = 0, idle = 0, issues = 0;
      for (const SectionSummary& s : w.sections) {
        exec += s.execution;
        idle += s.idle;
        issues += s.issues;
      }
      j["warps"].push_back({{"warp", w.warp_id},
                            {"cycles_alone", w.alone_cycles},
                            {"phase_cycles", w.result.total_cycles},
                            {"execution", exec},
                            {"idle", idle},
                            {"issues", issues},
                            {"instructions", w.result.instructions}});
    }
    out.text += json_text(j) + '\n';
  } else {
    out.text += fmt::format("trace               {} ({} block{})\n", in.trace.path,
                            in.trace.blocks.size(), plural(in.trace.blocks.size()));
    out.text += fmt::format("hardware            {}, memory latency {}\n", in.config.source,
                            in.config.memory_latency);
    if (!in.ptx.empty()) out.text += fmt::format("PTX file            {}\n", in.ptx);
    out.text += fmt::format("block               {} ({} warp{}, {} section{})\n", a.label,
                            a.warps.size(), plural(a.warps.size()), a.section_bounds.size(),
                            plural(a.section_bounds.size()));
    out.text += fmt::format("block WCET bound    {} cycles  [{}]\n", bb.safe_upper_bound,
                            !below.empty() ? "NOT safe: below the trace's observed run, see the warning"
                            : !incomplete.empty()
                                ? blocks_missing(in, o.block)
                                      ? "NOT safe: the trace may not show every block, see the warning"
                                      : "NOT safe: the trace may not show the whole block, see the warning"
                            : in.config.modelled
                                ? "safe for every work-conserving scheduler"
                                : "NOT shown safe: the hardware is not the modelled machine, see the notes");
    out.text += fmt::format("paper's GUB         {} cycles  [Jeanmougin et al.; NOT safe in general, docs/multiphase.md]\n",
                            bb.general_upper_bound);
    if (a.lower_bound_holds) {
      out.text += fmt::format("lower bound         {} cycles  [longest warp]\n", bb.lower_bound);
    } else {
      out.text += fmt::format("longest warp        {} cycles  [no lower bound: {}]\n", bb.lower_bound,
                              in.config.hw.collector_units != 0
                                  ? "collector units may serve in another order"
                                  : "warps may pass barriers before they drain");
    }
    if (in.trace.observed_cycles) {
      out.text += fmt::format("observed            {} cycles  [kernel_execution_time in the trace]\n",
                              *in.trace.observed_cycles);
    }
    if (a.section_bounds.size() > 1) {
      for (std::size_t s = 0; s < a.section_bounds.size(); ++s) {
        out.text += fmt::format("  section {:<4} bound {:>10}  GUB {:>10}  lower {:>10}\n", s,
                                a.section_bounds[s].safe_upper_bound,
                                a.section_bounds[s].general_upper_bound,
                                a.lower_bound_holds
                                    ? fmt::format("{}", a.section_bounds[s].lower_bound)
                                    : std::string("-"));
      }
    }
  }
  if (!o.svg.empty()) {
    Timeline t;
    t.title = fmt::format("{} {}: each warp alone (Algorithm 1, every barrier drained) and the block bounds", o.trace, a.label);
    for (const WarpAnalysis& w : a.warps) t.rows.push_back({fmt::format("warp {}", w.warp_id), w.phases, {}});
    t.markers.push_back({bb.safe_upper_bound, fmt::format("bound {}", bb.safe_upper_bound)});
    t.markers.push_back({bb.general_upper_bound, fmt::format("GUB {}", bb.general_upper_bound)});
    out.timeline = std::move(t);
  }
  return out;
}

template <typename F>
void register_command(CLI::App& app, const char* name, const char* help, int& exit_code, F run,
                      bool block_option, bool warp_option, bool simulate_options) {
  auto o = std::make_shared<BlockOptions>();
  CLI::App* cmd = app.add_subcommand(name, help);
  add_common_options(cmd, *o);
  if (block_option) {
    cmd->add_option("--block", o->block,
                    "the block's label in the trace (Accel-Sim: x,y,z), its index (#N, or N when "
                    "no block is labelled N), or 'worst' (default: the block with the largest "
                    "bound)");
  }
  if (std::string(name) == "block-wcet") {
    cmd->footer("Exit status: 0 when the bound is shown safe, 2 on an error, 3 when a bound was "
                "printed that is not shown safe (the warnings and notes say why).");
  }
  if (warp_option) cmd->add_option("--warp", o->warp, "only this warp (its id in the trace)");
  if (simulate_options) {
    cmd->add_option("--policy", o->policy,
                    "gto, lrr, random, all (gto, lrr and --seeds random runs), or a stress "
                    "schedule no GPU runs: defer-holds (the ready warp whose next instruction "
                    "blocks a pipeline fewest cycles; ties: lowest id) or defer-holds-balanced "
                    "(ties: the warp furthest behind)")
        ->capture_default_str();
    cmd->add_option("--seed", o->seed,
                    "first seed of the random policy, of --collector-pick random and of --search "
                    "(default 1)");
    cmd->add_option("--seeds", o->seeds, "random runs with --policy all (default 16, at most 100000)");
    cmd->add_option("--search", o->search,
                    "after the policies' runs, hill-climb this many steps (at most 10000000) over "
                    "every choice of issuing warp and of collector pick (whatever --collector-pick "
                    "says), from the slowest of gto, lrr and the two defer-holds schedules under "
                    "each pick rule, seeded by --seed: "
                    "a slower real schedule, so the bound's distance from the worst case is seen "
                    "more closely");
    cmd->add_option("--collector-pick", o->collector_pick,
                    "with collector units, how a queued unit picks among the waiting instructions: "
                    "round-robin (GPGPU-Sim's), random (seeded like the run), oldest, newest, "
                    "longest or shortest; the bounds cover every order")
        ->capture_default_str();
  }
  cmd->callback([o, &exit_code, run, name]() {
    try {
      const CommandOutput out = run(*o);
      // The SVG first: a path that cannot be written fails the command
      // before anything is printed, rather than after its JSON.
      if (!o->svg.empty()) write_text_file(o->svg, render_svg(out.timeline));
      std::cout << out.text;
      exit_code = out.unsafe ? kExitNotSafe : 0;
    } catch (const ToolError& e) {
      std::cerr << "gpuwcet " << name << ": error: " << e.what() << '\n';
      exit_code = 2;
    }
  });
}

}  // namespace

void add_block_commands(CLI::App& app, int& exit_code) {
  register_command(app, "phases",
                   "Execution and idle phases of each warp of a traced block, alone (Algorithm 1)",
                   exit_code, run_phases, true, true, false);
  register_command(app, "block-wcet",
                   "Safe WCET bound of a traced thread block, with the paper's GUB and per-section bounds",
                   exit_code, run_block_wcet, true, false, false);
  register_command(app, "simulate",
                   "Run a traced block on the reference simulator (GTO, LRR, random schedulers; "
                   "--search for slower schedules)",
                   exit_code, run_simulate, true, false, true);
}

}  // namespace gpuwcet::cli
