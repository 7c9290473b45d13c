// Algorithm 1 (Jeanmougin et al., ECRTS 2025): phases of one warp.
#include "gpuwcet/phase_profile.hpp"

#include <cstdint>
#include <cstring>
#include <limits>
#include <new>

#include "collector_queue.hpp"
#include "gpuwcet/checked_math.hpp"

namespace gpuwcet {
namespace {

// Cycle counts stay below this, so that t + initiation + latency (two 32-bit
// terms) never wraps before the check.
constexpr std::uint64_t kCycleLimit = std::uint64_t{1} << 62;

constexpr std::uint64_t max_of(std::uint64_t a, std::uint64_t b) noexcept { return a > b ? a : b; }

// Collects phases, merging a phase into the previous one of the same kind
// (Alg. 1 grows the current phase while the warp stays busy or idle).
class PhaseWriter {
 public:
  PhaseWriter(gsl::span<Phase> out) noexcept : out_(out) {}

  void add(PhaseKind kind, std::uint64_t start, std::uint64_t end, std::uint32_t section,
           SectionSummary& summary) noexcept {
    if (end <= start) return;
    const std::uint64_t length = end - start;
    if (kind == PhaseKind::execution) {
      summary.execution += length;
    } else {
      summary.idle += length;
    }
    ++summary.phase_count;
    if (!out_.empty()) {
      if (count_ < static_cast<std::size_t>(out_.size())) {
        Phase& p = out_[static_cast<std::ptrdiff_t>(count_)];
        p.start = start;
        p.length = length;
        p.kind = kind;
        p.section = section;
      } else {
        overflowed_ = true;
      }
    }
    ++count_;
  }

  // The warp waited before an issue when `ready` (the cycle the instruction
  // could enter its unit) is past `busy_end`: the open execution phase
  // [exec_start, busy_end) ends and [busy_end, ready) is idle. Returns the
  // start of the open execution phase afterwards. Counted, not stored,
  // without a branch: whether the warp waited depends on the cycle just
  // computed, and a mispredicted branch there costs the loop's whole
  // dependency chain (exec_start <= busy_end).
  std::uint64_t wait(std::uint64_t exec_start, std::uint64_t busy_end, std::uint64_t ready,
                     std::uint32_t section, SectionSummary& summary) noexcept {
    if (!out_.empty()) {
      if (ready <= busy_end) return exec_start;
      add(PhaseKind::execution, exec_start, busy_end, section, summary);
      add(PhaseKind::idle, busy_end, ready, section, summary);
      return ready;
    }
    const bool waited = ready > busy_end;
    const std::uint64_t executed = waited ? busy_end - exec_start : 0;
    const std::uint64_t idled = waited ? ready - busy_end : 0;
    summary.execution += executed;
    summary.idle += idled;
    const std::uint32_t added = (executed != 0 ? 1u : 0u) + (idled != 0 ? 1u : 0u);
    summary.phase_count += added;
    count_ += added;
    return waited ? ready : exec_start;
  }

  std::size_t count() const noexcept { return count_; }
  bool overflowed() const noexcept { return overflowed_; }

