// Exact worst-case makespan: depth-first branch and bound over symmetric
// states with an explicit stack and a memo, both in the caller's arena.
// Algorithm and proofs: docs/makespan-search.md.
#include <algorithm>
#include <cstring>

#include "gpuwcet/checked_math.hpp"
#include "gpuwcet/makespan_bounds.hpp"
#include "gpuwcet/makespan_search.hpp"
#include "search_state.hpp"

namespace gpuwcet {

namespace {

using search_detail::Count;
using search_detail::Memo;
using search_detail::Tables;

constexpr std::uint64_t kDefaultMemoEntries = 1u << 16;
constexpr std::size_t kAlign = 8;

std::size_t align_up(std::size_t n) noexcept { return (n + kAlign - 1) & ~(kAlign - 1); }

// One level of the depth-first search. Value bookkeeping (fail-soft search
// for a maximum, docs/makespan-search.md "Search"):
//   theta      the caller only needs to know whether the value exceeds theta
//   best       largest 1 + exact child value so far (-1: none yet)
//   bound_rest largest 1 + upper bound of a child that was not solved exactly
struct FrameHeader {
  std::int64_t theta;
  std::int64_t best;
  std::int64_t bound_rest;
  std::uint32_t ub;
  std::uint32_t pad;
};

struct Layout {
  std::size_t frame_stride = 0;
  std::uint64_t max_depth = 0;
  std::size_t frames_bytes = 0;
  std::size_t memo_entries = 0;
  std::size_t memo_bytes = 0;
  std::size_t total = 0;
};

Status layout_for(const MakespanInstance& in, const SearchOptions& options, Tables& t,
                  Layout& l) noexcept {
  Status st = search_detail::build_tables(in, t);
  if (st != Status::ok) return st;
  t.order_bounds = options.order_bounds;
  // The depth never exceeds the safe bound on the whole makespan, nor a
  // budget: a frame below the root is entered only from an expanded one, and
  // each child is a step, so a search within max_nodes expansions or
  // max_steps steps never goes deeper (the frames are most of the arena when
  // the bound runs to millions of cycles).
  std::uint64_t depth = 0;
  {
    std::array<Count, kMaxSearchLength> root{};
    root[0] = static_cast<Count>(t.warps);
    depth = search_detail::upper_bound(t, root.data());
  }
  if (options.max_nodes != 0 && options.max_nodes < depth) depth = options.max_nodes;
  if (options.max_steps != 0 && options.max_steps < depth) depth = options.max_steps;
  l.max_depth = depth + 2;
  l.frame_stride = align_up(sizeof(FrameHeader) + 2 * 2 * t.length);
  std::uint64_t frames = 0;
  if (!checked_mul(l.max_depth, l.frame_stride, frames)) return Status::overflow;
  const std::uint64_t entries = options.memo_entries == 0 ? kDefaultMemoEntries : options.memo_entries;
  std::uint64_t memo = 0;
  if (!checked_mul(entries, Memo::stride(t.length), memo)) return Status::overflow;
  std::uint64_t total = 0;
  if (!checked_add(frames, memo, total) || !checked_add(total, 2 * kAlign, total) ||
      total > static_cast<std::uint64_t>(~std::size_t{0})) {
    return Status::overflow;
  }
  l.frames_bytes = static_cast<std::size_t>(frames);
  l.memo_entries = static_cast<std::size_t>(entries);
  l.memo_bytes = static_cast<std::size_t>(memo);
  l.total = static_cast<std::size_t>(total);
  return Status::ok;
}

class Engine {
 public:
  Engine(const Tables& t, const Layout& l, std::byte* frames, Memo& memo,
         const SearchOptions& options, SearchResult& result) noexcept
      : t_(t), l_(l), frames_(frames), memo_(memo), options_(options), result_(result) {}

