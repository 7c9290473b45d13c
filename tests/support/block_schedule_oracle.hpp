// Independent oracle for the multi-phase block bounds: a second implementation
// of the block machine of docs/multiphase.md that shares no code with the
// library or the reference simulator, with two ways to make the choices the
// machine leaves open:
// - worst_case(): every choice, exhaustively (depth-first over all
//   schedules, and over every pick of a queued unit with collector units).
//   Exponential: blocks of 2-3 warps of a few instructions.
// - run(choose) / run_priority(order): the caller picks the warp that issues
//   (a fixed priority list: the first ready warp in `order`); queued units
//   pick the oldest. With the victim last this is the adversary that starves
//   one warp as long as any other can issue; it is a schedule, not a bound.
// Machine: one issue per cycle for the block, in order per warp, the first
// issue at launch_delay; instruction i of a warp issues at the first cycle t
// after its predecessor's issue at which its sources and destinations are
// written (RAW, WAW) and, unless its unit queues, its unit's resource is
// free at t + dispatch_delay. It enters the unit at d = max(t +
// dispatch_delay, resource free), holds the resource during [d, d +
// initiation + extra) and writes its destinations at d + initiation + latency
// (or, with latency_from_issue, d + max(latency, initiation)) plus
// result_delay plus extra (unless the unit's extra cycles only hold it); a
// warp issues again issue_interval cycles later (plus branch_delay after a
// branch). A barrier waits until every warp reached it and drained (or, with
// barriers_drain false, until every warp reached it), and releases the block
// barrier_delay cycles after the last got there. A warp gets there once
// free to issue, or, with barrier_issues (GPGPU-Sim's bar.sync, "Machine
// model": barrier_delay >= issue_interval), by issuing the barrier like a
// one-cycle instruction without registers or unit: it takes the cycle's
// issue slot once the warp's issue stage allows and, with collector units,
// a collector unit for dispatch_delay cycles. Exit ends
// a warp once drained (after issuing like a compute instruction when
// exit_issues).
// With collector units (collector_units N > 0), written from "Machine model"
// and "Operand collectors" in docs/multiphase.md: an issue needs one of the N
// units free; an instruction for a non-queued unit holds one from its issue to
// its dispatch; one for a queued unit holds one from its issue until its
// resource picks it, and its results are unknown until it is served. A queued
// resource that holds no picked instruction picks any one whose operands are
// collected (issue + dispatch_delay), and serves the picked one once free, so
// that it picks its next one in the cycle it starts serving one. In a cycle,
// picks and services come before the issue (a unit released then can be
// taken) and again after it (with dispatch_delay 0 an instruction can be
// served in the cycle it issues). Without collector units a queued resource
// serves in issue order.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "gpuwcet/block_model.hpp"

namespace gpuwcet::testing {

class BlockScheduleOracle {
 public:
  // `barriers_drain` false: a warp reaches a barrier as soon as it is free to
  // issue, with its results still pending (GPGPU-Sim's bar.sync).
  // `barrier_issues`: a warp reaches it by issuing it.
  BlockScheduleOracle(const HardwareDescription& hw, std::vector<std::vector<Instruction>> warps,
                      std::size_t registers, bool barriers_drain = true, bool barrier_issues = false)
      : hw_(hw),
        warps_(std::move(warps)),
        registers_(registers),
        barriers_drain_(barriers_drain),
        barrier_issues_(barrier_issues) {
    for (auto& w : warps_) {
      // Cut each warp at its exit; a missing exit is implied.
      auto it = std::find_if(w.begin(), w.end(),
                             [](const Instruction& i) { return i.kind == OpKind::exit; });
      if (it != w.end() && hw_.exit_issues) ++it;  // the exit itself issues
      w.erase(it, w.end());
    }
  }

  // Longest block execution over every work-conserving schedule (and every
  // pick order of the queued units, with collector units).
  std::uint64_t worst_case(std::uint64_t max_nodes = 5'000'000) {
    nodes_ = 0;
    max_nodes_ = max_nodes;
    return explore(initial());
  }
  // Whether worst_case() had to stop at max_nodes (its answer is then a lower bound).
  bool truncated() const { return nodes_ > max_nodes_; }

