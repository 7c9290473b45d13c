// Queued units behind operand-collector units, for Algorithm 1 over one warp
// (phase_profile.cpp; docs/multiphase.md, "Operand collectors").
//
// With HardwareDescription::collector_units = N > 0, an instruction for a
// queued unit waits in a collector unit and the unit serves the waiting ones
// in any order (GPGPU-Sim: round-robin over the collector units from the last
// one served, `dispatch_unit_t::find_ready`); the warp cannot issue while N
// instructions hold collector units. The bounds below hold for every order
// and for every run whose issues come no later than the profile's, with at
// least issue_interval cycles between two issues (the induction of
// docs/multiphase.md). For a queued instruction L arriving (operands
// collected) at a_L, its service starts by the least of:
// - (order-free) the backlog end, in issue order, of everything issued before
//   L's first reader: for every s the work arriving from s on only shrinks
//   when arrivals move earlier, and nothing else issues before that reader;
// - (FIFO) L's dispatch in issue order plus the occupancy of every later
//   instruction that may overtake it: the work present when L arrives is done
//   by that dispatch, and only overtakers are served while L waits;
// - (relative) a_L plus L's wait bound: the work that may remain of earlier
//   instructions when L arrives plus its possible overtakers. Instruction j
//   arrives at least g(j, L) before L, g a lower bound on the cycles between
//   their issues in every run (advance() below), and may remain only if
//   wait_j + occ_j > g(j, L).
// A later instruction M may overtake L only if L may still wait when M
// arrives: g(L, M) <= wait_L, and L is not next in line (every earlier
// instruction has certainly started, wait_j < g(j, L), so L is picked as it
// arrives). L's registers stay *pending* until no later instruction can
// overtake it or its first reader issues.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

#include "gpuwcet/block_model.hpp"
#include "gpuwcet/phase_profile.hpp"

namespace gpuwcet::detail {

// Queued instructions whose wait may still matter. More at once on one
// resource: that resource falls back on the order-free bound alone until the
// next drain.
inline constexpr std::size_t kQueueWindow = kCollectorQueueWindow;
// Registers left pending at a drain (a draining barrier) settle at that
// drain; the last kEpochMemory drains are kept, an older one is bounded by
// the oldest kept (drains only grow).
inline constexpr std::uint32_t kEpochMemory = 8;
// Issues back from which a queued instruction keeps its lower bounds on the
// time to each later issue (advance()); older ones count issue intervals.
inline constexpr std::uint64_t kGapHistory = 16;

// Set in a pending register's ready word (cycle counts stay below 2^62):
// the word then holds the value settle() completes.
inline constexpr std::uint64_t kPendingBit = std::uint64_t{1} << 63;

// A register's earliest possible result relative to its writer's issue, for
// the gap bounds: (writer's issue number + 1) << 24 | cycles (capped, still
// a lower bound); 0: none known.
inline constexpr unsigned kGapShift = 24;
inline constexpr std::uint64_t kGapCap = (std::uint64_t{1} << kGapShift) - 1;
constexpr std::uint64_t gap_ref(std::uint64_t issue_number, std::uint64_t cycles) noexcept {
  return issue_number >= (std::uint64_t{1} << (64 - kGapShift)) - 1
             ? 0
             : ((issue_number + 1) << kGapShift) | (cycles < kGapCap ? cycles : kGapCap);
}

class CollectorQueues {
 public:
  // `issue_interval` >= 1 (validated hardware).
  CollectorQueues(std::uint32_t units, std::uint64_t dispatch_delay,
                  std::uint64_t issue_interval) noexcept
      : units_(units),
        issue_interval_(issue_interval),
        // Transient holders (pass_through) that can still hold a collector
        // unit at the next issue: those issued within dispatch_delay cycles
        // before it.
        transient_bound_((dispatch_delay + issue_interval - 1) / issue_interval) {}

  bool enabled() const noexcept { return units_ != 0; }