  // Fail-soft value of `root` relative to theta, or false when a budget ran
  // out. `depth0` is the number of cycles already spent before `root`, used
  // to record real schedules found as lower bounds.
  bool solve(const Count* root, std::int64_t theta, std::uint64_t depth0, std::uint32_t& value,
             bool& exact) noexcept {
    depth0_ = depth0;
    std::size_t top = 0;
    std::memcpy(counts(0), root, 2 * t_.length);
    if (!enter(0, theta, value, exact)) {
      return !aborted_;  // settled without expanding
    }
    while (true) {
      // Frame `top` has its choice in take(top); generate and evaluate the child.
      FrameHeader& f = header(top);
      if (top + 1 >= l_.max_depth) {  // cannot happen: depth <= root bound
        aborted_ = true;
        return false;
      }
      search_detail::apply(t_, counts(top), take(top), counts(top + 1));
      ++result_.steps;
      std::uint32_t child_value = 0;
      bool child_exact = false;
      const std::int64_t child_theta = (f.theta > f.best ? f.theta : f.best) - 1;
      if (enter(top + 1, child_theta, child_value, child_exact)) {
        ++top;
        continue;
      }
      if (aborted_) return false;
      // The child settled at once; fold it in and move on, unwinding while
      // frames finish.
      while (true) {
        bool done = fold(top, child_value, child_exact);
        if (!done) done = !search_detail::next_choice(t_, counts(top), take(top));
        if (!done) break;  // next child of `top`
        finish(top, child_value, child_exact);
        if (top == 0) {
          value = child_value;
          exact = child_exact;
          return true;
        }
        --top;
      }
    }
  }

  bool aborted() const noexcept { return aborted_; }
  std::uint64_t best_schedule() const noexcept { return best_schedule_; }

  Count* counts(std::size_t level) noexcept {
    return reinterpret_cast<Count*>(frames_ + level * l_.frame_stride + sizeof(FrameHeader));
  }
  Count* take(std::size_t level) noexcept { return counts(level) + t_.length; }

 private:
  FrameHeader& header(std::size_t level) noexcept {
    return *reinterpret_cast<FrameHeader*>(frames_ + level * l_.frame_stride);
  }

  // Starts frame `level` (its counts are set). Returns true when it must be
  // expanded (its first choice is in take(level)); false when it settled at
  // once with (value, exact), or when a budget ran out (aborted_).
  bool enter(std::size_t level, std::int64_t theta, std::uint32_t& value, bool& exact) noexcept {
    const Count* s = counts(level);
    if (search_detail::finished(t_, s)) {
      value = 0;
      exact = true;
      return false;
    }
    std::uint32_t memo_value = 0;
    const std::uint8_t kind = memo_.find(s, memo_value);
    if (kind == Memo::kExact) {
      value = memo_value;
      exact = true;
      note_schedule(level, value);
      return false;
    }
    std::uint32_t ub = search_detail::upper_bound(t_, s);
    if (kind == Memo::kUpper && memo_value < ub) ub = memo_value;
    if (static_cast<std::int64_t>(ub) <= theta) {
      value = ub;
      exact = false;
      return false;
    }
    if (budget_spent()) {
      aborted_ = true;
      return false;
    }
    ++result_.nodes;
    if (options_.progress != nullptr && options_.progress_every != 0 &&
        result_.nodes % options_.progress_every == 0) {
      // result_ holds the incumbent and the root's B1 until the search ends.
      const std::uint64_t lower =
          best_schedule_ > result_.lower_bound ? best_schedule_ : result_.lower_bound;
      SearchProgress p{result_.nodes, lower, result_.upper_bound};
      options_.progress(p, options_.progress_user);
    }
    FrameHeader& f = header(level);
    f.theta = theta;
    f.best = -1;
    f.bound_rest = 0;
    f.ub = ub;
    search_detail::first_choice(t_, s, take(level));
    return true;
  }

  // Folds a child's result into frame `level`. Returns true when the frame
  // is settled and needs no further child.
  bool fold(std::size_t level, std::uint32_t child_value, bool child_exact) noexcept {
    FrameHeader& f = header(level);
    const std::int64_t v = std::int64_t{child_value} + 1;
    if (child_exact) {
      if (v > f.best) f.best = v;
    } else if (v > f.bound_rest) {
      f.bound_rest = v;
    }
    return f.best == static_cast<std::int64_t>(f.ub);
  }