  // Block execution when `choose(ready warps, their next instructions)` picks
  // the warp that issues (it must return one of `ready`); queued units pick
  // the oldest instruction.
  template <typename Choose>
  std::uint64_t run(Choose&& choose) {
    State s = initial();
    std::vector<std::size_t> options;
    std::vector<const Instruction*> next;
    for (;;) {
      std::size_t resource = 0;
      switch (next_choice(s, options, resource)) {
        case Choice::done:
          return s.end;
        case Choice::pick:
          pick(s, resource, options.front());
          break;
        case Choice::issue:
          next.clear();
          for (std::size_t k : options) next.push_back(&warps_[k][s.w[k].pc]);
          issue(s, choose(options, next));
          break;
      }
    }
  }

  // Block execution when the first ready warp of `order` always issues.
  std::uint64_t run_priority(const std::vector<std::size_t>& order) {
    return run([&order](const std::vector<std::size_t>& ready, const std::vector<const Instruction*>&) {
      for (std::size_t w : order) {
        if (std::find(ready.begin(), ready.end(), w) != ready.end()) return w;
      }
      return ready.front();
    });
  }

 private:
  static constexpr std::uint64_t kUnknown = std::numeric_limits<std::uint64_t>::max();

  struct Warp {
    std::size_t pc = 0;
    std::uint64_t earliest = 0;  // predecessor's issue + 1, or the barrier release
    std::uint64_t drain = 0;     // every result written
    std::size_t queued = 0;      // instructions issued, not yet served by a queued unit
    bool arrived = false;        // barrier_issues: the barrier at pc has issued
    std::vector<std::uint64_t> written;  // per register: cycle its last result is written
  };
  // An instruction in a collector unit, waiting for its queued resource.
  struct Waiting {
    std::size_t warp = 0;
    std::size_t pc = 0;
    std::uint64_t collected = 0;  // issue + dispatch_delay
  };
  struct State {
    std::uint64_t t = 0;
    std::uint64_t end = 0;
    bool issued = false;  // an instruction issued in cycle t: serve again, then t + 1
    std::vector<Warp> w;
    std::vector<std::uint64_t> free_at;  // per resource
    // With collector units:
    std::vector<std::vector<Waiting>> waiting;         // per resource, unpicked
    std::vector<std::optional<Waiting>> picked;        // per resource
    std::vector<std::uint64_t> pass_through_until;     // units held by non-queued instructions
  };
  enum class Choice { issue, pick, done };

  bool collectors() const { return hw_.collector_units != 0; }
  bool queues(const Instruction& i) const { return (hw_.units.at(i.unit).flags & 4u) != 0; }

  std::size_t resource(const Instruction& i) const {
    const FunctionalUnit& u = hw_.units.at(i.unit);
    return u.resource == kOwnResource ? i.unit : u.resource;
  }

  State initial() const {
    State s;
    s.w.resize(warps_.size());
    for (Warp& w : s.w) {
      w.written.assign(registers_, 0);
      w.earliest = hw_.launch_delay;
    }
    s.free_at.assign(kMaxResources, 0);
    s.waiting.resize(kMaxResources);
    s.picked.resize(kMaxResources);
    return s;
  }

  bool at_end(const State& s, std::size_t k) const { return s.w[k].pc >= warps_[k].size(); }
  bool at_barrier(const State& s, std::size_t k) const {
    return !at_end(s, k) && warps_[k][s.w[k].pc].kind == OpKind::barrier;
  }
  // Whether warp k counts as there for the release of the barrier at its pc.
  bool there(const State& s, std::size_t k) const {
    return at_barrier(s, k) && (!barrier_issues_ || s.w[k].arrived) &&
           (!barriers_drain_ || s.w[k].queued == 0);
  }
  bool anything_queued(const State& s) const {
    for (std::size_t r = 0; r < kMaxResources; ++r) {
      if (!s.waiting[r].empty() || s.picked[r]) return true;
    }
    return false;
  }
  // Collector units held in cycle t.
  std::size_t units_held(const State& s) const {
    std::size_t held = 0;
    for (const auto& q : s.waiting) held += q.size();
    for (std::uint64_t until : s.pass_through_until) held += until > s.t;
    return held;
  }