  // The first cycle at or after `t` with a free collector unit. A queued
  // instruction holds one until it starts at the latest: its final start
  // once closed, its current start bound while open (valid up to the next
  // issue: only instructions issued before can have gone first), and the
  // backlog end for those tracked by that bound alone. Also, all their work
  // is done by the backlog end `free` in every such run, so at most
  // (free - t) / least occupancy of them can still wait at t. Each step
  // moves to the next cycle a holder may leave; nothing changes these
  // bounds while the warp waits, so the steps are bounded by the holders
  // and the backlog.
  std::uint64_t issue_after(std::uint64_t t,
                            const std::array<std::uint64_t, kMaxResources>& free) noexcept {
    // Most issues: fewer instructions than units that could hold one at all
    // (closed_starts_ not yet trimmed to those later than t: more).
    if (closed_count_ + count_ + backlog_total_ + transient_bound_ < units_) return t;
    return issue_after_counting(t, free);
  }

  // issue_after() when the units may be full: counts the holders. Out of
  // line, so that the caller's loop keeps its registers.
  [[gnu::noinline]] std::uint64_t issue_after_counting(
      std::uint64_t t, const std::array<std::uint64_t, kMaxResources>& free) noexcept {
    for (;;) {
      if (closed_count_ != 0) {
        std::size_t kept = 0;
        for (std::size_t i = 0; i < closed_count_; ++i) {
          if (closed_starts_[i].start > t) closed_starts_[kept++] = closed_starts_[i];
        }
        closed_count_ = kept;  // final starts: those passed stay passed
      }
      // Fast path (most issues): fewer possible holders than units, counting
      // every queued instruction not yet known to have started, and the
      // transient holds later than t (the newest ones: pass_through).
      std::uint64_t possible = closed_count_ + count_ + backlog_total_;
      if (possible < units_) {
        std::uint32_t k = oldest_transient_;
        for (std::uint32_t n = 0; n < units_; ++n) {
          k = k == 0 ? units_ - 1 : k - 1;
          if (transient_[k] <= t) break;
          ++possible;
        }
        if (possible < units_) return t;
      }
      // Per resource: the instructions whose start bound is later than t,
      // and (work left by the backlog end, each at least the least
      // occupancy) how many can still wait at t at all.
      std::array<std::uint64_t, kMaxResources> late;
      for (std::uint32_t m = queued_mask_; m != 0; m &= m - 1) late[lowest(m)] = 0;
      std::uint64_t next = kNone;
      auto hold = [&](std::size_t r, std::uint64_t until) {
        if (until > t) {
          ++late[r];
          next = min(next, until);
        }
      };
      for (std::size_t i = 0; i < closed_count_; ++i) {
        hold(closed_starts_[i].resource, closed_starts_[i].start);
      }
      for (std::size_t i = 0; i < count_; ++i) {
        const Job& j = window_[i];
        if (j.open) hold(j.resource, start_bound(j, free[j.resource]));
      }
      std::uint64_t holders = 0;
      for (std::uint32_t m = queued_mask_; m != 0; m &= m - 1) {
        const std::size_t r = lowest(m);
        // All served by t.
        if (free[r] <= t) continue;
        if (backlog_only_[r] != 0) {  // started by free - 1: every step must pass t
          late[r] += backlog_only_[r];
          next = min(next, free[r]);
        }
        const std::uint64_t fit = (free[r] - t) / least_[r];
        if (fit < late[r]) {
          late[r] = fit;
          next = min(next, free[r] - fit * least_[r] + 1);
        }
        holders += late[r];
      }
      for (std::uint32_t k = 0; k < units_; ++k) {
        if (transient_[k] > t) {
          ++holders;
          next = min(next, transient_[k]);
        }
      }
      if (holders < units_ || next == kNone) return t;
      t = next;
    }
  }

  // An instruction issued now holds a collector unit until `until`, its
  // issue plus dispatch_delay: its dispatch to a unit without a queue, or
  // its start when a queued unit serves it as it arrives (arrive()). Fewer
  // than units_ others hold one (issue_after), so the oldest slot has
  // expired. These `until` grow with the issues, so the oldest slot is the
  // one written longest ago.
  // With collector units (enabled()).
  void pass_through(std::uint64_t until) noexcept {
    transient_[oldest_transient_] = until;
    oldest_transient_ = oldest_transient_ + 1 == units_ ? 0 : oldest_transient_ + 1;
  }