 private:
  gsl::span<Phase> out_;
  std::size_t count_ = 0;
  bool overflowed_ = false;
};

// The arena holds three arrays of register_count words, each register's
// ready cycle, its pending tag (collector_queue.hpp; 0: not pending) and its
// earliest possible result (collector_queue.hpp: gap_ref), and, with
// collector units, their state: not on the stack, which a firmware budgets
// (docs/firmware-budget.md).
constexpr std::size_t kRegisterWords = 3;

// The arena's first aligned word, or nullptr when the arena cannot hold the
// registers' words and the collector state. Sized with checked arithmetic:
// a wrapped size would let a small arena pass and the words overrun it.
std::uint64_t* ready_times(gsl::span<std::byte> arena, std::size_t register_count,
                           bool collectors) noexcept {
  auto addr = reinterpret_cast<std::uintptr_t>(arena.data());
  const std::uintptr_t aligned = (addr + alignof(std::uint64_t) - 1) &
                                 ~static_cast<std::uintptr_t>(alignof(std::uint64_t) - 1);
  const std::uint64_t skip = aligned - addr;
  const std::uint64_t state = collectors ? sizeof(detail::CollectorQueues) : 0;
  std::uint64_t needed = 0;
  if (!checked_mul(std::uint64_t{kRegisterWords} * sizeof(std::uint64_t), register_count,
                   needed) ||
      !checked_add(needed, skip + state, needed) ||
      needed > static_cast<std::uint64_t>(arena.size())) {
    return nullptr;
  }
  return reinterpret_cast<std::uint64_t*>(aligned);
}

}  // namespace

std::size_t profile_arena_bytes(std::size_t register_count) noexcept {
  constexpr std::size_t fixed = sizeof(detail::CollectorQueues) + alignof(std::uint64_t) - 1;
  constexpr std::size_t per_register = kRegisterWords * sizeof(std::uint64_t);
  static_assert(kMaxRegisterCount <= (std::numeric_limits<std::size_t>::max() - fixed) /
                                         per_register,
                "the largest arena fits in size_t");
  if (register_count > kMaxRegisterCount) return 0;
  return register_count * per_register + fixed;
}

namespace {

// Algorithm 1 over one warp. `barriers_drain`: a barrier closes a section and
// releases the warp once drained (the analysis' sections); otherwise the warp
// passes it with its results pending, barrier_delay cycles after it is free to
// issue, and everything is one section (a warp alone on a machine whose
// barriers do not drain). Empty `phases` / `sections`: counted, not stored.
// `hw` is valid (the callers check). `collectors`: hw.collector_units != 0,
// a template argument so that the loop without them carries none of their
// code; not inlined, so that a caller's stack holds one of the two frames,
// not both (docs/firmware-budget.md).
template <bool collectors>
[[gnu::noinline]] Status run_warp_with(const HardwareDescription& hw,
                                       gsl::span<const Instruction> instructions,
                                       std::size_t register_count, gsl::span<std::byte> arena,
                                       bool barriers_drain, gsl::span<Phase> phases,
                                       gsl::span<SectionSummary> sections,
                                       ProfileResult& result) noexcept {
  std::uint64_t* ready = ready_times(arena, register_count, collectors);
  if (ready == nullptr && (register_count != 0 || collectors)) return Status::buffer_too_small;
  std::uint64_t* pending_tag = ready + register_count;
  std::uint64_t* gap_refs = pending_tag + register_count;
  for (std::size_t r = 0; r < register_count; ++r) ready[r] = pending_tag[r] = gap_refs[r] = 0;

  // Per-unit constants and the pipeline's delays in locals: the loop below
  // reads them once per instruction (through `hw` and the helpers of
  // block_model.hpp, whose rules it follows, it measured slower).
  std::array<std::uint32_t, kMaxFunctionalUnits> init{};
  std::array<std::uint64_t, kMaxFunctionalUnits> span{};  // dispatch to result written
  std::array<std::uint8_t, kMaxFunctionalUnits> res{};
  // 1 when extra_cycles delays the result too (block_model.hpp).
  std::array<std::uint8_t, kMaxFunctionalUnits> extra_delays_result{};
  // 1 for units without a queue: the warp waits for them before issuing.
  // Bytes, not masks: the stack of a firmware caller (docs/firmware-budget.md).
  std::array<std::uint8_t, kMaxFunctionalUnits> issue_waits{};
  for (std::size_t u = 0; u < hw.unit_count; ++u) {
    init[u] = hw.units[u].initiation;
    span[u] = result_cycle(hw, hw.units[u], Instruction{}, 0);
    res[u] = static_cast<std::uint8_t>(unit_resource(hw, u));
    extra_delays_result[u] = (hw.units[u].flags & kUnitExtraHoldsOnly) == 0 ? 1 : 0;
    issue_waits[u] = (hw.units[u].flags & kUnitQueuedDispatch) == 0 ? 1 : 0;
  }
  const std::uint64_t dispatch_delay = hw.dispatch_delay;
  const std::uint64_t issue_interval = hw.issue_interval;
  const std::uint64_t branch_delay = hw.branch_delay;
  const std::uint64_t result_delay = hw.result_delay;
  // With as few collector units as dispatch_delay, instructions passing
  // through them can fill them: each then keeps other warps from issuing
  // for dispatch_delay cycles (docs/multiphase.md, "Operand collectors").
  const std::uint64_t issue_slots =
      collectors && hw.collector_units <= hw.dispatch_delay ? hw.dispatch_delay : 1;
  std::array<std::uint64_t, kMaxResources> resource_free{};

  PhaseWriter writer(phases);
  const std::size_t max_sections = static_cast<std::size_t>(sections.size());
  std::size_t section = 0;
  bool sections_overflowed = false;
  SectionSummary current{};
  std::uint64_t section_start = 0;
  std::uint64_t exec_start = 0;  // start of the open execution phase
  std::uint64_t busy_end = 0;    // end of the last hold (or dispatch wait)
  std::uint64_t drain = 0;       // last result written (or busy_end)
  std::uint64_t next_issue = hw.launch_delay;  // in order, issue_interval apart
  std::size_t consumed = 0;
  detail::CollectorQueues* queues =
      collectors ? new (static_cast<void*>(ready + kRegisterWords * register_count))
                       detail::CollectorQueues(hw.collector_units, hw.dispatch_delay,
                                               hw.issue_interval)
                 : nullptr;
  std::uint64_t own_queued = 0;
  std::uint64_t gap_since_last = 0;  // least cycles from the last issue to this one
  std::uint32_t queued_mask = 0;
  for (std::size_t k = 0; k < hw.unit_count; ++k) {
    if (issue_waits[k] == 0) queued_mask |= std::uint32_t{1} << res[k];
  }
  // A pending register's result, once an instruction reads or writes it
  // (collector_queue.hpp). Its ready word has detail::kPendingBit set: the
  // check needs no further load.
  auto settle = [&](std::uint16_t reg) noexcept {
    if (collectors && ready[reg] >= detail::kPendingBit) {
      queues->settle(reg, resource_free, ready, pending_tag);
    }
  };

  // Ends the section at its drain: the open execution phase, then the wait
  // for the last results (idle).
  auto close_section = [&]() noexcept {
    const auto s32 = static_cast<std::uint32_t>(section);
    writer.add(PhaseKind::execution, exec_start, busy_end, s32, current);
    writer.add(PhaseKind::idle, busy_end, drain, s32, current);
    // Every issue with collector units keeps the queued units' resources
    // busy (docs/multiphase.md, "Operand collectors").
    if (collectors && current.issues != 0) current.resource_mask |= queued_mask;
    current.length = drain - section_start + own_queued;
    own_queued = 0;
    if (section < max_sections) {
      sections[static_cast<std::ptrdiff_t>(section)] = current;
    } else if (max_sections != 0) {
      sections_overflowed = true;
    }
    ++section;
    current = SectionSummary{};
    // A barrier releases a drained warp: nothing is pending afterwards.
    section_start = exec_start = busy_end = next_issue = drain;
  };

  const bool exit_issues = hw.exit_issues;
  // Plain pointers: the span's iterator checks its bounds at every step.
  const Instruction* const end = instructions.data() + instructions.size();
  for (const Instruction* next = instructions.data(); next != end; ++next) {
    const Instruction& ins = *next;
    ++consumed;
    if (ins.kind == OpKind::exit && !exit_issues) break;
    // A barrier that may take an issue slot (barrier_delay >= 1) may pass
    // through a collector unit like a one-cycle instruction (GPGPU-Sim's
    // bar.sync): it waits for a unit, which the warp's own queued
    // instructions may still hold, and keeps it dispatch_delay cycles from
    // its issue, which the release does not wait for. Taking it so makes
    // the warp no earlier than on a machine whose barriers take no slot.
    // docs/multiphase.md, "Barriers".
    std::uint64_t slot_released = 0;  // when the barrier's collector unit is released
    if (ins.kind == OpKind::barrier && collectors && hw.barrier_delay != 0) {
      next_issue = queues->issue_after(next_issue, resource_free);
      slot_released = next_issue + dispatch_delay;
      queues->pass_through(slot_released);
    }
    if (ins.kind == OpKind::barrier && !barriers_drain) {
      // Alone, the warp is the last to arrive: released barrier_delay cycles
      // after it is free to issue (or issued the barrier), its results still
      // pending. It cannot end before the release.
      next_issue += hw.barrier_delay;
      if (next_issue > drain) drain = next_issue;
      continue;
    }
    if (ins.kind == OpKind::barrier) {
      // A warp is at the barrier once drained and free to issue again (or
      // once it issued the barrier); the block is released barrier_delay
      // cycles after the last one got there: the warp idles until then,
      // inside the section it closes.
      if (queues != nullptr) drain = queues->drain_all(resource_free, ready, pending_tag, drain);
      if (next_issue > drain) drain = next_issue;
      drain += hw.barrier_delay;
      // The next section starts with every collector unit released (the
      // proof's R'_k), the barrier's own too.
      if (slot_released > drain) drain = slot_released;
      // A machine whose barrier takes an issue slot (GPGPU-Sim's bar.sync)
      // has barrier_delay >= issue_interval, the warp's own slot: the other
      // warps' bounds charge the slot like an instruction's (issue_slots:
      // it passes through a collector unit). barrier_delay 0 is a barrier
      // without a slot (the paper's model). docs/multiphase.md, "Barriers".
      if (hw.barrier_delay != 0) current.issues += issue_slots;
      close_section();
      continue;
    }
    if (ins.unit >= hw.unit_count) return Status::not_found;
    if (ins.dst_count > kMaxDestinations || ins.src_count > kMaxSources) {
      return Status::invalid_argument;
    }
    const std::size_t u = ins.unit;
    const std::size_t r = res[u];
    const bool queued = issue_waits[u] == 0;
    // Alg. 1: the issue cycle is the first one at which the scoreboard (and,
    // without a queue, the unit) allow it.
    std::uint64_t t = next_issue;
    // Without a queue the unit must be free at the dispatch
    // (block_model.hpp: unit_allows_issue).
    const std::uint64_t unit_free =
        (resource_free[r] > dispatch_delay ? resource_free[r] - dispatch_delay : 0) &
        (std::uint64_t{0} - issue_waits[u]);
    t = max_of(t, unit_free);
    // The latest ready word of the registers read or written; a pending one
    // has detail::kPendingBit set, so it is the latest, and one check after
    // the loops finds it.
    std::uint64_t operands = 0;
    for (std::size_t k = 0; k < ins.src_count; ++k) {
      const std::uint16_t reg = ins.src[k];
      if (reg >= register_count) return Status::invalid_argument;
      operands = max_of(operands, ready[reg]);
    }
    for (std::size_t k = 0; k < ins.dst_count; ++k) {
      const std::uint16_t reg = ins.dst[k];
      if (reg >= register_count) return Status::invalid_argument;
      operands = max_of(operands, ready[reg]);
    }
    if (collectors && operands >= detail::kPendingBit) {
      operands = 0;
      for (std::size_t k = 0; k < ins.src_count; ++k) {
        settle(ins.src[k]);
        operands = max_of(operands, ready[ins.src[k]]);
      }
      for (std::size_t k = 0; k < ins.dst_count; ++k) {
        settle(ins.dst[k]);
        operands = max_of(operands, ready[ins.dst[k]]);
      }
    }
    t = max_of(t, operands);
    // A free collector unit (collector_queue.hpp).
    if (collectors) t = queues->issue_after(t, resource_free);
    if (t >= kCycleLimit) return Status::overflow;
    // Execution: from the cycle the instruction could enter its unit to the
    // end of its hold; these starts grow with the issues.
    const std::uint64_t ready_for_unit = t + dispatch_delay;
    // The warp had nothing at or in a unit in [busy_end, ready_for_unit):
    // it waited for a result (or for operands to be collected).
    exec_start = writer.wait(exec_start, busy_end, ready_for_unit,
                             static_cast<std::uint32_t>(section), current);
    // extra_cycles lengthens the hold, and the result unless the unit says
    // otherwise (block_model.hpp).
    const std::uint64_t d = max_of(ready_for_unit, resource_free[r]);  // dispatch_cycle
    const std::uint64_t held_until = d + init[u] + ins.extra_cycles;
    const std::uint64_t written =
        d + span[u] + (ins.extra_cycles & (std::uint64_t{0} - extra_delays_result[u]));
    busy_end = max_of(busy_end, held_until);
    // Drains wait for completion (block_model.hpp: completion_cycle).
    // A store: its hold plus the write-back, and its result if it writes
    // registers (which the readers never give it).
    const std::uint64_t done =
        ins.kind == OpKind::store
            ? max_of(held_until + result_delay, ins.dst_count != 0 ? written : 0)
            : max_of(written, held_until);
    drain = max_of(drain, done);
    // With collector units a queued instruction may be served after later
    // ones: its results stay pending until bounded (collector_queue.hpp).
    // Its destinations' gap_ref: dispatch delay plus the unit's fixed span
    // after this issue (collector_queue.hpp: advance).
    const std::uint64_t ref =
        collectors ? detail::gap_ref(queues->advance(ins, gap_since_last, gap_refs),
                                     dispatch_delay + span[u])
                   : 0;
    std::uint64_t tag = 0;
    std::uint64_t value = written;
    if (collectors && queued) {
      detail::CollectorQueues::Arrival a;
      a.resource = r;
      a.arrive = ready_for_unit;
      a.fifo = d;
      a.occupancy = held_until - d;
      a.result = written - d;
      a.completion = done - d;
      std::uint64_t start = d;
      tag = queues->arrive(a, ins, resource_free[r], ready, pending_tag, start);
      // Pending on the order-free bound alone: kept as result - hold end,
      // or 0 when the result comes first (bank passes hold the unit
      // longer): the backlog end then bounds it.
      value = tag != 0 ? (written > held_until ? written - held_until : 0) | detail::kPendingBit
                       : start + a.result;
      own_queued += held_until - d;
    } else if (collectors) {
      queues->pass_through(ready_for_unit);
    }
    resource_free[r] = held_until;
    for (std::size_t k = 0; k < ins.dst_count; ++k) {
      ready[ins.dst[k]] = value;
      pending_tag[ins.dst[k]] = tag;
      if (collectors) gap_refs[ins.dst[k]] = ref;
    }
    // block_model.hpp: next_issue_cycle.
    next_issue = t + issue_interval + (ins.kind == OpKind::branch ? branch_delay : 0);
    gap_since_last = next_issue - t;
    current.issues += issue_slots;
    // block_model.hpp: blocking_cycles.
    current.held[r] += std::uint64_t{init[u]} + ins.extra_cycles - issue_waits[u];
    current.resource_mask |= std::uint32_t{1} << r;
    if (ins.kind == OpKind::exit) break;  // exit_issues: it ends the warp once drained
  }
  if (queues != nullptr) drain = queues->drain_all(resource_free, ready, pending_tag, drain);
  // Issues are checked against the limit as they come; the drain after the
  // last one (results, holds, barriers passed without an issue) is too.
  if (drain >= kCycleLimit) return Status::overflow;
  close_section();

  result.total_cycles = drain;
  result.phase_count = writer.count();
  result.section_count = section;
  result.instructions = consumed;
  if (sections_overflowed || writer.overflowed()) return Status::buffer_too_small;
  return Status::ok;
}

Status run_warp(const HardwareDescription& hw, gsl::span<const Instruction> instructions,
                std::size_t register_count, gsl::span<std::byte> arena, bool barriers_drain,
                gsl::span<Phase> phases, gsl::span<SectionSummary> sections,
                ProfileResult& result) noexcept {
  return hw.collector_units != 0
             ? run_warp_with<true>(hw, instructions, register_count, arena, barriers_drain, phases,
                                   sections, result)
             : run_warp_with<false>(hw, instructions, register_count, arena, barriers_drain, phases,
                                    sections, result);
}

}  // namespace

Status profile_warp(const HardwareDescription& hw, gsl::span<const Instruction> instructions,
                    std::size_t register_count, gsl::span<std::byte> arena,
                    gsl::span<Phase> phases, gsl::span<SectionSummary> sections,
                    ProfileResult& result) noexcept {
  if (const Status st = validate(hw); st != Status::ok) return st;
  if (register_count > kMaxRegisterCount) return Status::invalid_argument;
  const Status st =
      run_warp(hw, instructions, register_count, arena, true, phases, sections, result);
  // No sections: a sizing call. The run counted them (run_warp_with stores
  // nothing into an empty span); the caller learns how many it needs.
  if (sections.empty() && st == Status::ok) return Status::buffer_too_small;
  return st;
}

Status warp_alone_cycles(const HardwareDescription& hw, gsl::span<const Instruction> instructions,
                         std::size_t register_count, gsl::span<std::byte> arena,
                         bool barriers_drain, std::uint64_t& cycles) noexcept {
  if (const Status st = validate(hw); st != Status::ok) return st;
  if (register_count > kMaxRegisterCount) return Status::invalid_argument;
  ProfileResult r{};
  const Status st = run_warp(hw, instructions, register_count, arena, barriers_drain, {}, {}, r);
  if (st == Status::ok) cycles = r.total_cycles;
  return st;
}

}  // namespace gpuwcet