  // Cycle from which warp k's next instruction satisfies its constraints.
  std::uint64_t ready_at(const State& s, std::size_t k) const {
    const Warp& w = s.w[k];
    const Instruction& i = warps_[k][w.pc];
    std::uint64_t t = w.earliest;
    const std::uint64_t free = s.free_at[resource(i)];
    if (!queues(i) && free > hw_.dispatch_delay) {
      t = std::max(t, free - hw_.dispatch_delay);
    }
    for (std::size_t j = 0; j < i.src_count; ++j) t = std::max(t, w.written.at(i.src[j]));
    for (std::size_t j = 0; j < i.dst_count; ++j) t = std::max(t, w.written.at(i.dst[j]));
    return t;
  }

  // Runs the machine to its next open choice: the warps that can issue in
  // cycle s.t, or the waiting instructions (indices into s.waiting[resource])
  // a queued resource picks among; done when the block has finished (s.end
  // is then set).
  Choice next_choice(State& s, std::vector<std::size_t>& options, std::size_t& resource) const {
    for (;;) {
      if (collectors() && serve(s, options, resource)) return Choice::pick;
      if (s.issued) {
        s.issued = false;
        ++s.t;
        continue;
      }
      bool any_live = false;
      bool all_there = true;  // every live warp at a barrier (drained, if they drain)
      for (std::size_t k = 0; k < s.w.size(); ++k) {
        if (at_end(s, k)) continue;
        any_live = true;
        if (!there(s, k)) all_there = false;
      }
      const bool queued = collectors() && anything_queued(s);
      if (!any_live && !queued) {
        s.end = 0;
        for (const Warp& w : s.w) s.end = std::max(s.end, w.drain);
        return Choice::done;
      }
      if (any_live && all_there) {
        // A warp got there at its barrier's issue (kept in `earliest`) or
        // once free to issue, and drained when barriers drain.
        std::uint64_t release = barrier_issues_ ? 0 : s.t;
        for (std::size_t k = 0; k < s.w.size(); ++k) {
          if (at_end(s, k)) continue;
          release = std::max(release, s.w[k].earliest);
          if (barriers_drain_) release = std::max(release, s.w[k].drain);
        }
        release = std::max(release + hw_.barrier_delay, s.t);
        for (std::size_t k = 0; k < s.w.size(); ++k) {
          if (at_end(s, k)) continue;
          s.w[k].arrived = false;
          ++s.w[k].pc;
          s.w[k].earliest = std::max(s.w[k].earliest, release);
          s.w[k].drain = std::max(s.w[k].drain, release);
        }
        // Instructions left queued (barriers that do not drain) are served
        // cycle by cycle until the release; no warp issues before it.
        if (!queued) s.t = release;
        continue;
      }
      options.clear();
      std::uint64_t next = std::numeric_limits<std::uint64_t>::max();
      const bool unit_free = !collectors() || units_held(s) < hw_.collector_units;
      for (std::size_t k = 0; k < s.w.size(); ++k) {
        if (at_end(s, k)) continue;
        std::uint64_t r = 0;
        if (at_barrier(s, k)) {
          if (!barrier_issues_ || s.w[k].arrived) continue;
          r = s.w[k].earliest;  // only the issue stage (and a collector unit)
        } else {
          r = ready_at(s, k);
        }
        if (r <= s.t && unit_free) {
          options.push_back(k);
        } else if (r != kUnknown) {
          next = std::min(next, std::max(r, s.t + 1));
        }
      }
      if (!options.empty()) return Choice::issue;
      if (queued) next = s.t + 1;  // a pick or a service may free a unit or a result
      for (std::uint64_t until : s.pass_through_until) {
        if (until > s.t) next = std::min(next, until);
      }
      s.t = next;
    }
  }

  // The queued resources' picks and services in cycle s.t, up to the first
  // pick with two or more instructions to choose from (returned).
  bool serve(State& s, std::vector<std::size_t>& options, std::size_t& resource) const {
    for (std::size_t r = 0; r < kMaxResources; ++r) {
      for (;;) {
        if (!s.picked[r]) {
          options.clear();
          for (std::size_t i = 0; i < s.waiting[r].size(); ++i) {
            if (s.waiting[r][i].collected <= s.t) options.push_back(i);
          }
          if (options.empty()) break;
          if (options.size() >= 2) {
            resource = r;
            return true;
          }
          pick(s, r, options.front());
        }
        if (s.free_at[r] > s.t) break;
        const Waiting w = *s.picked[r];
        s.picked[r].reset();
        --s.w[w.warp].queued;
        enter(s, w.warp, warps_[w.warp][w.pc], s.t);
      }
    }
    return false;
  }

