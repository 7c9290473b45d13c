// Reference block simulator (block_simulator.hpp).
#include "gpuwcet_tools/block_simulator.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <random>
#include <stdexcept>
#include <utility>

namespace gpuwcet::tools {
namespace {

constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();

struct WarpState {
  std::size_t pc = 0;
  std::uint64_t next_issue = 0;  // in order, issue_interval apart
  std::uint64_t drain = 0;       // last result written / resource released
  std::size_t waiting = 0;       // instructions still waiting for a queued unit
  bool done = false;
  bool at_barrier = false;
  std::size_t barriers = 0;
};

// An instruction waiting in a collector unit for its queued unit.
struct Waiting {
  std::size_t warp = 0;
  const Instruction* ins = nullptr;
  std::uint64_t arrive = 0;  // issue + dispatch_delay: operands collected
  std::uint32_t unit = 0;    // the collector unit it holds
  std::size_t event = kNever;  // its IssueEvent, when recorded
};

// GPGPU-Sim's operand collector in front of the queued units
// (HardwareDescription::collector_units): every issued instruction takes the
// lowest free collector unit; one for a non-queued unit leaves it at its
// dispatch, one for a queued unit when that unit picks it as the next to
// serve. A queued unit picks its next instruction among those whose operands
// are collected as soon as it starts serving one (or as the first arrives),
// round-robin over the collector units from the last one picked
// (`dispatch_unit_t::find_ready`).
class Collectors {
 public:
  explicit Collectors(std::uint32_t units) : until_(units, 0), queued_(units, false) {}

  bool free_at(std::uint64_t t) const {
    for (std::size_t k = 0; k < until_.size(); ++k) {
      if (!queued_[k] && until_[k] <= t) return true;
    }
    return false;
  }
  // The next cycle a pass-through instruction leaves its unit.
  std::uint64_t next_release(std::uint64_t t) const {
    std::uint64_t e = kNever;
    for (std::size_t k = 0; k < until_.size(); ++k) {
      if (!queued_[k] && until_[k] > t) e = std::min(e, until_[k]);
    }
    return e;
  }
  std::uint32_t take(std::uint64_t t, std::uint64_t until, bool queued) {
    for (std::size_t k = 0; k < until_.size(); ++k) {
      if (!queued_[k] && until_[k] <= t) {
        until_[k] = until;
        queued_[k] = queued;
        return static_cast<std::uint32_t>(k);
      }
    }
    throw std::logic_error("no free collector unit");
  }
  void release(std::uint32_t k, std::uint64_t t) {
    queued_[k] = false;
    until_[k] = t;
  }

