// gpuwcet makespan: bounds on the makespan of W warps on one SM.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "commands.hpp"
#include "gpuwcet_tools/json_output.hpp"
#include "gpuwcet_tools/makespan_report.hpp"
#include "gpuwcet_tools/tool_error.hpp"

namespace gpuwcet::cli {

namespace {

struct MakespanOptions {
  std::string config;
  std::string kernel;
  std::string warps;      // parsed by us: range errors get a clear message
  std::string warp_size;
  std::string units;
  std::string method = "pessimistic";
  std::string budget_nodes;  // parsed by us, like warps
  std::string budget_steps;
  std::string approx_x;
  double time_limit = 60;
  std::string ilp_formulation = "symmetric";
  bool time_limit_given = false;  // so that an ignored one can be said to be
  bool ilp_formulation_given = false;
  bool schedule = false;
  bool quiet = false;
  bool json = false;
};

// The problem from --config and the options, which override the file and
// may give what it lacks: a key is required only once both are merged.
tools::MakespanProblem problem_of(const MakespanOptions& o) {
  using namespace gpuwcet::tools;
  if (o.config.empty() && o.kernel.empty()) {
    throw ToolError("give --kernel (with --warps and --units) or --config FILE");
  }
  MakespanConfig c;
  if (!o.config.empty()) c = load_makespan_config(o.config);
  if (!o.kernel.empty()) c.kernel = o.kernel;
  if (!o.warps.empty()) c.warps = parse_unsigned(o.warps, "number of warps");
  if (!o.warp_size.empty()) {
    c.warp_size = static_cast<std::uint32_t>(parse_unsigned(o.warp_size, "warp size", 0xFFFFFFFFu));
  }
  if (!o.units.empty()) c.units = parse_units(o.units);
  if (!o.config.empty()) {
    const auto missing = [&](const char* key, const char* option) {
      return ToolError(fmt::format("{}: missing {} (or give {})", o.config, key, option));
    };
    if (!c.kernel) throw missing("key 'kernel'", "--kernel");
    if (!c.warps) throw missing("key 'warps'", "--warps");
    if (!c.units) throw missing("table [units]", "--units");
  }
  // Without a file, what the options leave out fails validation with its
  // own message (no warps: "at least 1", no units: "no unit class").
  MakespanProblem p;
  p.kernel = c.kernel.value_or("");
  p.warps = c.warps.value_or(0);
  p.warp_size = c.warp_size.value_or(p.warp_size);
  p.units = c.units.value_or(p.units);
  return p;
}

int run(const MakespanOptions& o) {
  using namespace gpuwcet::tools;
  try {
    const MakespanProblem problem = problem_of(o);
    const MakespanMethod method = parse_method(o.method);
    const ValidatedProblem v = validate(problem);
    if (o.schedule && method != MakespanMethod::exact && method != MakespanMethod::ilp) {
      throw ToolError("--schedule needs --method exact or ilp");
    }
    if (o.ilp_formulation != "symmetric" && o.ilp_formulation != "paper") {
      throw ToolError(fmt::format("unknown ILP formulation '{}' (expected symmetric or paper)",
                                  o.ilp_formulation));
    }
    // Options the method does not use are said to be ignored.
    const std::string this_method = "--method " + o.method;
    const auto ignored = [&](const char* option, const char* used_by) {
      note_ignored(option, used_by, this_method);
    };
    const bool searches = method == MakespanMethod::exact || method == MakespanMethod::approx;
#ifdef GPUWCET_HAVE_GLPK
    const bool solves_ilp = method == MakespanMethod::exact || method == MakespanMethod::ilp;
    const char* const limited = "--method ilp and exact";
#else
    // Without GLPK the exact method has no ILP fallback for a limit to bound.
    const bool solves_ilp = method == MakespanMethod::ilp;
    const char* const limited = "--method ilp (and exact's ILP fallback, absent from this build)";
#endif
    if (!o.approx_x.empty() && method != MakespanMethod::approx) ignored("--approx-x", "--method approx");
    if (!o.budget_nodes.empty() && !searches) ignored("--budget-nodes", "--method exact and approx");
    if (!o.budget_steps.empty() && !searches) ignored("--budget-steps", "--method exact and approx");
    if (o.time_limit_given && !solves_ilp) ignored("--time-limit", limited);
    if (o.ilp_formulation_given && method != MakespanMethod::ilp) {
      ignored("--ilp-formulation", "--method ilp");
    }
    if (!(o.time_limit > 0) || !std::isfinite(o.time_limit)) {
      throw ToolError("--time-limit must be a positive, finite number of seconds");
    }
    SearchSettings search;
    if (!o.budget_nodes.empty()) search.budget_nodes = parse_unsigned(o.budget_nodes, "--budget-nodes");
    if (!o.budget_steps.empty()) search.budget_steps = parse_unsigned(o.budget_steps, "--budget-steps");
    search.progress = !o.quiet;  // progress goes to stderr, so JSON on stdout stays clean
    if (!o.approx_x.empty()) {
      search.approx_x = parse_unsigned(o.approx_x, "--approx-x");
      if (search.approx_x == 0) throw ToolError("--approx-x must be at least 1");
    }
    search.time_limit_seconds = o.time_limit;
    search.ilp_paper_formulation = o.ilp_formulation == "paper";
    search.schedule = o.schedule;
    const MakespanReport report = compute_makespan(problem, v, method, search);
    if (o.json) {
      nlohmann::json j = to_json(problem, v, report);
      if (o.schedule) j["schedule"] = schedule_json(v, report, problem.warps);
      std::cout << json_text(j) << '\n';
    } else {
      std::cout << to_text(problem, v, report);
      if (o.schedule) std::cout << gantt(v, report, problem.warps);
    }
    return 0;
  } catch (const ToolError& e) {
    std::cerr << "gpuwcet makespan: error: " << e.what() << '\n';
    return 2;
  }
}

}  // namespace

void add_makespan_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<MakespanOptions>();
  CLI::App* cmd = app.add_subcommand(
      "makespan",
      "Worst-case makespan of W identical warps running one kernel string on one SM\n"
      "(Berezovskyi, Bletsas, Andersson, ECRTS 2012). Prints the transformed kernel,\n"
      "the safe bound and, for comparison, the paper's (unsafe) estimate.");
  cmd->add_option("--config", opts->config,
                  "TOML file with kernel, warps, warp_size and a [units] table;\n"
                  "options given on the command line override it")
      ->check(CLI::ExistingFile);
  cmd->add_option("-k,--kernel", opts->kernel,
                  "kernel string, one class symbol per instruction, e.g. LLCLL");
  cmd->add_option("-w,--warps", opts->warps, "number of warps W (>= 1)");
  cmd->add_option("-u,--units", opts->units,
                  "units per class on the SM, e.g. L=16,C=32 (up to 8 classes, A-Z)");
  cmd->add_option("-s,--warp-size", opts->warp_size, "threads per warp S (default 32)");
  cmd->add_option("-m,--method", opts->method,
                  "pessimistic: the safe closed-form bound (default);\n"
                  "exact: the worst case by branch-and-bound search (safe bounds,\n"
                  "  exact unless the node budget runs out; then, with GLPK, the\n"
                  "  symmetric ILP under --time-limit);\n"
                  "ilp: the worst case by GLPK integer programming (GLPK builds only);\n"
                  "approx: the paper's Eqs. (42)-(43), min over y <= X of\n"
                  "  ceil(W/y)*T(y), reported as NOT safe;\n"
                  "paper: the paper's Eqs. (5)-(7), reported as NOT safe");
  cmd->add_option("--approx-x", opts->approx_x,
                  "largest group size y of --method approx, at least 1 (default min(W, 8))");
  CLI::Option* time_limit = cmd->add_option(
      "--time-limit", opts->time_limit,
      "seconds GLPK may take (--method ilp, and the fallback of exact); default 60");
  CLI::Option* formulation = cmd->add_option(
      "--ilp-formulation", opts->ilp_formulation,
      "symmetric (counts of warps, default) or paper (the paper's Fig. 3 binaries)");
  cmd->add_option("--budget-nodes", opts->budget_nodes,
                  "node budget of the exact search (0 = none); when it runs out the\n"
                  "answer is the safe upper bound and exact is false. It does not\n"
                  "bound the two incumbent schedules the search starts from, which\n"
                  "play up to the safe bound's cycles (millions for 65,535 warps)");
  cmd->add_option("--budget-steps", opts->budget_steps,
                  "step budget (0 = none): states generated, the incumbent schedules'\n"
                  "cycles included, so it bounds the whole search (with --method\n"
                  "approx, each group's search); when it runs out the answer is the\n"
                  "safe upper bound and exact is false");
  cmd->add_flag("--schedule", opts->schedule,
                "print a worst schedule (text Gantt chart in the style of the paper's\n"
                "Fig. 2, or 'schedule' in JSON); methods exact and ilp");
  cmd->add_flag("-q,--quiet", opts->quiet, "no progress lines on stderr");
  cmd->add_flag("--json", opts->json, "print one JSON object instead of text");
  cmd->callback([opts, time_limit, formulation, &exit_code]() {
    opts->time_limit_given = time_limit->count() > 0;
    opts->ilp_formulation_given = formulation->count() > 0;
    exit_code = run(*opts);
  });
}

}  // namespace gpuwcet::cli