  // Resource r picks s.waiting[r][i], which leaves its collector unit.
  void pick(State& s, std::size_t r, std::size_t i) const {
    s.picked[r] = s.waiting[r][i];
    s.waiting[r].erase(s.waiting[r].begin() + static_cast<std::ptrdiff_t>(i));
  }

  // Instruction i of warp k enters its unit at `enter`.
  void enter(State& s, std::size_t k, const Instruction& i, std::uint64_t enter_at) const {
    // Written out here rather than through the library's helpers, so that
    // the oracle stays independent of its timing code.
    const FunctionalUnit& u = hw_.units.at(i.unit);
    const std::uint64_t held = enter_at + u.initiation + i.extra_cycles;
    const std::uint64_t span = hw_.latency_from_issue ? std::max<std::uint64_t>(u.latency, u.initiation)
                                                      : std::uint64_t{u.initiation} + u.latency;
    const bool hold_only = (u.flags & 1u) != 0;
    const bool no_write_back = (u.flags & 2u) != 0;
    const std::uint64_t done =
        enter_at + span + (no_write_back ? 0 : hw_.result_delay) + (hold_only ? 0 : i.extra_cycles);
    s.free_at[resource(i)] = held;
    Warp& w = s.w[k];
    for (std::size_t j = 0; j < i.dst_count; ++j) w.written.at(i.dst[j]) = done;
    // A store completes when it leaves its unit, plus the write-back cycles,
    // and once the registers it writes, if any, are written.
    const std::uint64_t complete =
        i.kind == OpKind::store ? std::max(held + hw_.result_delay, i.dst_count != 0 ? done : 0)
                                : std::max(done, held);
    w.drain = std::max(w.drain, complete);
  }

  void issue(State& s, std::size_t k) const {
    Warp& w = s.w[k];
    const Instruction& i = warps_[k][w.pc];
    if (i.kind == OpKind::barrier) {  // barrier_issues: the warp is there from now
      if (collectors()) s.pass_through_until.push_back(s.t + hw_.dispatch_delay);
      w.arrived = true;
      w.earliest = s.t;
      s.issued = true;
      return;
    }
    if (collectors() && queues(i)) {
      s.waiting[resource(i)].push_back({k, w.pc, s.t + hw_.dispatch_delay});
      ++w.queued;
      for (std::size_t j = 0; j < i.dst_count; ++j) w.written.at(i.dst[j]) = kUnknown;
    } else {
      // Without collector units a queued resource serves in issue order, so
      // every instruction enters as soon as its resource is free.
      const std::uint64_t enter_at = std::max(s.t + hw_.dispatch_delay, s.free_at[resource(i)]);
      if (collectors()) s.pass_through_until.push_back(enter_at);
      enter(s, k, i, enter_at);
    }
    // Collector units released before this cycle are of no more interest.
    s.pass_through_until.erase(std::remove_if(s.pass_through_until.begin(), s.pass_through_until.end(),
                                              [&s](std::uint64_t until) { return until <= s.t; }),
                               s.pass_through_until.end());
    w.earliest = s.t + hw_.issue_interval + (i.kind == OpKind::branch ? hw_.branch_delay : 0);
    ++w.pc;
    s.issued = true;
  }

  std::uint64_t explore(State s) {
    std::vector<std::size_t> options;
    std::size_t resource = 0;
    const Choice c = next_choice(s, options, resource);
    if (c == Choice::done) return s.end;
    if (++nodes_ > max_nodes_) return 0;
    std::uint64_t best = 0;
    for (std::size_t o : options) {
      State next = s;
      if (c == Choice::pick) {
        pick(next, resource, o);
      } else {
        issue(next, o);
      }
      best = std::max(best, explore(std::move(next)));
    }
    return best;
  }

  HardwareDescription hw_;
  std::vector<std::vector<Instruction>> warps_;
  std::size_t registers_;
  bool barriers_drain_;
  bool barrier_issues_;
  std::uint64_t nodes_ = 0;
  std::uint64_t max_nodes_ = 0;
};

}  // namespace gpuwcet::testing