 private:
  std::vector<std::uint64_t> until_;
  std::vector<bool> queued_;
};

std::size_t count_barriers(const std::vector<Instruction>& w) {
  std::size_t n = 0;
  for (const Instruction& i : w) {
    if (i.kind == OpKind::exit) break;
    if (i.kind == OpKind::barrier) ++n;
  }
  return n;
}

// The pick of options.collector_pick (or its chooser) among the arrived
// waiting instructions `arrived` (indices into q, in issue order);
// `round_robin` is GPGPU-Sim's.
std::size_t other_pick(const BlockSimulationOptions& options, const HardwareDescription& hw,
                       const std::vector<Waiting>& q, const std::vector<std::size_t>& arrived,
                       std::size_t round_robin, std::mt19937_64& rng) {
  if (options.collector_chooser) return arrived.at(options.collector_chooser(arrived.size()));
  auto occ = [&](std::size_t i) { return occupancy(hw.units[q[i].ins->unit], *q[i].ins); };
  std::size_t best = arrived.back();
  switch (options.collector_pick) {
    case CollectorPick::round_robin:
      return round_robin;
    case CollectorPick::random:
      return arrived[std::uniform_int_distribution<std::size_t>(0, arrived.size() - 1)(rng)];
    case CollectorPick::oldest:
      return arrived.front();
    case CollectorPick::newest:
      return arrived.back();
    case CollectorPick::longest:
      for (std::size_t i : arrived) best = occ(i) > occ(best) ? i : best;
      return best;
    case CollectorPick::shortest:
      for (std::size_t i : arrived) best = occ(i) < occ(best) ? i : best;
      return best;
  }
  return round_robin;
}

// SchedulerPolicy::defer_holds(_balanced): the ready warp (candidates,
// ascending) whose next instruction blocks others fewest cycles after its
// issue; an instruction for a queued unit counts as blocking none (it waits
// in its collector unit while others issue). Ties: the lowest id, or with
// `balanced` the warp furthest behind in its code first.
std::size_t deferring_holds(const HardwareDescription& hw,
                            const std::vector<std::vector<Instruction>>& warps,
                            const std::vector<WarpState>& st, const std::vector<std::size_t>& candidates,
                            bool balanced) {
  auto key = [&](std::size_t w) {
    const Instruction& i = warps[w][st[w].pc];
    std::uint64_t hold = 0;  // a barrier (it issues with barrier_issues) holds nothing
    if (i.kind != OpKind::barrier) {
      const FunctionalUnit& u = hw.units[i.unit];
      hold = (u.flags & kUnitQueuedDispatch) != 0 ? 0 : blocking_cycles(u, i);
    }
    return std::make_pair(hold, balanced ? st[w].pc : std::size_t{0});
  };
  std::size_t pick = candidates.front();
  for (std::size_t w : candidates) {
    if (key(w) < key(pick)) pick = w;  // strict: ties keep the lower id
  }
  return pick;
}

// Appends the position of `picked` among `among` to the caller's record.
void record(const BlockSimulationOptions& options, const std::vector<std::size_t>& among,
            std::size_t picked) {
  if (options.record_choices == nullptr) return;
  const auto at = std::find(among.begin(), among.end(), picked);
  options.record_choices->push_back(static_cast<std::uint32_t>(at - among.begin()));
}

}  // namespace

BlockSimulation simulate_block(const HardwareDescription& hw,
                               const std::vector<std::vector<Instruction>>& warps,
                               std::size_t register_count, const BlockSimulationOptions& options) {
  if (validate(hw) != Status::ok) throw std::invalid_argument("invalid hardware description");
  if (options.barrier_issues && !barrier_slot_covered(hw)) {
    throw std::invalid_argument("barrier_issues needs barrier_delay >= issue_interval");
  }
  const std::size_t n = warps.size();
  BlockSimulation sim;
  sim.warp_end.assign(n, 0);
  if (n == 0) return sim;
  // Several blocks (options.block_of): each warp's block, and each block's
  // delay from its slot becoming free to its start.
  const bool blocks = !options.block_of.empty();
  std::size_t block_count = 1;
  if (blocks) {
    if (options.block_of.size() != n) throw std::invalid_argument("block_of does not name every warp's block");
    block_count = std::size_t{*std::max_element(options.block_of.begin(), options.block_of.end())} + 1;
    // A block without warps would end, and free its slot, at the launch.
    std::vector<bool> has_warp(std::min(block_count, n + 1), false);
    for (const std::uint32_t b : options.block_of) {
      if (b < has_warp.size()) has_warp[b] = true;
    }
    if (block_count > n || std::find(has_warp.begin(), has_warp.end(), false) != has_warp.end()) {
      throw std::invalid_argument("block_of leaves a block number without warps");
    }
    if (!options.block_delay.empty() && options.block_delay.size() < block_count) {
      throw std::invalid_argument("block_delay does not name every block's delay");
    }
  } else if (!options.block_delay.empty() || options.resident_blocks != 0) {
    throw std::invalid_argument("block_delay or resident_blocks without block_of");
  }
  auto block = [&](std::size_t w) -> std::size_t { return blocks ? options.block_of[w] : 0; };
  auto delay = [&](std::size_t b) -> std::uint64_t {
    return options.block_delay.empty() ? 0 : options.block_delay[b];
  };
  // The first resident_blocks blocks start at the launch; each later one, in
  // block order, in the slot of a running block once that block is known to
  // end (its warps done, its queued instructions served), at that end.
  const std::size_t resident =
      options.resident_blocks == 0 ? block_count : std::min(block_count, options.resident_blocks);
  std::vector<bool> started(block_count, false);
  std::vector<bool> ended(block_count, false);
  std::size_t next_block = 0;
  // The barriers of each block's first warp, which the block's others match.
  constexpr std::size_t kUnseen = std::numeric_limits<std::size_t>::max();
  std::vector<std::size_t> barriers(block_count, kUnseen);
  for (std::size_t index = 0; index < n; ++index) {
    const auto& w = warps[index];
    std::size_t& expected = barriers[block(index)];
    if (expected == kUnseen) expected = count_barriers(w);
    if (count_barriers(w) != expected) {
      throw std::invalid_argument("warps execute different numbers of barriers");
    }
    // Up to the first exit, as the run and profile_warp: what follows it
    // never runs.
    for (const Instruction& i : w) {
      if (i.kind == OpKind::exit && !hw.exit_issues) break;
      if (i.kind == OpKind::barrier) continue;
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
      if (i.kind == OpKind::exit) break;
    }
  }

  std::vector<WarpState> st(n);
  // Starts the next block, `delay` after its slot became free at `free`.
  auto start_next_block = [&](std::uint64_t free) {
    const std::size_t b = next_block++;
    if (free > kNever / 2 || delay(b) > kNever / 2 - free - hw.launch_delay) {
      throw std::invalid_argument("block start too late");
    }
    const std::uint64_t at = free + delay(b);
    started[b] = true;
    for (std::size_t w = 0; w < n; ++w) {
      if (block(w) != b) continue;
      st[w].next_issue = at + hw.launch_delay;
      st[w].drain = at;  // a warp of no instruction ends where its block starts
    }
  };
  for (std::size_t w = 0; w < n; ++w) st[w].next_issue = kNever;  // not started
  while (next_block < resident) start_next_block(0);
  std::vector<std::uint64_t> ready(n * register_count, 0);
  std::array<std::uint64_t, kMaxResources> resource_free{};
  std::mt19937_64 rng(options.seed);
  std::mt19937_64 pick_rng(options.collector_seed);
  std::vector<std::size_t> arrived;
  std::vector<std::size_t> candidates;
  candidates.reserve(n);
  std::size_t last = n - 1;  // LRR starts at warp 0; GTO has no greedy warp yet
  bool have_last = false;
  const bool collect = hw.collector_units != 0;
  Collectors collectors(hw.collector_units);
  std::array<std::vector<Waiting>, kMaxResources> waiting;  // in the collector units
  std::array<std::optional<Waiting>, kMaxResources> next;    // picked, not yet served
  std::array<std::uint32_t, kMaxResources> last_picked{};
  last_picked.fill(collect ? hw.collector_units - 1 : 0);  // the first scan starts at unit 0
  std::size_t queued = 0;  // waiting or picked, over all resources

  // Enters `ins` of warp w into its unit at d: hold, results, drain.
  auto dispatch = [&](std::size_t w, const Instruction& ins, std::uint64_t d) {
    const FunctionalUnit& fu = hw.units[ins.unit];
    resource_free[unit_resource(hw, ins.unit)] = d + occupancy(fu, ins);
    const std::uint64_t written = result_cycle(hw, fu, ins, d);
    std::uint64_t* reg = ready.data() + w * register_count;
    for (std::size_t k = 0; k < ins.dst_count; ++k) reg[ins.dst[k]] = written;
    st[w].drain = std::max(st[w].drain, completion_cycle(hw, fu, ins, d));
  };
  // The queued units' picks and dispatches in cycle t.
  auto serve = [&](std::uint64_t t) {
    for (std::size_t r = 0; r < kMaxResources; ++r) {
      for (;;) {
        if (!next[r]) {
          std::vector<Waiting>& q = waiting[r];
          std::size_t best = q.size();
          std::uint32_t best_distance = 0;
          const std::uint32_t from = (last_picked[r] + 1) % hw.collector_units;
          arrived.clear();
          for (std::size_t i = 0; i < q.size(); ++i) {
            if (q[i].arrive > t) continue;
            arrived.push_back(i);
            const std::uint32_t distance = (q[i].unit + hw.collector_units - from) % hw.collector_units;
            if (best == q.size() || distance < best_distance) {
              best = i;
              best_distance = distance;
            }
          }
          if (best == q.size()) break;
          if (arrived.size() >= 2) {
            best = other_pick(options, hw, q, arrived, best, pick_rng);
            record(options, arrived, best);
          }
          next[r] = q[best];
          last_picked[r] = q[best].unit;
          collectors.release(q[best].unit, t);
          q.erase(q.begin() + static_cast<std::ptrdiff_t>(best));
        }
        if (resource_free[r] > t) break;
        const Waiting w = *next[r];
        next[r].reset();
        --queued;
        --st[w.warp].waiting;
        dispatch(w.warp, *w.ins, t);
        if (w.event != kNever) sim.trace[w.event].dispatch = t;
      }
    }
  };

  // The first cycle after t in which serve() can act: a picked instruction's
  // unit frees, or a waiting one arrives at its unit. serve() does nothing in
  // the cycles between, so the simulation skips them: its running time then
  // does not grow with initiation intervals or latencies.
  auto next_serve = [&](std::uint64_t t) {
    std::uint64_t e = kNever;
    for (std::size_t r = 0; r < kMaxResources; ++r) {
      if (next[r]) {
        e = std::min(e, resource_free[r]);
      } else {
        for (const Waiting& q : waiting[r]) e = std::min(e, q.arrive);
      }
    }
    return std::max(e, t + 1);
  };

  // Earliest cycle the warp's next instruction satisfies its own and the
  // resource constraints (nothing changes them until some warp issues or a
  // queued unit serves one).
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

  // Releases the warps of `b` from its barrier if every live one is there in
  // cycle t (once free to issue again; and drained, when barriers drain): at
  // the latest of that and t, plus barrier_delay. Returns the release, or
  // kNever if some warp of `b` is not there yet or none is live.
  auto release_barrier = [&](std::size_t b, std::uint64_t t) {
    // A barrier that issued is there from its issue cycle, already past.
    std::uint64_t release = options.barrier_issues ? 0 : t;
    bool live = false;
    for (std::size_t w = 0; w < n; ++w) {
      const WarpState& s = st[w];
      if (block(w) != b || s.done) continue;
      if (!s.at_barrier || (options.barriers_drain && s.waiting != 0)) return kNever;
      live = true;
      release = std::max(release, s.next_issue);
      if (options.barriers_drain) release = std::max(release, s.drain);
    }
    if (!live) return kNever;
    release = std::max(release + hw.barrier_delay, t);
    if (b == 0) sim.releases.push_back(release);
    for (std::size_t w = 0; w < n; ++w) {
      WarpState& s = st[w];
      if (block(w) != b || s.done) continue;
      s.at_barrier = false;
      ++s.pc;
      s.next_issue = std::max(s.next_issue, release);
      s.drain = std::max(s.drain, release);
    }
    return release;
  };

  std::uint64_t t = 0;
  for (;;) {
    ++sim.steps;
    if (collect) serve(t);
    // Exit and barrier take no issue slot: settle them first.
    bool all_done = true;
    bool all_waiting = true;
    for (std::size_t w = 0; w < n; ++w) {
      WarpState& s = st[w];
      if (!started[block(w)]) {
        all_done = false;
        continue;
      }
      if (!s.done && !s.at_barrier) {
        // An exit that takes an issue slot is issued below; the warp then
        // runs past it.
        if (s.pc >= warps[w].size() ||
            (warps[w][s.pc].kind == OpKind::exit && !hw.exit_issues)) {
          s.done = true;
        } else if (warps[w][s.pc].kind == OpKind::barrier && !options.barrier_issues) {
          s.at_barrier = true;
        }
      }
      if (!s.done) all_done = false;
      // A draining barrier also waits for the warp's queued instructions.
      const bool there = s.at_barrier && (!options.barriers_drain || s.waiting == 0);
      if (!s.done && !there) all_waiting = false;
    }
    if (blocks && next_block < block_count) {
      // A block that ends frees its slot for the next one.
      bool dispatched = false;
      for (std::size_t b = 0; b < block_count && next_block < block_count; ++b) {
        if (!started[b] || ended[b]) continue;
        std::uint64_t end = 0;
        bool over = true;
        for (std::size_t w = 0; w < n && over; ++w) {
          if (block(w) != b) continue;
          over = st[w].done && st[w].waiting == 0;
          end = std::max(end, st[w].drain);
        }
        if (!over) continue;
        ended[b] = true;
        start_next_block(end);
        dispatched = true;
      }
      if (dispatched) continue;
    }
    if (all_done && queued == 0) break;
    if (blocks) {
      // Each block passes its barriers on its own; the others run on, and
      // the loop visits the cycles in between as it does any wait. A warp
      // released settles again (an exit or a barrier next) before it issues.
      bool released = false;
      for (std::size_t b = 0; b < block_count; ++b) released |= release_barrier(b, t) != kNever;
      if (released) continue;
    } else if (all_waiting && !all_done) {
      // Every live warp is at the barrier: release once the last one got
      // there, and jump to the release.
      const std::uint64_t release = release_barrier(0, t);
      // Queued instructions left behind (barriers that do not drain) are
      // served meanwhile.
      for (std::uint64_t c = t; collect && queued != 0 && (c = next_serve(c)) < release;) {
        ++sim.steps;
        serve(c);
      }
      t = release;
      continue;
    }

    candidates.clear();
    std::uint64_t next_event = kNever;
    const bool unit_free = !collect || collectors.free_at(t);
    for (std::size_t w = 0; w < n; ++w) {
      if (!started[block(w)] || st[w].done || st[w].at_barrier) continue;
      // A barrier that issues waits for nothing but the warp's issue stage
      // and, like an instruction, a free collector unit (the release waits
      // for the rest).
      const bool barrier = warps[w][st[w].pc].kind == OpKind::barrier;
      const std::uint64_t e = barrier ? st[w].next_issue : earliest(w);
      if (e <= t && unit_free) {
        candidates.push_back(w);
      } else if (e > t) {
        next_event = std::min(next_event, e);
      }
      // Ready but every collector unit taken: one frees when a pass-through
      // instruction dispatches or a queued unit picks (both below).
    }
    if (candidates.empty()) {
      if (collect) {
        // A queued unit may serve (and free the collector unit of what it
        // picks), or a pass-through instruction leave its collector unit,
        // before a warp is ready.
        if (queued != 0) next_event = std::min(next_event, next_serve(t));
        next_event = std::min(next_event, std::max(collectors.next_release(t), t + 1));
      }
      if (next_event == kNever) throw std::logic_error("simulation stalled");
      t = next_event;
      continue;
    }

    std::size_t pick = candidates.front();
    if (options.issue_chooser && candidates.size() > 1) {
      pick = candidates.at(options.issue_chooser(candidates));
    } else {
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
        case SchedulerPolicy::defer_holds:
        case SchedulerPolicy::defer_holds_balanced:
          pick = deferring_holds(hw, warps, st, candidates,
                                 options.policy == SchedulerPolicy::defer_holds_balanced);
          break;
      }
    }

    if (candidates.size() > 1) record(options, candidates, pick);
    WarpState& s = st[pick];
    const Instruction& ins = warps[pick][s.pc];
    if (ins.kind == OpKind::barrier) {
      // The bar.sync takes this cycle's slot and passes through a collector
      // unit like a 1-cycle instruction without registers; the warp is at
      // the barrier from this cycle (next_issue: the release counts
      // barrier_delay >= issue_interval from the last arrival, which covers
      // the warp's own slot).
      if (collect) collectors.take(t, t + hw.dispatch_delay, false);
      s.at_barrier = true;
      s.next_issue = t;
      last = pick;
      have_last = true;
      ++t;
      continue;
    }
    const std::size_t r = unit_resource(hw, ins.unit);
    std::uint64_t d = 0;
    if (collect && (hw.units[ins.unit].flags & kUnitQueuedDispatch) != 0) {
      // Its results are unknown until its unit serves it.
      std::uint64_t* reg = ready.data() + pick * register_count;
      for (std::size_t k = 0; k < ins.dst_count; ++k) reg[ins.dst[k]] = kNever;
      Waiting w;
      w.warp = pick;
      w.ins = &ins;
      w.arrive = t + hw.dispatch_delay;
      w.unit = collectors.take(t, kNever, true);
      if (options.record_trace) w.event = sim.trace.size();
      waiting[r].push_back(w);
      ++queued;
      ++s.waiting;
    } else {
      // Without collector units, instructions enter their unit in issue
      // order: resource_free already accounts for every earlier issue.
      d = dispatch_cycle(hw, t, resource_free[r]);
      if (collect) collectors.take(t, d, false);
      dispatch(pick, ins, d);
    }
    s.next_issue = next_issue_cycle(hw, ins.kind, t);
    if (options.record_trace) {
      sim.trace.push_back(
          {static_cast<std::uint32_t>(pick), static_cast<std::uint32_t>(s.pc), t, d});
    }
    // Without operand collection (dispatch_delay 0) it may enter its unit in
    // the cycle it issues, as the model allows.
    if (collect) serve(t);
    ++s.pc;
    if (ins.kind == OpKind::exit) s.pc = warps[pick].size();  // ends once drained
    last = pick;
    have_last = true;
    ++t;  // one issue per cycle for the SM
  }
  for (std::size_t w = 0; w < n; ++w) sim.warp_end[w] = st[w].drain;
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