  // Every issued instruction, before arrive() or pass_through(): the lower
  // bounds g(j, now) for the queued instructions j kept. Along the program,
  // g grows by at least `gap` (the issue interval, a branch's delay) per
  // issue, and an instruction issues no earlier than the earliest possible
  // result of each register it reads or writes (the scoreboard), which
  // `refs` records relative to the writer's issue (gap_ref): every run
  // respects both, whatever its service order and memory costs. Returns the
  // instruction's issue number: the caller then gives its destinations
  // their gap_ref (dispatch delay plus its unit's fixed span).
  std::uint64_t advance(const Instruction& ins, std::uint64_t gap,
                        const std::uint64_t* refs) noexcept {
    const std::uint64_t now = ++issues_;
    if (count_ != 0) advance_tracked(ins, gap, refs, now);
    return now;
  }

 private:
  void advance_tracked(const Instruction& ins, std::uint64_t gap, const std::uint64_t* refs,
                       std::uint64_t now) noexcept {
    for (std::size_t i = 0; i < count_;) {
      Job& j = window_[i];
      std::uint64_t g = j.gap + gap;
      auto through = [&](std::uint16_t reg) noexcept {
        const std::uint64_t ref = refs[reg];
        if (ref == 0) return;
        const std::uint64_t writer = (ref >> kGapShift) - 1;
        if (writer < j.seq) return;  // written before j: no bound from j
        std::uint64_t base = 0;      // g(j, writer)
        if (writer != j.seq) {
          base = now - writer <= kGapHistory ? j.history[writer % kGapHistory]
                                             : (writer - j.seq) * issue_interval_;
        }
        const std::uint64_t via = base + (ref & kGapCap);
        if (via > g) g = via;
      };
      for (std::size_t k = 0; k < ins.src_count; ++k) through(ins.src[k]);
      for (std::size_t k = 0; k < ins.dst_count; ++k) through(ins.dst[k]);
      if (!j.open && j.wait + j.occupancy <= g) {
        // Closed and served before anything issued from now on arrives:
        // no bound needs it any more (arrive() would drop it too).
        drop(i);
        continue;
      }
      j.gap = g;
      j.history[now % kGapHistory] = g < 0xFFFFFFFFu ? static_cast<std::uint32_t>(g) : 0xFFFFFFFFu;
      ++i;
    }
  }

 public:

  struct Arrival {
    std::size_t resource = 0;
    std::uint64_t arrive = 0;      // profile's issue + dispatch_delay
    std::uint64_t fifo = 0;        // its dispatch in issue order
    std::uint64_t occupancy = 0;
    std::uint64_t result = 0;      // result - dispatch
    std::uint64_t completion = 0;  // completion - dispatch
  };

  // A queued instruction arrives. Returns the tag its destination registers
  // take while pending, or 0 when its service start is already bounded, then
  // stored in `start`. `free` is the backlog end before it; closing earlier
  // instructions writes their pending registers (`ready`, `tags`) and
  // extends completions_.
  std::uint64_t arrive(const Arrival& in, const Instruction& ins, std::uint64_t free,
                       std::uint64_t* ready, std::uint64_t* tags, std::uint64_t& start) noexcept {
    const std::size_t r = in.resource;
    if (least_[r] == 0 || in.occupancy < least_[r]) least_[r] = in.occupancy;
    queued_mask_ |= std::uint32_t{1} << r;
    if (in.completion - in.occupancy > pending_after_[r]) {
      pending_after_[r] = in.completion - in.occupancy;
    }
    if (count_ == 0 && !overflowed_[r] && in.occupancy <= issue_interval_) {
      // Most arrivals, the general case below shortened: with the window
      // empty nothing earlier can still wait, so this one is next in line
      // and starts as it arrives (its fifo dispatch is no earlier), and it
      // is served before the next issue, so it is not kept. Its collector
      // unit is then held until its arrival, as for an instruction passing
      // through to a unit without a queue.
      // Its completion from that start is no later than the one from its
      // dispatch in issue order (`fifo` >= `arrive`), which the caller's
      // drain takes: completions_ needs nothing.
      pass_through(in.arrive);
      start = in.arrive;
      return 0;
    }
    return arrive_kept(in, ins, free, ready, tags, start);
  }