  // Closes frame `level`: its value is exact when an exact child reaches at
  // least every other child's bound; otherwise it is an upper bound <= theta.
  void finish(std::size_t level, std::uint32_t& value, bool& exact) noexcept {
    const FrameHeader& f = header(level);
    if (f.best >= 0 && f.best >= f.bound_rest) {
      value = static_cast<std::uint32_t>(f.best);
      exact = true;
      memo_.store(counts(level), Memo::kExact, value);
      note_schedule(level, value);
    } else {
      value = static_cast<std::uint32_t>(f.bound_rest > f.best ? f.bound_rest : f.best);
      exact = false;
      memo_.store(counts(level), Memo::kUpper, value);
    }
  }

  // A state reached after depth0_ + level cycles with an exact remaining
  // value closes a real schedule of that total length.
  void note_schedule(std::size_t level, std::uint32_t value) noexcept {
    const std::uint64_t total = depth0_ + level + value;
    if (total > best_schedule_) best_schedule_ = total;
  }

  bool budget_spent() const noexcept {
    return (options_.max_nodes != 0 && result_.nodes >= options_.max_nodes) ||
           (options_.max_steps != 0 && result_.steps >= options_.max_steps);
  }

  const Tables& t_;
  const Layout& l_;
  std::byte* frames_;
  Memo& memo_;
  const SearchOptions& options_;
  SearchResult& result_;
  std::uint64_t depth0_ = 0;
  std::uint64_t best_schedule_ = 0;
  bool aborted_ = false;
};

// Runs a fixed picking rule to the end; writes its schedule when there is
// room. Returns its makespan. `most_advanced` picks the choice that serves
// the most advanced warps (starving the least advanced), else the opposite.
// Each cycle generates a state and counts as a step of `result`; when
// `max_steps` (0: none) runs out first, `complete` is false and the return
// value is the cycles played, after which some warp has not finished.
std::uint64_t run_policy(const Tables& t, bool most_advanced, Count* s, Count* take, Count* next,
                         gsl::span<std::uint32_t> schedule, SearchResult& result,
                         std::uint64_t max_steps, bool& complete) noexcept {
  std::uint64_t cycles = 0;
  complete = true;
  while (!search_detail::finished(t, s)) {
    if (max_steps != 0 && result.steps >= max_steps) {
      complete = false;
      break;
    }
    if (most_advanced) {
      search_detail::first_choice(t, s, take);
    } else {
      search_detail::last_choice(t, s, take);
    }
    if ((cycles + 1) * t.length <= schedule.size()) {
      for (std::size_t k = 0; k < t.length; ++k) {
        // Below schedule.size() (checked above), so it fits in size_t.
        schedule[static_cast<std::size_t>(cycles * t.length + k)] = take[k];
      }
    }
    search_detail::apply(t, s, take, next);
    std::memcpy(s, next, 2 * t.length);
    ++result.steps;
    ++cycles;
  }
  return cycles;
}

// makespan_lower_bound on the searched string: no work-conserving schedule
// is shorter than one warp's string or than its busiest class needs. Every
// schedule takes at least this long, so it is a lower bound in
// SearchResult's sense (a real schedule takes at least it), and where it
// meets min(B1, B2) it is the worst case, with no search.
std::uint64_t trivial_lower_bound(const Tables& t) noexcept {
  TransformedShape shape;
  shape.class_count = t.classes;
  shape.length = t.length;
  for (std::size_t u = 0; u < t.classes; ++u) {
    shape.capacity[u] = t.capacity[u];
    shape.count[u] = t.offset[u + 1] - t.offset[u];
  }
  std::uint64_t cycles = 0;
  // Tables are validated (warps and capacities >= 1): it cannot fail; if it
  // did, one warp's string is still a lower bound.
  return makespan_lower_bound(shape, t.warps, cycles) == Status::ok ? cycles : t.length;
}

// The budget ran out while the incumbent policies played: the bounds known
// so far, and the first policy's schedule when it is complete and kept.
// When `trivial` (trivial_lower_bound) already meets the upper bound the value
// is exact, only a worst schedule is missing.
Status policies_cut(SearchResult& result, std::uint64_t lower_bound, std::uint64_t trivial,
                    std::uint64_t schedule_cycles) noexcept {
  if (trivial >= result.upper_bound) {
    result.lower_bound = result.upper_bound;
    result.exact = true;
    result.schedule_cycles = 0;
    return Status::schedule_unavailable;
  }
  result.lower_bound = lower_bound > trivial ? lower_bound : trivial;
  result.exact = false;
  result.schedule_cycles = schedule_cycles;
  return Status::budget_exhausted;
}

}  // namespace

Status state_upper_bound(const MakespanInstance& instance, gsl::span<const std::uint16_t> counts,
                         std::uint64_t& bound) noexcept {
  Tables t;
  const Status st = search_detail::build_tables(instance, t);
  if (st != Status::ok) return st;
  if (static_cast<std::size_t>(counts.size()) != t.length) return Status::invalid_argument;
  std::uint64_t warps = 0;  // at most 64 counts of 16 bits: no overflow
  for (const std::uint16_t c : counts) warps += c;
  if (warps > t.warps) return Status::invalid_argument;
  bound = search_detail::upper_bound(t, counts.data());
  return Status::ok;
}

Status makespan_search_arena_bytes(const MakespanInstance& instance, const SearchOptions& options,
                                   std::size_t& bytes) noexcept {
  Tables t;
  Layout l;
  const Status st = layout_for(instance, options, t, l);
  if (st == Status::ok) bytes = l.total;
  return st;
}

Status search_worst_makespan(const MakespanInstance& instance, const SearchOptions& options,
                             gsl::span<std::byte> arena, SearchResult& result,
                             gsl::span<std::uint32_t> schedule) noexcept {
  result = SearchResult{};
  Tables t;
  Layout l;
  const Status st = layout_for(instance, options, t, l);
  if (st != Status::ok) return st;
  if (arena.size() < l.total) return Status::buffer_too_small;
  // Carve the arena: frames, then the memo, each 8-byte aligned.
  std::byte* base = arena.data();
  const std::size_t mis = reinterpret_cast<std::uintptr_t>(base) % kAlign;
  if (mis != 0) base += kAlign - mis;
  std::byte* frames = base;
  Memo memo;
  memo.init(frames + align_up(l.frames_bytes), l.memo_entries, t.length);

  // Incumbents from two adversarial picking rules (real schedules).
  Count* s = reinterpret_cast<Count*>(frames);
  Count* take = s + t.length;
  Count* next = take + t.length;
  auto reset_root = [&]() {
    std::memset(s, 0, 2 * t.length);
    s[0] = static_cast<Count>(t.warps);
  };
  // Their cycles are steps of the budget: for 65,535 warps they play
  // millions of cycles, which max_steps must bound as it bounds the search.
  reset_root();
  const std::uint32_t root_ub = search_detail::upper_bound(t, s);
  result.upper_bound = root_ub;
  const std::uint64_t trivial = trivial_lower_bound(t);
  if (trivial >= root_ub) {  // proven: only a worst schedule may be missing
    result.lower_bound = root_ub;
    result.exact = true;
    if (schedule.empty()) return Status::ok;
    if (std::uint64_t{root_ub} * t.length > schedule.size()) return Status::buffer_too_small;
  }
  // A schedule cut after c cycles with a warp left continues into a real
  // work-conserving one of at least c + 1 cycles.
  bool complete = true;
  const std::uint64_t a =
      run_policy(t, true, s, take, next, schedule, result, options.max_steps, complete);
  if (!complete) return policies_cut(result, a + 1, trivial, 0);
  // A complete schedule as long as the safe bound is a worst one (below:
  // done at once); the second policy cannot be longer.
  std::uint64_t b = 0;
  if (a < root_ub) {
    reset_root();
    b = run_policy(t, false, s, take, next, {}, result, options.max_steps, complete);
  }
  if (!complete) {
    const bool kept = !schedule.empty() && a * t.length <= schedule.size();
    return policies_cut(result, std::max(a, b + 1), trivial, kept ? a : 0);
  }
  std::uint64_t incumbent = a;
  if (b > a) {
    reset_root();
    incumbent = run_policy(t, false, s, take, next, schedule, result, options.max_steps, complete);
    if (!complete) return policies_cut(result, b, trivial, 0);  // a's schedule is overwritten
  }
  std::uint64_t schedule_length = incumbent;
  reset_root();
  result.lower_bound = incumbent;

  std::array<Count, kMaxSearchLength> root{};
  std::memcpy(root.data(), s, 2 * t.length);
  Engine engine(t, l, frames, memo, options, result);
  std::uint32_t value = 0;
  bool exact = false;
  const bool done = incumbent >= root_ub ||
                    engine.solve(root.data(), static_cast<std::int64_t>(incumbent), 0, value, exact);
  result.memo_used = memo.used();
  if (engine.best_schedule() > result.lower_bound) result.lower_bound = engine.best_schedule();
  if (!done || engine.aborted()) {
    // trivial < root_ub here (else a complete incumbent reached root_ub).
    if (trivial > result.lower_bound) result.lower_bound = trivial;
    result.exact = false;
    if (!schedule.empty() && schedule_length * t.length <= schedule.size()) {
      result.schedule_cycles = schedule_length;
    }
    return Status::budget_exhausted;
  }
  // Exact: the value is the incumbent unless the search proved a longer one.
  const std::uint64_t worst = exact && value > incumbent ? value : incumbent;
  result.lower_bound = worst;
  result.upper_bound = worst;
  result.exact = true;

  if (schedule.empty()) return Status::ok;
  if (worst * t.length > schedule.size()) return Status::buffer_too_small;
  result.schedule_cycles = worst;
  if (worst == schedule_length) return Status::ok;  // the incumbent's schedule is a worst one
  // Rebuild a worst schedule: from each state pick a child whose exact value
  // is one less than the state's, re-solving children through the memo. The
  // children count as steps and their expansions as nodes of the caller's
  // budget, of which the search has spent a part: a schedule is not worth
  // running past it. When it runs out the proven bounds stand, without a
  // schedule (the buffer then holds a partial one).
  std::array<Count, kMaxSearchLength> state = root;
  std::array<Count, kMaxSearchLength> pick{};
  std::array<Count, kMaxSearchLength> child{};
  std::uint64_t remaining = worst;
  auto without_schedule = [&result]() noexcept {
    result.schedule_cycles = 0;
    return Status::schedule_unavailable;
  };
  for (std::uint64_t cycle = 0; cycle < worst; ++cycle) {
    bool found = false;
    bool more = search_detail::first_choice(t, state.data(), pick.data());
    while (more && !found) {
      if (options.max_steps != 0 && result.steps >= options.max_steps) return without_schedule();
      search_detail::apply(t, state.data(), pick.data(), child.data());
      ++result.steps;
      std::uint32_t v = 0;
      bool ex = false;
      Engine sub(t, l, frames, memo, options, result);
      const std::int64_t need = static_cast<std::int64_t>(remaining) - 2;
      if (!sub.solve(child.data(), need, cycle + 1, v, ex)) return without_schedule();
      if (ex && v + 1 == remaining) {
        found = true;
        break;
      }
      more = search_detail::next_choice(t, state.data(), pick.data());
    }
    if (!found) return Status::solver_failed;  // would contradict the proof above
    for (std::size_t k = 0; k < t.length; ++k) {
      // cycle < worst and worst * t.length <= schedule.size(): fits in size_t.
      schedule[static_cast<std::size_t>(cycle * t.length + k)] = pick[k];
    }
    state = child;
    --remaining;
  }
  return Status::ok;
}

}  // namespace gpuwcet
