// Independent oracle for the multi-phase block bounds: a second implementation
// of the block machine of docs/multiphase.md that shares no code with the
// library or the reference simulator, with two ways to choose the warp that
// issues in a cycle where several can:
// - worst_case(): every work-conserving choice, exhaustively (depth-first over
//   all schedules). Exponential: blocks of 2-3 warps of a few instructions.
// - run_priority(order): a fixed priority list (the first ready warp in
//   `order` issues). With the victim last this is the adversary that starves
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
// barriers_drain false, until every warp reached it); exit ends
// a warp once drained (after issuing like a compute instruction when
// exit_issues).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "gpuwcet/block_model.hpp"

namespace gpuwcet::testing {

class BlockScheduleOracle {
 public:
  // `barriers_drain` false: a warp reaches a barrier as soon as it is free to
  // issue, with its results still pending (GPGPU-Sim's bar.sync).
  BlockScheduleOracle(const HardwareDescription& hw, std::vector<std::vector<Instruction>> warps,
                      std::size_t registers, bool barriers_drain = true)
      : hw_(hw), warps_(std::move(warps)), registers_(registers), barriers_drain_(barriers_drain) {
    for (auto& w : warps_) {
      // Cut each warp at its exit; a missing exit is implied.
      auto it = std::find_if(w.begin(), w.end(),
                             [](const Instruction& i) { return i.kind == OpKind::exit; });
      if (it != w.end() && hw_.exit_issues) ++it;  // the exit itself issues
      w.erase(it, w.end());
    }
  }

  // Longest block execution over every work-conserving schedule.
  std::uint64_t worst_case(std::uint64_t max_nodes = 5'000'000) {
    nodes_ = 0;
    max_nodes_ = max_nodes;
    return explore(initial());
  }
  // Whether worst_case() had to stop at max_nodes (its answer is then a lower bound).
  bool truncated() const { return nodes_ > max_nodes_; }

  // Block execution when `choose(ready warps, their next instructions)` picks
  // the warp that issues (it must return one of `ready`).
  template <typename Choose>
  std::uint64_t run(Choose&& choose) {
    State s = initial();
    std::vector<std::size_t> ready;
    std::vector<const Instruction*> next;
    for (;;) {
      if (!advance(s, ready)) return s.end;
      next.clear();
      for (std::size_t k : ready) next.push_back(&warps_[k][s.w[k].pc]);
      issue(s, choose(ready, next));
    }
  }

  // Block execution when the first ready warp of `order` always issues.
  std::uint64_t run_priority(const std::vector<std::size_t>& order) {
    State s = initial();
    for (;;) {
      std::vector<std::size_t> ready;
      if (!advance(s, ready)) return s.end;
      std::size_t pick = ready.front();
      for (std::size_t w : order) {
        if (std::find(ready.begin(), ready.end(), w) != ready.end()) {
          pick = w;
          break;
        }
      }
      issue(s, pick);
    }
  }

 private:
  struct Warp {
    std::size_t pc = 0;
    std::uint64_t earliest = 0;  // predecessor's issue + 1, or the barrier release
    std::uint64_t drain = 0;     // every result written
    std::vector<std::uint64_t> written;  // per register: cycle its last result is written
  };
  struct State {
    std::uint64_t t = 0;
    std::uint64_t end = 0;
    std::vector<Warp> w;
    std::vector<std::uint64_t> free_at;  // per resource
  };

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
    return s;
  }

  bool at_end(const State& s, std::size_t k) const { return s.w[k].pc >= warps_[k].size(); }
  bool at_barrier(const State& s, std::size_t k) const {
    return !at_end(s, k) && warps_[k][s.w[k].pc].kind == OpKind::barrier;
  }

  // Cycle from which warp k's next instruction satisfies its constraints.
  std::uint64_t ready_at(const State& s, std::size_t k) const {
    const Warp& w = s.w[k];
    const Instruction& i = warps_[k][w.pc];
    std::uint64_t t = w.earliest;
    const std::uint64_t free = s.free_at[resource(i)];
    const bool queued = (hw_.units.at(i.unit).flags & 4u) != 0;
    if (!queued && free > hw_.dispatch_delay) {
      t = std::max(t, free - hw_.dispatch_delay);
    }
    for (std::size_t j = 0; j < i.src_count; ++j) t = std::max(t, w.written.at(i.src[j]));
    for (std::size_t j = 0; j < i.dst_count; ++j) t = std::max(t, w.written.at(i.dst[j]));
    return t;
  }

