// Reference block simulator (block_simulator.hpp).
#include "gpuwcet_tools/block_simulator.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <random>
#include <stdexcept>

namespace gpuwcet::tools {
namespace {

struct WarpState {
  std::size_t pc = 0;
  std::uint64_t next_issue = 0;  // in order, issue_interval apart
  std::uint64_t drain = 0;       // last result written / resource released
  bool done = false;
  bool at_barrier = false;
  std::size_t barriers = 0;
};

std::size_t count_barriers(const std::vector<Instruction>& w) {
  std::size_t n = 0;
  for (const Instruction& i : w) {
    if (i.kind == OpKind::exit) break;
    if (i.kind == OpKind::barrier) ++n;
  }
  return n;
}

}  // namespace

BlockSimulation simulate_block(const HardwareDescription& hw,
                               const std::vector<std::vector<Instruction>>& warps,
                               std::size_t register_count, const BlockSimulationOptions& options) {
  if (validate(hw) != Status::ok) throw std::invalid_argument("invalid hardware description");
  const std::size_t n = warps.size();
  BlockSimulation sim;
  sim.warp_end.assign(n, 0);
  if (n == 0) return sim;
  const std::size_t barriers = count_barriers(warps[0]);
  for (const auto& w : warps) {
    if (count_barriers(w) != barriers) {
      throw std::invalid_argument("warps execute different numbers of barriers");
    }
    for (const Instruction& i : w) {
      if (i.kind == OpKind::barrier || (i.kind == OpKind::exit && !hw.exit_issues)) continue;
      if (i.unit >= hw.unit_count) throw std::invalid_argument("unknown unit");
      if (i.dst_count > kMaxDestinations || i.src_count > kMaxSources) {
        throw std::invalid_argument("too many operands");
      }
      for (std::size_t k = 0; k < i.dst_count; ++k) {
        if (i.dst[k] >= register_count) throw std::invalid_argument("register out of range");
      }
      for (std::size_t k = 0; k < i.src_count; ++k) {
        if (i.src[k] >= register_count) throw std::invalid_argument("register out of range");
      }
    }
  }

  std::vector<WarpState> st(n);
  for (WarpState& s : st) s.next_issue = hw.launch_delay;
  std::vector<std::uint64_t> ready(n * register_count, 0);
  std::array<std::uint64_t, kMaxResources> resource_free{};
  std::mt19937_64 rng(options.seed);
  std::vector<std::size_t> candidates;
  candidates.reserve(n);
  std::size_t last = n - 1;  // LRR starts at warp 0; GTO has no greedy warp yet
  bool have_last = false;

  // Earliest cycle the warp's next instruction satisfies its own and the
  // resource constraints (nothing changes them until some warp issues).
  auto earliest = [&](std::size_t w) {
    const Instruction& ins = warps[w][st[w].pc];
    std::uint64_t t = std::max(st[w].next_issue,
                               unit_allows_issue(hw, hw.units[ins.unit],
                                                 resource_free[unit_resource(hw, ins.unit)]));
    const std::uint64_t* reg = ready.data() + w * register_count;
    for (std::size_t k = 0; k < ins.src_count; ++k) t = std::max(t, reg[ins.src[k]]);
    for (std::size_t k = 0; k < ins.dst_count; ++k) t = std::max(t, reg[ins.dst[k]]);
    return t;
  };

  std::uint64_t t = 0;
  for (;;) {
    // Exit and barrier take no issue slot: settle them first.
    bool all_done = true;
    bool all_waiting = true;
    for (std::size_t w = 0; w < n; ++w) {
      WarpState& s = st[w];
      if (!s.done && !s.at_barrier) {
        // An exit that takes an issue slot is issued below; the warp then
        // runs past it.
        if (s.pc >= warps[w].size() ||
            (warps[w][s.pc].kind == OpKind::exit && !hw.exit_issues)) {
          s.done = true;
          sim.warp_end[w] = s.drain;
        } else if (warps[w][s.pc].kind == OpKind::barrier) {
          s.at_barrier = true;
        }
      }
      if (!s.done) all_done = false;
      if (!s.done && !s.at_barrier) all_waiting = false;
    }
    if (all_done) break;
    if (all_waiting) {
      // Every live warp is at the barrier: release once the last one got
      // there. A warp is there once free to issue again (and drained, when
      // barriers drain).
      std::uint64_t release = t;
      for (const WarpState& s : st) {
        if (s.done) continue;
        release = std::max(release, s.next_issue);
        if (options.barriers_drain) release = std::max(release, s.drain);
      }
      release += hw.barrier_delay;
      sim.releases.push_back(release);
      for (WarpState& s : st) {
        if (s.done) continue;
        s.at_barrier = false;
        ++s.pc;
        s.next_issue = std::max(s.next_issue, release);
        s.drain = std::max(s.drain, release);
      }
      t = release;
      continue;
    }

    candidates.clear();
    std::uint64_t next_event = std::numeric_limits<std::uint64_t>::max();
    for (std::size_t w = 0; w < n; ++w) {
      if (st[w].done || st[w].at_barrier) continue;
      const std::uint64_t e = earliest(w);
      if (e <= t) {
        candidates.push_back(w);
      } else {
        next_event = std::min(next_event, e);
      }
    }
    if (candidates.empty()) {
      t = next_event;
      continue;
    }

    std::size_t pick = candidates.front();
    switch (options.policy) {
      case SchedulerPolicy::greedy_then_oldest:
        if (have_last && std::find(candidates.begin(), candidates.end(), last) != candidates.end()) {
          pick = last;
        }
        break;
      case SchedulerPolicy::loose_round_robin: {
        std::size_t best = n;
        for (std::size_t w : candidates) {
          const std::size_t dist = (w + n - (last + 1) % n) % n;
          if (dist < best) {
            best = dist;
            pick = w;
          }
        }
        break;
      }
      case SchedulerPolicy::random:
        pick = candidates[std::uniform_int_distribution<std::size_t>(0, candidates.size() - 1)(rng)];
        break;
    }

    WarpState& s = st[pick];
    const Instruction& ins = warps[pick][s.pc];
    const FunctionalUnit& fu = hw.units[ins.unit];
    // Instructions enter their unit in issue order: resource_free already
    // accounts for every earlier issue of the block.
    std::uint64_t& free = resource_free[unit_resource(hw, ins.unit)];
    const std::uint64_t d = dispatch_cycle(hw, t, free);
    const std::uint64_t held_until = d + occupancy(fu, ins);
    const std::uint64_t written = result_cycle(hw, fu, ins, d);
    free = held_until;
    std::uint64_t* reg = ready.data() + pick * register_count;
    for (std::size_t k = 0; k < ins.dst_count; ++k) reg[ins.dst[k]] = written;
    s.drain = std::max(s.drain, completion_cycle(hw, fu, ins, d));
    s.next_issue = next_issue_cycle(hw, ins.kind, t);
    if (options.record_trace) {
      sim.trace.push_back(
          {static_cast<std::uint32_t>(pick), static_cast<std::uint32_t>(s.pc), t, d});
    }
    ++s.pc;
    if (ins.kind == OpKind::exit) s.pc = warps[pick].size();  // ends once drained
    last = pick;
    have_last = true;
    ++t;  // one issue per cycle for the SM
  }
  sim.cycles = *std::max_element(sim.warp_end.begin(), sim.warp_end.end());
  return sim;
}

std::vector<Phase> simulated_phases(const HardwareDescription& hw,
                                    const std::vector<Instruction>& instructions,
                                    const BlockSimulation& sim, std::uint32_t warp) {
  std::vector<std::uint64_t> issue(instructions.size(), 0);
  std::vector<std::uint64_t> dispatch(instructions.size(), 0);
  for (const IssueEvent& e : sim.trace) {
    if (e.warp != warp) continue;
    issue.at(e.index) = e.cycle;
    dispatch.at(e.index) = e.dispatch;
  }
  std::vector<Phase> out;
  auto add = [&](PhaseKind kind, std::uint64_t a, std::uint64_t b, std::uint32_t section) {
    if (b <= a) return;
    if (!out.empty() && out.back().kind == kind && out.back().section == section &&
        out.back().start + out.back().length == a) {
      out.back().length += b - a;
      return;
    }
    out.push_back(Phase{a, b - a, kind, section});
  };
  std::uint32_t section = 0;
  std::uint64_t exec_start = 0, busy_end = 0, drain = 0;
  for (std::size_t i = 0; i < instructions.size(); ++i) {
    const Instruction& ins = instructions[i];
    if (ins.kind == OpKind::exit && !hw.exit_issues) break;
    if (ins.kind == OpKind::barrier) {
      const std::uint64_t release = sim.releases.at(section);
      if (release < drain) {
        // Passed with results pending (barriers that do not drain): the
        // phases run on into the next section.
        ++section;
        continue;
      }
      add(PhaseKind::execution, exec_start, busy_end, section);
      add(PhaseKind::idle, busy_end, drain, section);
      add(PhaseKind::idle, drain, release, section);  // waiting for the other warps
      ++section;
      exec_start = busy_end = drain = release;
      continue;
    }
    const std::uint64_t t = issue[i] + hw.dispatch_delay;  // ready for its unit
    const FunctionalUnit& fu = hw.units[ins.unit];
    if (t > busy_end) {
      add(PhaseKind::execution, exec_start, busy_end, section);
      add(PhaseKind::idle, busy_end, t, section);
      exec_start = t;
    }
    busy_end = std::max(busy_end, dispatch[i] + occupancy(fu, ins));
    drain = std::max(drain, completion_cycle(hw, fu, ins, dispatch[i]));
    if (ins.kind == OpKind::exit) break;
  }
  add(PhaseKind::execution, exec_start, busy_end, section);
  add(PhaseKind::idle, busy_end, drain, section);
  return out;
}

}  // namespace gpuwcet::tools