 private:
  // arrive() when the instruction may wait behind earlier ones or be
  // overtaken; out of line, so that the caller's loop keeps its registers.
  [[gnu::noinline]] std::uint64_t arrive_kept(const Arrival& in, const Instruction& ins,
                                              std::uint64_t free, std::uint64_t* ready,
                                              std::uint64_t* tags, std::uint64_t& start) noexcept {
    const std::size_t r = in.resource;
    // Earlier instructions of r: overtaken or closed; the work they may
    // still have when this one arrives, and whether all have started.
    std::uint64_t remaining = 0;
    bool all_started = true;
    for (std::size_t i = 0; i < count_;) {
      Job& j = window_[i];
      if (j.resource != r) {
        ++i;
        continue;
      }
      // j arrived at least j.gap before this one (advance()).
      if (j.open) {
        if (j.gap <= j.wait) {
          j.wait += in.occupancy;
          j.overtaken += in.occupancy;
        } else {
          close(j, free, ready, tags);
        }
      }
      const std::uint64_t end = j.wait + j.occupancy;  // after j's arrival
      if (!j.open && end <= j.gap) {  // served before this one arrives, whatever comes
        drop(i);
        continue;
      }
      if (end > j.gap) remaining += min(j.occupancy, end - j.gap);
      if (j.wait >= j.gap) all_started = false;
      ++i;
    }
    if (overflowed_[r] || count_ == kQueueWindow) {
      overflowed_[r] = true;
      ++backlog_only_[r];
      ++backlog_total_;
      if (in.completion - in.occupancy > backlog_after_[r]) {
        backlog_after_[r] = in.completion - in.occupancy;
      }
      return backlog_tag(r);
    }
    // Zeroed first, so that every field is determinate (history entries are
    // only read once advance() has written them) and drop() may copy it.
    Job& j = window_[count_++];
    j = Job{};
    j.id = ++next_id_;
    j.resource = static_cast<std::uint8_t>(r);
    j.seq = issues_;
    j.gap = 0;
    j.wait = remaining;
    j.overtaken = 0;
    j.occupancy = in.occupancy;
    j.arrive = in.arrive;
    j.fifo = in.fifo;
    j.result = in.result;
    j.completion = in.completion;
    if (all_started) {  // next in line: picked as it arrives, nothing overtakes it
      // Closed now; its registers take their result from the caller.
      j.open = false;
      j.dst_count = 0;
      start = finish(j, in.fifo + in.occupancy);
      return 0;
    }
    j.dst_count = ins.dst_count;
    for (std::size_t d = 0; d < ins.dst_count && d < kMaxDestinations; ++d) j.dst[d] = ins.dst[d];
    j.open = true;
    return tag_of(j);
  }

 public:
  // Makes pending register `reg` (read or written by the instruction about
  // to issue) hold its result: its instruction closes, since no later one
  // can overtake it, and so do its other pending registers.
  void settle(std::uint16_t reg, const std::array<std::uint64_t, kMaxResources>& free,
              std::uint64_t* ready, std::uint64_t* tags) noexcept {
    const std::uint64_t tag = tags[reg];
    if (tag == 0) return;
    const std::size_t r = static_cast<std::size_t>((tag - 1) & 0xFF);
    const std::uint64_t id = (tag - 1) >> 9;
    if (((tag - 1) & kBacklogOnly) != 0) {  // value: result - hold end
      const auto epoch = static_cast<std::uint32_t>(id);
      if (epoch == epoch_) {
        ready[reg] = (ready[reg] & ~kPendingBit) + free[r];
      } else {
        std::uint32_t age = epoch_ - epoch;
        if (age > kEpochMemory) age = kEpochMemory;
        ready[reg] = drains_[(epoch_ - age) % kEpochMemory];
      }
      tags[reg] = 0;
      return;
    }
    for (std::size_t i = 0; i < count_; ++i) {
      if (window_[i].id == id && window_[i].open) {
        close(window_[i], free[r], ready, tags);
        return;
      }
    }
    // Unreachable: an instruction leaves the window only once closed, and
    // closing settles its registers. Kept safe: the order-free bound.
    ready[reg] = free[r] + pending_after_[r];
    tags[reg] = 0;
  }