  // Moves time to the next cycle at which some warp can issue and lists the
  // warps that can; false when the block has finished (s.end is then set).
  bool advance(State& s, std::vector<std::size_t>& ready) const {
    for (;;) {
      bool any_live = false;
      bool all_blocked = true;  // every live warp at a barrier
      for (std::size_t k = 0; k < s.w.size(); ++k) {
        if (at_end(s, k)) continue;
        any_live = true;
        if (!at_barrier(s, k)) all_blocked = false;
      }
      if (!any_live) {
        s.end = 0;
        for (const Warp& w : s.w) s.end = std::max(s.end, w.drain);
        return false;
      }
      if (all_blocked) {
        std::uint64_t release = s.t;
        for (std::size_t k = 0; k < s.w.size(); ++k) {
          if (at_end(s, k)) continue;
          release = std::max(release, s.w[k].earliest);
          if (barriers_drain_) release = std::max(release, s.w[k].drain);
        }
        release += hw_.barrier_delay;
        for (std::size_t k = 0; k < s.w.size(); ++k) {
          if (at_end(s, k)) continue;
          ++s.w[k].pc;
          s.w[k].earliest = std::max(s.w[k].earliest, release);
          s.w[k].drain = std::max(s.w[k].drain, release);
        }
        s.t = release;
        continue;
      }
      ready.clear();
      std::uint64_t next = UINT64_MAX;
      for (std::size_t k = 0; k < s.w.size(); ++k) {
        if (at_end(s, k) || at_barrier(s, k)) continue;
        const std::uint64_t r = ready_at(s, k);
        if (r <= s.t) {
          ready.push_back(k);
        } else {
          next = std::min(next, r);
        }
      }
      if (!ready.empty()) return true;
      s.t = next;
    }
  }

  void issue(State& s, std::size_t k) const {
    Warp& w = s.w[k];
    const Instruction& i = warps_[k][w.pc];
    const FunctionalUnit& u = hw_.units.at(i.unit);
    // Written out here rather than through the library's helpers, so that
    // the oracle stays independent of its timing code.
    const std::uint64_t enter = std::max(s.t + hw_.dispatch_delay, s.free_at[resource(i)]);
    const std::uint64_t held = enter + u.initiation + i.extra_cycles;
    const std::uint64_t span = hw_.latency_from_issue ? std::max<std::uint64_t>(u.latency, u.initiation)
                                                      : std::uint64_t{u.initiation} + u.latency;
    const bool hold_only = (u.flags & 1u) != 0;
    const bool no_write_back = (u.flags & 2u) != 0;
    const std::uint64_t done =
        enter + span + (no_write_back ? 0 : hw_.result_delay) + (hold_only ? 0 : i.extra_cycles);
    s.free_at[resource(i)] = held;
    for (std::size_t j = 0; j < i.dst_count; ++j) w.written.at(i.dst[j]) = done;
    // A store completes when it leaves its unit, plus the write-back cycles.
    const std::uint64_t complete = i.kind == OpKind::store ? held + hw_.result_delay : std::max(done, held);
    w.drain = std::max(w.drain, complete);
    w.earliest = s.t + hw_.issue_interval + (i.kind == OpKind::branch ? hw_.branch_delay : 0);
    ++w.pc;
    ++s.t;
  }

  std::uint64_t explore(State s) {
    std::vector<std::size_t> ready;
    if (!advance(s, ready)) return s.end;
    if (++nodes_ > max_nodes_) return 0;
    std::uint64_t best = 0;
    for (std::size_t k : ready) {
      State next = s;
      issue(next, k);
      best = std::max(best, explore(std::move(next)));
    }
    return best;
  }

  HardwareDescription hw_;
  std::vector<std::vector<Instruction>> warps_;
  std::size_t registers_;
  bool barriers_drain_;
  std::uint64_t nodes_ = 0;
  std::uint64_t max_nodes_ = 0;
};

}  // namespace gpuwcet::testing
