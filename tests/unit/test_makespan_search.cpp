// The exact search against an independent brute-force enumerator over
// explicit warps, schedule replay, anytime bracketing and bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <vector>

#include "brute_force_makespan.hpp"
#include "gpuwcet/makespan_bounds.hpp"
#include "gpuwcet/makespan_search.hpp"

namespace gpuwcet {
namespace {

struct Problem {
  std::vector<std::uint8_t> instr;
  MakespanInstance in;
};

// Kernel over {L, C} with integer capacities (sigma_L = cl, sigma_C = cc).
Problem make(const std::string& kernel, std::uint64_t cl, std::uint64_t cc, std::uint64_t warps) {
  Problem p;
  for (char c : kernel) p.instr.push_back(c == 'L' ? 0 : 1);
  p.in.instr = p.instr;
  p.in.class_count = 2;
  p.in.capacity[0] = cl;
  p.in.capacity[1] = cc;
  p.in.warps = warps;
  return p;
}

struct SearchRun {
  Status status;
  SearchResult result;
  std::vector<std::uint32_t> schedule;
};

SearchRun search(const Problem& p, SearchOptions options = {}, bool with_schedule = true) {
  SearchRun r;
  std::size_t bytes = 0;
  EXPECT_EQ(makespan_search_arena_bytes(p.in, options, bytes), Status::ok);
  std::vector<std::byte> arena(bytes);
  const std::size_t room = (p.instr.size() * p.in.warps + 1) * p.instr.size();
  r.schedule.assign(with_schedule ? room : 0, 0);
  r.status = search_worst_makespan(p.in, options, arena, r.result, r.schedule);
  return r;
}

// Independent replay: every cycle serves exactly min(capacity, waiting) warps
// of each class, never more warps than stand at a position, and all warps
// finish at the last cycle.
::testing::AssertionResult replays(const Problem& p, const std::vector<std::uint32_t>& sched,
                                   std::uint64_t cycles) {
  const std::size_t len = p.instr.size();
  std::vector<std::uint64_t> at(len + 1, 0);
  at[0] = p.in.warps;
  for (std::uint64_t t = 0; t < cycles; ++t) {
    if (at[len] == p.in.warps) return ::testing::AssertionFailure() << "finished early at " << t;
    std::array<std::uint64_t, kMaxUnitClasses> waiting{};
    std::array<std::uint64_t, kMaxUnitClasses> served{};
    for (std::size_t k = 0; k < len; ++k) {
      const std::uint32_t x = sched[t * len + k];
      if (x > at[k]) return ::testing::AssertionFailure() << "cycle " << t << " takes absent warps";
      waiting[p.instr[k]] += at[k];
      served[p.instr[k]] += x;
    }
    for (std::size_t u = 0; u < p.in.class_count; ++u) {
      const std::uint64_t must = std::min(p.in.capacity[u], waiting[u]);
      if (served[u] != must) {
        return ::testing::AssertionFailure() << "cycle " << t << " class " << u << " serves "
                                             << served[u] << " instead of " << must;
      }
    }
    for (std::size_t k = len; k-- > 0;) {
      const std::uint32_t x = sched[t * len + k];
      at[k] -= x;
      at[k + 1] += x;
    }
  }
  if (at[len] != p.in.warps) return ::testing::AssertionFailure() << "not finished";
  return ::testing::AssertionSuccess();
}

std::uint64_t brute(const Problem& p) {
  std::vector<int> instr(p.instr.begin(), p.instr.end());
  testing::BruteForceMakespan bf(instr, {static_cast<int>(p.in.capacity[0]),
                                         static_cast<int>(p.in.capacity[1])});
  return bf.worst(static_cast<int>(p.in.warps));
}

TEST(MakespanSearch, Figure2LlcFourWarpsIsNine) {
  // Paper's Fig. 2: LLC, sigma 1/1, W = 4 has a 9-cycle work-conserving
  // schedule, which is also the worst case.
  const Problem p = make("LLC", 1, 1, 4);
  const SearchRun r = search(p);
  ASSERT_EQ(r.status, Status::ok);
  EXPECT_TRUE(r.result.exact);
  EXPECT_EQ(r.result.upper_bound, 9u);
  EXPECT_EQ(r.result.schedule_cycles, 9u);
  EXPECT_TRUE(replays(p, r.schedule, 9));
}

TEST(MakespanSearch, PublishedCounterexamples) {
  // LL, sigma_L = 2, W = 4 takes 5 cycles; LCL, sigma 1/1, W = 4 takes 9
  // (the approximation of Eqs. 42-43 gives 8 there).
  EXPECT_EQ(search(make("LL", 2, 1, 4)).result.upper_bound, 5u);
  EXPECT_EQ(search(make("LCL", 1, 1, 4)).result.upper_bound, 9u);
  EXPECT_EQ(search(make("LCL", 1, 1, 2)).result.upper_bound, 4u);  // T(2) = 4
}

TEST(MakespanSearch, EqualsBruteForceOnAllSmallInstances) {
  int checked = 0;
  for (int len = 1; len <= 5; ++len) {
    for (int bits = 0; bits < (1 << len); ++bits) {
      std::string k;
      for (int i = 0; i < len; ++i) k += (bits >> i & 1) ? 'C' : 'L';
      for (std::uint64_t cl = 1; cl <= 3; ++cl) {
        for (std::uint64_t cc = 1; cc <= 3; ++cc) {
          for (std::uint64_t w = 1; w <= 6; ++w) {
            const Problem p = make(k, cl, cc, w);
            const SearchRun r = search(p);
            ASSERT_EQ(r.status, Status::ok) << k << " " << cl << "/" << cc << " W=" << w;
            const std::uint64_t expect = brute(p);
            ASSERT_TRUE(r.result.exact);
            ASSERT_EQ(r.result.upper_bound, expect) << k << " " << cl << "/" << cc << " W=" << w;
            ASSERT_EQ(r.result.lower_bound, expect);
            ASSERT_EQ(r.result.schedule_cycles, expect);
            ASSERT_TRUE(replays(p, r.schedule, expect)) << k << " " << cl << "/" << cc << " W=" << w;
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_EQ(checked, 62 * 9 * 6);
}

TEST(MakespanSearch, AnytimeBoundsBracketTheExactValue) {
  for (const char* k : {"LLCLL", "LCLCL", "LLC", "CLLCC"}) {
    for (std::uint64_t w : {3u, 5u, 7u}) {
      const Problem p = make(k, 1, 1, w);
      const SearchRun exact = search(p);
      ASSERT_EQ(exact.status, Status::ok);
      const std::uint64_t v = exact.result.upper_bound;
      for (std::uint64_t budget : {1u, 2u, 5u, 20u, 100u, 1001u, 1002u, 1005u, 1020u, 1100u}) {
        // Above 1000: the same budgets in steps, which also count the
        // incumbent schedules' cycles (the smallest cut them short).
        SearchOptions o;
        (budget > 1000 ? o.max_steps : o.max_nodes) = budget % 1000;
        const SearchRun r = search(p, o);
        ASSERT_TRUE(r.status == Status::ok || r.status == Status::budget_exhausted ||
                    r.status == Status::schedule_unavailable);
        EXPECT_LE(r.result.lower_bound, v) << k << " W=" << w << " budget " << budget;
        EXPECT_GE(r.result.upper_bound, v) << k << " W=" << w << " budget " << budget;
        EXPECT_EQ(r.result.exact, r.status != Status::budget_exhausted);
        if (r.result.schedule_cycles != 0) {
          EXPECT_TRUE(replays(p, r.schedule, r.result.schedule_cycles));
        }
      }
    }
  }
}

// max_steps bounds the whole call: the two incumbent schedules play one
// step per cycle, and 65,535 warps of (LC)^32 take over 2 million cycles
// in each. Cut short, a policy still gives a lower bound: its warps have
// not finished, so a continuation of its schedule is longer than the cycles
// it played.
TEST(MakespanSearch, StepBudgetBoundsTheIncumbentSchedules) {
  std::string k;
  for (int i = 0; i < 32; ++i) k += "LC";
  const Problem p = make(k, 1, 1, 65535);
  for (const std::uint64_t budget : {1u, 10u, 1000u}) {
    SearchOptions o;
    o.memo_entries = 16;
    o.max_steps = budget;
    const SearchRun r = search(p, o, false);
    EXPECT_EQ(r.status, Status::budget_exhausted);
    EXPECT_EQ(r.result.steps, budget);
    EXPECT_EQ(r.result.nodes, 0u);
    // Every schedule serves 32 L per warp, one L a cycle: 65,535 * 32 cycles,
    // more than the cut incumbent's budget + 1 shows.
    EXPECT_EQ(r.result.lower_bound, 65535u * 32);
    EXPECT_GE(r.result.upper_bound, 65535u * 32);
    EXPECT_FALSE(r.result.exact);
  }
  // The first schedule completes (W + 1 = 3 cycles for LC, one warp of each
  // class a cycle) and reaches the safe bound, 3: it is a worst schedule,
  // and the second is not played.
  const Problem small = make("LC", 1, 1, 2);
  SearchOptions o;
  o.max_steps = 4;
  const SearchRun r = search(small, o);
  EXPECT_EQ(r.status, Status::ok);
  EXPECT_TRUE(r.result.exact);
  EXPECT_EQ(r.result.upper_bound, 3u);
  EXPECT_EQ(r.result.schedule_cycles, 3u);
  EXPECT_TRUE(replays(small, r.schedule, 3));
  EXPECT_EQ(r.result.steps, 3u);
  // Where the first schedule is shorter than the safe bound, a budget that
  // lets it finish but cuts the second keeps it.
  const Problem other = make("CLLCC", 1, 1, 3);
  bool seen = false;
  for (std::uint64_t steps = 1; steps < 200 && !seen; ++steps) {
    o.max_steps = steps;
    const SearchRun c = search(other, o);
    if (c.status != Status::budget_exhausted || c.result.schedule_cycles == 0) continue;
    seen = true;
    EXPECT_TRUE(replays(other, c.schedule, c.result.schedule_cycles));
    EXPECT_GE(c.result.lower_bound, c.result.schedule_cycles);
    EXPECT_LT(c.result.schedule_cycles, c.result.upper_bound);
  }
  EXPECT_TRUE(seen);
}

// Where the trivial lower bound (one warp's string, the busiest class's
// work) meets min(B1, B2) the worst case is known without a search: LLLL
// with one L a cycle, 8 warps, takes 32 cycles in every schedule. Without a
// schedule to show the answer is exact at once; with one, the incumbent's
// schedule is a worst one, and a budget too small to play it leaves the
// exact value without a schedule.
TEST(MakespanSearch, TrivialLowerBoundMeetingTheUpperBoundIsExact) {
  const Problem p = make("LLLL", 1, 1, 8);
  SearchOptions o;
  o.max_steps = 1;
  const SearchRun bare = search(p, o, false);
  EXPECT_EQ(bare.status, Status::ok);
  EXPECT_TRUE(bare.result.exact);
  EXPECT_EQ(bare.result.lower_bound, 32u);
  EXPECT_EQ(bare.result.upper_bound, 32u);
  EXPECT_EQ(bare.result.steps, 0u);
  EXPECT_EQ(bare.result.nodes, 0u);

  const SearchRun cut = search(p, o);
  EXPECT_EQ(cut.status, Status::schedule_unavailable);
  EXPECT_TRUE(cut.result.exact);
  EXPECT_EQ(cut.result.lower_bound, 32u);
  EXPECT_EQ(cut.result.upper_bound, 32u);
  EXPECT_EQ(cut.result.schedule_cycles, 0u);

  const SearchRun full = search(p);
  EXPECT_EQ(full.status, Status::ok);
  EXPECT_EQ(full.result.upper_bound, 32u);
  EXPECT_EQ(full.result.schedule_cycles, 32u);
  EXPECT_TRUE(replays(p, full.schedule, 32));

  // A schedule buffer too small for 32 cycles: the exact bounds, at once.
  std::size_t bytes = 0;
  ASSERT_EQ(makespan_search_arena_bytes(p.in, SearchOptions{}, bytes), Status::ok);
  std::vector<std::byte> arena(bytes);
  std::vector<std::uint32_t> few(31 * 4);
  SearchResult small;
  EXPECT_EQ(search_worst_makespan(p.in, SearchOptions{}, arena, small, few),
            Status::buffer_too_small);
  EXPECT_TRUE(small.exact);
  EXPECT_EQ(small.upper_bound, 32u);
  EXPECT_EQ(small.steps, 0u);
}

// A budget caps the search's depth, hence its frames: a budget exactly as
// large as what the unbudgeted search spends (search and schedule rebuild)
// must still give its answer, so the smaller arena never cuts a path the
// budget allows.
TEST(MakespanSearch, BudgetJustLargeEnoughGivesTheUnbudgetedAnswer) {
  int cases = 0;
  for (const char* k : {"LLCLL", "LCLCL", "LLC", "CLLCC", "LCCLLCL", "CLCLLLC"}) {
    for (std::uint64_t cl : {1u, 2u}) {
      for (std::uint64_t w : {2u, 3u, 5u, 7u, 9u}) {
        const Problem p = make(k, cl, 1, w);
        const SearchRun full = search(p);
        ASSERT_EQ(full.status, Status::ok);
        for (const bool by_steps : {false, true}) {
          SearchOptions o;
          (by_steps ? o.max_steps : o.max_nodes) = by_steps ? full.result.steps : full.result.nodes;
          if ((by_steps ? o.max_steps : o.max_nodes) == 0) continue;  // settled without a node
          const SearchRun r = search(p, o);
          EXPECT_EQ(r.status, Status::ok) << k << " W=" << w << (by_steps ? " steps" : " nodes");
          EXPECT_EQ(r.result.upper_bound, full.result.upper_bound) << k << " W=" << w;
          EXPECT_EQ(r.result.nodes, full.result.nodes) << k << " W=" << w;
          EXPECT_EQ(r.result.schedule_cycles, full.result.schedule_cycles) << k << " W=" << w;
          ++cases;
        }
      }
    }
  }
  EXPECT_GT(cases, 60);
}

// What the budget saves: 20,000 warps of (LC)^8 have a safe bound of about
// 160,000 cycles, a frame per cycle without a budget.
TEST(MakespanSearch, BudgetShrinksTheArena) {
  std::string k;
  for (int i = 0; i < 8; ++i) k += "LC";
  const Problem p = make(k, 1, 1, 20000);
  SearchOptions o;
  o.memo_entries = 16;
  std::size_t unbudgeted = 0;
  ASSERT_EQ(makespan_search_arena_bytes(p.in, o, unbudgeted), Status::ok);
  o.max_nodes = 10;
  std::size_t budgeted = 0;
  ASSERT_EQ(makespan_search_arena_bytes(p.in, o, budgeted), Status::ok);
  EXPECT_GT(unbudgeted, 100000u * 16);
  EXPECT_LT(budgeted, 4096u);
  const SearchRun r = search(p, o, false);
  ASSERT_TRUE(r.status == Status::ok || r.status == Status::budget_exhausted);
  EXPECT_LE(r.result.lower_bound, r.result.upper_bound);
}

// CCCCSLCLCSCLCC over L, C and S, one unit each, 8 warps: the search proves
// the worst case within 265 expansions with a one-entry memo, but
// rebuilding a worst schedule takes thousands more.
Problem three_class_problem() {
  Problem p;
  for (const char c : std::string("CCCCSLCLCSCLCC")) {
    p.instr.push_back(c == 'L' ? 0 : c == 'C' ? 1 : 2);
  }
  p.in.instr = p.instr;
  p.in.class_count = 3;
  p.in.capacity = {1, 1, 1};
  p.in.warps = 8;
  return p;
}

// Rebuilding the schedule spends the caller's budget too: once it is gone the
// call keeps the exact bounds and says that no schedule came with them.
TEST(MakespanSearch, ScheduleRebuildStaysWithinTheBudget) {
  const Problem p = three_class_problem();
  SearchOptions o;
  o.memo_entries = 1;
  o.max_nodes = 265;
  const SearchRun bounds_only = search(p, o, false);
  ASSERT_EQ(bounds_only.status, Status::ok);
  ASSERT_TRUE(bounds_only.result.exact);
  const std::uint64_t worst = bounds_only.result.upper_bound;
  SearchRun r = search(p, o);
  EXPECT_EQ(r.status, Status::schedule_unavailable);
  EXPECT_LE(r.result.nodes, o.max_nodes);
  EXPECT_TRUE(r.result.exact);
  EXPECT_EQ(r.result.lower_bound, worst);
  EXPECT_EQ(r.result.upper_bound, worst);
  EXPECT_EQ(r.result.schedule_cycles, 0u);
  o.max_nodes = 0;
  o.max_steps = bounds_only.result.steps + 1;
  r = search(p, o);
  EXPECT_EQ(r.status, Status::schedule_unavailable);
  EXPECT_LE(r.result.steps, o.max_steps);
  EXPECT_EQ(r.result.upper_bound, worst);
  // Without a budget the schedule comes; with exactly the expansions that
  // took, too, and with one fewer it does not.
  o.max_steps = 0;
  const SearchRun unlimited = search(p, o);
  ASSERT_EQ(unlimited.status, Status::ok);
  EXPECT_EQ(unlimited.result.schedule_cycles, worst);
  EXPECT_TRUE(replays(p, unlimited.schedule, worst));
  o.max_nodes = unlimited.result.nodes;
  r = search(p, o);
  EXPECT_EQ(r.status, Status::ok);
  EXPECT_TRUE(replays(p, r.schedule, r.result.schedule_cycles));
  o.max_nodes = unlimited.result.nodes - 1;
  EXPECT_EQ(search(p, o).status, Status::schedule_unavailable);
}

TEST(MakespanSearch, StepBudgetAndTinyMemoStayCorrect) {
  const Problem p = make("LLCLL", 1, 1, 6);
  const std::uint64_t v = search(p).result.upper_bound;
  SearchOptions tiny;
  tiny.memo_entries = 3;  // almost no memo: slower, still exact
  const SearchRun r = search(p, tiny);
  ASSERT_EQ(r.status, Status::ok);
  EXPECT_EQ(r.result.upper_bound, v);
  SearchOptions steps;
  steps.max_steps = 3;
  const SearchRun s = search(p, steps);
  EXPECT_LE(s.result.lower_bound, v);
  EXPECT_GE(s.result.upper_bound, v);
}

TEST(MakespanSearch, StateBoundIsSafeFromEveryReachableRoot) {
  // The pruning bound at the root is never below the exact value.
  for (const char* k : {"LLCLL", "LCLCL", "CCL"}) {
    for (std::uint64_t w = 1; w <= 6; ++w) {
      for (std::uint64_t cl = 1; cl <= 3; ++cl) {
        const Problem p = make(k, cl, 1, w);
        std::vector<std::uint16_t> root(p.instr.size(), 0);
        root[0] = static_cast<std::uint16_t>(w);
        std::uint64_t bound = 0;
        ASSERT_EQ(state_upper_bound(p.in, root, bound), Status::ok);
        EXPECT_GE(bound, brute(p));
      }
    }
  }
}

// Independent oracle for arbitrary states: the worst remaining makespan of
// explicit warps standing at `pos` (== instr.size(): finished), by
// enumerating every work-conserving cycle. Shares no code with the library.
class StateOracle {
 public:
  StateOracle(std::vector<int> instr, std::vector<int> capacity)
      : instr_(std::move(instr)), capacity_(std::move(capacity)) {}

  std::uint64_t value(std::vector<int> pos) {
    std::sort(pos.begin(), pos.end());
    const int len = static_cast<int>(instr_.size());
    if (std::all_of(pos.begin(), pos.end(), [len](int q) { return q == len; })) return 0;
    const auto it = memo_.find(pos);
    if (it != memo_.end()) return it->second;
    std::vector<std::vector<std::size_t>> waiting(capacity_.size());
    for (std::size_t w = 0; w < pos.size(); ++w) {
      if (pos[w] < len) waiting[static_cast<std::size_t>(instr_[static_cast<std::size_t>(pos[w])])].push_back(w);
    }
    std::uint64_t best = 0;
    std::vector<int> next = pos;
    cycle(0, waiting, next, best);
    memo_[pos] = best;
    return best;
  }

 private:
  void cycle(std::size_t u, const std::vector<std::vector<std::size_t>>& waiting,
             std::vector<int>& next, std::uint64_t& best) {
    if (u == waiting.size()) {
      best = std::max(best, 1 + value(next));
      return;
    }
    const auto& cand = waiting[u];
    const std::size_t take = std::min<std::size_t>(static_cast<std::size_t>(capacity_[u]), cand.size());
    std::vector<bool> pick(cand.size(), false);
    std::fill(pick.begin(), pick.begin() + static_cast<std::ptrdiff_t>(take), true);
    do {
      for (std::size_t i = 0; i < cand.size(); ++i) next[cand[i]] += pick[i] ? 1 : 0;
      cycle(u + 1, waiting, next, best);
      for (std::size_t i = 0; i < cand.size(); ++i) next[cand[i]] -= pick[i] ? 1 : 0;
    } while (std::prev_permutation(pick.begin(), pick.end()));
  }

  std::vector<int> instr_;
  std::vector<int> capacity_;
  std::map<std::vector<int>, std::uint64_t> memo_;
};

// Calls f(counts) for every way to place `warps` unfinished warps on `len`
// positions (every state, reachable or not: the bounds' proofs hold for any).
template <typename F>
void for_each_state(std::size_t len, std::uint64_t warps, F&& f) {
  std::vector<std::uint16_t> counts(len, 0);
  auto rec = [&](auto&& self, std::size_t k, std::uint64_t left) -> void {
    if (k + 1 == len) {
      counts[k] = static_cast<std::uint16_t>(left);
      f(counts);
      return;
    }
    for (std::uint64_t x = 0; x <= left; ++x) {
      counts[k] = static_cast<std::uint16_t>(x);
      self(self, k + 1, left - x);
    }
  };
  rec(rec, 0, warps);
}

// state_upper_bound (min of B1 and B2) against the oracle on every state of
// every kernel over `classes` symbols of length 1..max_len, capacities
// 1..max_cap, 1..max_warps unfinished warps. Returns states checked.
int check_state_bound(std::size_t classes, std::size_t max_len, std::uint64_t max_cap,
                      std::uint64_t max_warps, int& tight) {
  int checked = 0;
  for (std::size_t len = 1; len <= max_len; ++len) {
    std::size_t strings = 1;
    for (std::size_t i = 0; i < len; ++i) strings *= classes;
    for (std::size_t code = 0; code < strings; ++code) {
      std::vector<std::uint8_t> instr(len);
      std::size_t c = code;
      for (std::size_t i = 0; i < len; ++i, c /= classes) instr[i] = static_cast<std::uint8_t>(c % classes);
      std::size_t caps = 1;
      for (std::size_t u = 0; u < classes; ++u) caps *= max_cap;
      for (std::size_t cap_code = 0; cap_code < caps; ++cap_code) {
        MakespanInstance in;
        in.instr = instr;
        in.class_count = classes;
        std::vector<int> cap_int(classes);
        std::size_t cc = cap_code;
        for (std::size_t u = 0; u < classes; ++u, cc /= max_cap) {
          in.capacity[u] = 1 + cc % max_cap;
          cap_int[u] = static_cast<int>(in.capacity[u]);
        }
        StateOracle oracle(std::vector<int>(instr.begin(), instr.end()), cap_int);
        for (std::uint64_t w = 1; w <= max_warps; ++w) {
          in.warps = w;
          for_each_state(len, w, [&](const std::vector<std::uint16_t>& counts) {
            std::vector<int> pos;
            for (std::size_t k = 0; k < len; ++k) pos.insert(pos.end(), counts[k], static_cast<int>(k));
            const std::uint64_t v = oracle.value(pos);
            std::uint64_t b = 0;
            ASSERT_EQ(state_upper_bound(in, counts, b), Status::ok);
            EXPECT_GE(b, v) << "state bound below the exact value, classes " << classes
                            << " len " << len << " code " << code << " caps " << cap_code;
            tight += b == v ? 1 : 0;
            ++checked;
          });
        }
      }
    }
  }
  return checked;
}

TEST(MakespanSearch, StateBoundIsSafeOnEverySmallState) {
  // Bounds B1 and B2 at every state (not only roots) of every kernel over
  // {L, C} up to length 6 with capacities 1..3 and up to 4 warps, and over
  // three classes up to length 4 with capacities 1..2 and up to 3 warps.
  int tight = 0;
  EXPECT_GT(check_state_bound(2, 6, 3, 4, tight), 0);
  EXPECT_GT(check_state_bound(3, 4, 2, 3, tight), 0);
  EXPECT_GT(tight, 0);
}

TEST(MakespanSearch, ClosedFormIsTheStateBoundAtTheRoot) {
  // order_aware_makespan_bound evaluates the same formulas at the initial
  // state in closed form (any W); the two codes must agree.
  int checked = 0;
  for (int len = 1; len <= 6; ++len) {
    for (int bits = 0; bits < (1 << len); ++bits) {
      std::string k;
      for (int i = 0; i < len; ++i) k += (bits >> i & 1) ? 'C' : 'L';
      for (std::uint64_t cl = 1; cl <= 3; ++cl) {
        for (std::uint64_t cc = 1; cc <= 3; ++cc) {
          for (std::uint64_t w = 1; w <= 12; ++w) {
            const Problem p = make(k, cl, cc, w);
            TransformedShape shape;
            shape.class_count = 2;
            shape.capacity[0] = cl;
            shape.capacity[1] = cc;
            shape.repeat[0] = shape.repeat[1] = 1;
            for (const std::uint8_t c : p.instr) ++shape.count[c];
            shape.length = p.instr.size();
            std::uint64_t closed = 0;
            ASSERT_EQ(order_aware_makespan_bound(shape, p.instr, w, closed), Status::ok);
            std::vector<std::uint16_t> root(p.instr.size(), 0);
            root[0] = static_cast<std::uint16_t>(w);
            std::uint64_t at_root = 0;
            ASSERT_EQ(state_upper_bound(p.in, root, at_root), Status::ok);
            ASSERT_EQ(closed, at_root) << k << " " << cl << "/" << cc << " W=" << w;
            std::uint64_t plain = 0;
            ASSERT_EQ(safe_pessimistic_makespan(shape, w, plain), Status::ok);
            ASSERT_LE(closed, plain);
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_EQ(checked, 126 * 9 * 12);
}

TEST(MakespanSearch, BadInput) {
  Problem p = make("LC", 1, 1, 4);
  std::size_t bytes = 0;
  SearchOptions o;
  ASSERT_EQ(makespan_search_arena_bytes(p.in, o, bytes), Status::ok);
  std::vector<std::byte> arena(bytes);
  SearchResult r;
  EXPECT_EQ(search_worst_makespan(p.in, o, gsl::span<std::byte>(arena.data(), bytes - 1), r),
            Status::buffer_too_small);
  std::vector<std::uint32_t> small(3);
  EXPECT_EQ(search_worst_makespan(p.in, o, arena, r, small), Status::buffer_too_small);
  EXPECT_TRUE(r.exact);  // bounds are still delivered
  Problem zero = make("LC", 1, 1, 0);
  EXPECT_EQ(makespan_search_arena_bytes(zero.in, o, bytes), Status::zero_warps);
  Problem big = make("LC", 1, 1, 70000);
  EXPECT_EQ(makespan_search_arena_bytes(big.in, o, bytes), Status::kernel_too_long);
  Problem cap0 = make("LC", 0, 1, 2);
  EXPECT_EQ(makespan_search_arena_bytes(cap0.in, o, bytes), Status::invalid_argument);
  Problem bad_class = make("LC", 1, 1, 2);
  bad_class.instr[1] = 5;
  EXPECT_EQ(makespan_search_arena_bytes(bad_class.in, o, bytes), Status::invalid_argument);
  Problem empty = make("", 1, 1, 2);
  EXPECT_EQ(makespan_search_arena_bytes(empty.in, o, bytes), Status::invalid_argument);
}

// A bad instance or state is a status, never a bound of 0 that a caller
// could take for a real one.
TEST(MakespanSearch, StateBoundReportsBadInput) {
  const Problem p = make("LC", 1, 1, 4);
  const std::uint64_t untouched = 12345;
  std::uint64_t b = untouched;
  const std::vector<std::uint16_t> state{2, 1};
  ASSERT_EQ(state_upper_bound(p.in, state, b), Status::ok);
  EXPECT_GT(b, 0u);
  b = untouched;
  EXPECT_EQ(state_upper_bound(make("LC", 1, 1, 0).in, state, b), Status::zero_warps);
  EXPECT_EQ(state_upper_bound(make("LC", 0, 1, 4).in, state, b), Status::invalid_argument);
  EXPECT_EQ(state_upper_bound(make("", 1, 1, 4).in, {}, b), Status::invalid_argument);
  EXPECT_EQ(state_upper_bound(p.in, std::vector<std::uint16_t>{2}, b), Status::invalid_argument);
  EXPECT_EQ(state_upper_bound(p.in, std::vector<std::uint16_t>{2, 1, 0}, b),
            Status::invalid_argument);
  EXPECT_EQ(state_upper_bound(p.in, std::vector<std::uint16_t>{4, 1}, b),
            Status::invalid_argument);  // five warps of four
  EXPECT_EQ(b, untouched);
  ASSERT_EQ(state_upper_bound(p.in, std::vector<std::uint16_t>{0, 0}, b), Status::ok);
  EXPECT_EQ(b, 0u);  // every warp finished
}

}  // namespace
}  // namespace gpuwcet