  // Everything issued so far completes (a draining barrier, the warp's end):
  // every open instruction closes (close() extends completions_ with its
  // completion from its start bound); the drain returned covers `drain`,
  // those completions and the instructions past the window served last, and
  // registers still pending settle at it.
  std::uint64_t drain_all(const std::array<std::uint64_t, kMaxResources>& free,
                          std::uint64_t* ready, std::uint64_t* tags, std::uint64_t drain) noexcept {
    if (units_ == 0) return drain;
    for (std::size_t i = 0; i < count_; ++i) {
      if (window_[i].open) close(window_[i], free[window_[i].resource], ready, tags);
    }
    if (completions_ > drain) drain = completions_;
    count_ = 0;
    closed_count_ = 0;  // everything starts before the drain
    for (std::size_t r = 0; r < kMaxResources; ++r) {
      // Closed instructions extended `drain` with their own completion;
      // those past the window may be served last.
      if (backlog_only_[r] != 0 && free[r] + backlog_after_[r] > drain) {
        drain = free[r] + backlog_after_[r];
      }
      pending_after_[r] = 0;
      backlog_after_[r] = 0;
      overflowed_[r] = false;
      backlog_only_[r] = 0;
      least_[r] = 0;
    }
    queued_mask_ = 0;
    backlog_total_ = 0;
    drains_[epoch_ % kEpochMemory] = drain;
    ++epoch_;
    return drain;
  }

 private:
  static constexpr std::uint64_t kNone = ~std::uint64_t{0};

  // No member initialisers: the window is left uninitialised (see window_);
  // arrive_kept() zeroes a job as it enters it.
  struct Job {
    std::uint64_t id;
    std::uint64_t seq;        // its issue number
    std::uint64_t gap;        // g(j, last issue)
    std::array<std::uint32_t, kGapHistory> history;  // g(j, issue n) at n % kGapHistory
    std::uint64_t wait;       // bound on arrival to service start
    std::uint64_t overtaken;  // occupancy of the later ones that may go first
    std::uint64_t occupancy;
    std::uint64_t arrive;
    std::uint64_t fifo;
    std::uint64_t result;
    std::uint64_t completion;
    std::array<std::uint16_t, kMaxDestinations> dst;
    std::uint8_t dst_count;
    std::uint8_t resource;
    bool open;
  };
  static_assert(std::is_trivially_default_constructible_v<Job> &&
                    std::is_trivially_copyable_v<Job>,
                "the window is left uninitialised");

  // Removes window_[i]; the last one takes its place. (A member-wise copy:
  // std::memcpy here measured 5 % more host instructions on the long warp
  // of bench_phase_profile.)
  void drop(std::size_t i) noexcept {
    if (i + 1 != count_) window_[i] = window_[count_ - 1];
    --count_;
  }

  static std::uint64_t min(std::uint64_t a, std::uint64_t b) noexcept { return a < b ? a : b; }
  static_assert(kMaxResources <= 32, "queued_mask_ has a bit per resource");
  // Index of the lowest set bit of m != 0.
  static std::size_t lowest(std::uint32_t m) noexcept {
    return static_cast<std::size_t>(__builtin_ctz(m));
  }

  // A closed instruction holds its collector unit until `start` at the
  // latest.
  void note_start(std::size_t r, std::uint64_t start) noexcept {
    const Closed c{start, static_cast<std::uint8_t>(r)};
    if (closed_count_ == closed_starts_.size()) {
      // Not reached (see closed_starts_); kept safe by dropping the earliest.
      std::size_t earliest = 0;
      for (std::size_t i = 1; i < closed_count_; ++i) {
        if (closed_starts_[i].start < closed_starts_[earliest].start) earliest = i;
      }
      if (closed_starts_[earliest].start < start) closed_starts_[earliest] = c;
      return;
    }
    closed_starts_[closed_count_++] = c;
  }

  // Tags: (id or drain epoch) << 9 | kBacklogOnly? | resource, plus 1 (0
  // means settled).
  static constexpr std::uint64_t kBacklogOnly = 0x100;

  static std::uint64_t tag_of(const Job& j) noexcept {
    return ((j.id << 9) | j.resource) + 1;
  }

  // A register pending on the order-free bound alone (past the window).
  std::uint64_t backlog_tag(std::size_t r) const noexcept {
    return ((std::uint64_t{epoch_} << 9) | kBacklogOnly | r) + 1;
  }

  // j's service start: the least of the three bounds, the order-free one
  // with the backlog end `free` as it stands (no later instruction goes
  // first any more).
  static std::uint64_t start_bound(const Job& j, std::uint64_t free) noexcept {
    return min(min(j.arrive + j.wait, j.fifo + j.overtaken), free - j.occupancy);
  }

  // j's start bound, once no later instruction overtakes it; completions_
  // takes its completion.
  std::uint64_t finish(const Job& j, std::uint64_t free) noexcept {
    const std::uint64_t start = start_bound(j, free);
    if (start + j.completion > completions_) completions_ = start + j.completion;
    note_start(j.resource, start);
    return start;
  }

  // No later instruction overtakes j any more: its pending registers get
  // their result, completions_ its completion. Returns its start bound.
  std::uint64_t close(Job& j, std::uint64_t free, std::uint64_t* ready,
                      std::uint64_t* tags) noexcept {
    j.open = false;
    const std::uint64_t start = finish(j, free);
    const std::uint64_t mine = tag_of(j);
    for (std::size_t d = 0; d < j.dst_count; ++d) {
      if (tags[j.dst[d]] == mine) {
        ready[j.dst[d]] = start + j.result;
        tags[j.dst[d]] = 0;
      }
    }
    return start;
  }

  std::uint32_t units_;
  std::uint64_t issue_interval_;
  std::uint64_t transient_bound_;
  std::uint32_t epoch_ = 0;
  std::uint64_t issues_ = 0;  // issue number of the last issue (advance())
  std::uint32_t oldest_transient_ = 0;
  std::uint64_t next_id_ = 0;
  std::size_t count_ = 0;
  // Uninitialised: only window_[0, count_) is read. Zeroing it and
  // closed_starts_ (about 27 KB) for every warp was a quarter of the host
  // instructions on a trace of many short warps, vectoradd's
  // (docs/multiphase.md, "Costs").
  std::array<Job, kQueueWindow> window_;
  // Final starts of closed instructions that may still hold a collector
  // unit. Fewer than units_ are later than the last issue (issue_after), and
  // at most kQueueWindow + 1 (arrive) + kMaxDestinations + kMaxSources
  // (settle) close between two issues: the array never fills.
  struct Closed {
    std::uint64_t start;
    std::uint8_t resource;
  };
  std::array<Closed, kMaxCollectorUnits + 2 * kQueueWindow + 16> closed_starts_;  // [0, closed_count_)
  std::size_t closed_count_ = 0;
  std::array<std::uint64_t, kMaxResources> backlog_only_{};  // instructions past the window
  std::array<std::uint64_t, kMaxResources> least_{};  // least occupancy since the last drain
  std::uint32_t queued_mask_ = 0;    // resources with a queued instruction since then
  std::uint64_t backlog_total_ = 0;  // sum of backlog_only_
  std::array<std::uint64_t, kMaxResources> pending_after_{};  // completion - occupancy, most
  std::array<std::uint64_t, kMaxResources> backlog_after_{};  // the same, past the window
  std::array<bool, kMaxResources> overflowed_{};
  std::array<std::uint64_t, kEpochMemory> drains_{};
  // The latest completion bound of the closed instructions, which the drain
  // returned by drain_all() covers: kept here, not in the caller's drain,
  // so that the address of that one does not escape its hot loop.
  std::uint64_t completions_ = 0;
  std::array<std::uint64_t, kMaxCollectorUnits> transient_{};
};

}  // namespace gpuwcet::detail
