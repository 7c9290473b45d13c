// Both GLPK formulations of the worst-case makespan against the independent
// brute-force enumerator, schedule replay, the horizon defect of the
// paper's estimate, the time limit and bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "brute_force_makespan.hpp"
#include "gpuwcet/makespan_bounds.hpp"
#include "gpuwcet_glpk/makespan_ilp.hpp"

namespace gpuwcet::glpk {
namespace {

struct Case {
  std::string kernel;  // over {L, C}; L is class 0, C class 1
  std::vector<std::uint8_t> instr;
  std::vector<std::uint64_t> capacity;
  std::uint64_t warps;
};

Case make(const std::string& kernel, std::uint64_t cl, std::uint64_t cc, std::uint64_t warps) {
  Case c{kernel, {}, {cl, cc}, warps};
  for (char ch : kernel) c.instr.push_back(ch == 'L' ? 0 : 1);
  return c;
}

std::uint64_t oracle(const Case& c) {
  std::vector<int> instr(c.instr.begin(), c.instr.end());
  std::vector<int> cap(c.capacity.begin(), c.capacity.end());
  return gpuwcet::testing::BruteForceMakespan(instr, cap).worst(static_cast<int>(c.warps));
}

TransformedShape shape_of(const Case& c) {
  TransformedShape s;
  s.class_count = c.capacity.size();
  for (std::size_t u = 0; u < c.capacity.size(); ++u) {
    s.capacity[u] = c.capacity[u];
    s.repeat[u] = 1;
  }
  for (auto i : c.instr) ++s.count[i];
  s.length = c.instr.size();
  return s;
}

// Independent replay of a [cycle][position] schedule: every cycle serves,
// per class, exactly min(capacity, warps waiting on it), takes no more
// warps from a position than stand there (a warp advances once per cycle),
// and the last cycle finishes the last warp.
::testing::AssertionResult replays(const Case& c,
                                   const std::vector<std::vector<std::uint64_t>>& sched,
                                   std::uint64_t cycles) {
  if (sched.size() != cycles) {
    return ::testing::AssertionFailure() << sched.size() << " cycles, expected " << cycles;
  }
  const std::size_t len = c.instr.size();
  std::vector<std::uint64_t> at(len + 1, 0);
  at[0] = c.warps;
  for (std::size_t t = 0; t < sched.size(); ++t) {
    if (sched[t].size() != len) return ::testing::AssertionFailure() << "row " << t << " size";
    if (at[len] == c.warps) return ::testing::AssertionFailure() << "finished before " << t;
    std::vector<std::uint64_t> waiting(c.capacity.size(), 0);
    std::vector<std::uint64_t> served(c.capacity.size(), 0);
    for (std::size_t k = 0; k < len; ++k) {
      if (sched[t][k] > at[k]) {
        return ::testing::AssertionFailure() << "cycle " << t << " takes absent warps";
      }
      waiting[c.instr[k]] += at[k];
      served[c.instr[k]] += sched[t][k];
    }
    for (std::size_t u = 0; u < c.capacity.size(); ++u) {
      if (served[u] != std::min(c.capacity[u], waiting[u])) {
        return ::testing::AssertionFailure() << "cycle " << t << " class " << u << " serves "
                                             << served[u] << " of " << waiting[u];
      }
    }
    std::vector<std::uint64_t> next = at;
    for (std::size_t k = 0; k < len; ++k) {
      next[k] -= sched[t][k];
      next[k + 1] += sched[t][k];
    }
    at = next;
  }
  if (at[len] != c.warps) return ::testing::AssertionFailure() << "warps left unfinished";
  return ::testing::AssertionSuccess();
}

IlpResult run(const Case& c, IlpFormulation f, double seconds, std::uint64_t horizon = 0) {
  IlpOptions o;
  o.formulation = f;
  o.time_limit_seconds = seconds;
  o.horizon = horizon;
  return solve_makespan_ilp(c.instr, c.capacity, c.warps, o);
}

const char* name(IlpFormulation f) { return f == IlpFormulation::paper ? "paper" : "symmetric"; }

// Every string over {L, C} of length 1..4, capacities 1..3, W = 1..4
// (W = 1..3 for the paper's per-warp model, which is much slower), each
// against the enumerator. Instances that hit the per-instance limit (2 s
// symmetric, 0.5 s paper: the whole test stays near 20 s) are skipped,
// counted and printed; they must still bracket the answer.
TEST(MakespanIlp, MatchesBruteForceOnEverySmallInstance) {
  for (IlpFormulation f : {IlpFormulation::symmetric, IlpFormulation::paper}) {
    const std::uint64_t max_warps = f == IlpFormulation::paper ? 3 : 4;
    const double per_instance_limit = f == IlpFormulation::paper ? 0.5 : 2.0;
    int solved = 0;
    int timed_out = 0;
    double seconds = 0;
    for (int len = 1; len <= 4; ++len) {
      for (int bits = 0; bits < (1 << len); ++bits) {
        std::string kernel;
        for (int i = 0; i < len; ++i) kernel += (bits >> i) & 1 ? 'C' : 'L';
        for (std::uint64_t cl = 1; cl <= 3; ++cl) {
          for (std::uint64_t cc = 1; cc <= 3; ++cc) {
            for (std::uint64_t w = 1; w <= max_warps; ++w) {
              const Case c = make(kernel, cl, cc, w);
              const std::uint64_t want = oracle(c);
              const IlpResult r = run(c, f, per_instance_limit);
              seconds += r.seconds;
              SCOPED_TRACE(std::string(name(f)) + " " + kernel + " L" + std::to_string(cl) +
                           " C" + std::to_string(cc) + " W" + std::to_string(w));
              ASSERT_TRUE(has_result(r.status)) << status_message(r.status);
              EXPECT_LE(r.lower_bound, want);
              EXPECT_GE(r.upper_bound, want);
              if (r.status == Status::budget_exhausted) {
                ++timed_out;
                continue;
              }
              ++solved;
              EXPECT_EQ(r.lower_bound, want);
              EXPECT_EQ(r.upper_bound, want);
              EXPECT_TRUE(replays(c, r.advanced_per_cycle, r.lower_bound));
            }
          }
        }
      }
    }
    std::printf("%s: %d solved, %d hit the time limit, %.1f s in GLPK\n", name(f), solved,
                timed_out, seconds);
    EXPECT_GT(solved, 0);
  }
}

// The paper bounds the horizon by its estimate (Eqs. 5-7). For `LL`,
// capacity_L = 2, W = 4 that is 4 cycles; the model is then still feasible
// (a 4-cycle schedule exists) and reports 4, while the safe horizon finds
// the 5-cycle work-conserving schedule.
TEST(MakespanIlp, PaperHorizonUnderReportsSafeHorizonDoesNot) {
  const Case c = make("LL", 2, 1, 4);
  std::uint64_t paper = 0;
  ASSERT_EQ(paper_pessimistic_estimate(shape_of(c), c.warps, paper), Status::ok);
  ASSERT_EQ(paper, 4u);
  ASSERT_EQ(oracle(c), 5u);
  for (IlpFormulation f : {IlpFormulation::symmetric, IlpFormulation::paper}) {
    SCOPED_TRACE(name(f));
    const IlpResult cut = run(c, f, 20.0, paper);
    ASSERT_EQ(cut.status, Status::ok);
    EXPECT_EQ(cut.lower_bound, 4u);
    EXPECT_EQ(cut.upper_bound, 4u);
    const IlpResult safe = run(c, f, 20.0);
    ASSERT_EQ(safe.status, Status::ok);
    EXPECT_EQ(safe.lower_bound, 5u);
    EXPECT_EQ(safe.upper_bound, 5u);
    EXPECT_TRUE(replays(c, safe.advanced_per_cycle, 5));
  }
}

// A horizon shorter than every schedule leaves no solution.
TEST(MakespanIlp, HorizonBelowEveryScheduleFails) {
  const Case c = make("LL", 2, 1, 4);
  const IlpResult r = run(c, IlpFormulation::symmetric, 20.0, 3);
  EXPECT_EQ(r.status, Status::solver_failed);
}

// A horizon longer than the safe bound changes nothing but the model size,
// and the upper bound stays capped by the safe bound.
TEST(MakespanIlp, LongerHorizonGivesTheSameAnswer) {
  const Case c = make("LCL", 1, 2, 3);
  const IlpResult r = run(c, IlpFormulation::symmetric, 20.0, 40);
  ASSERT_EQ(r.status, Status::ok);
  EXPECT_EQ(r.lower_bound, oracle(c));
  EXPECT_TRUE(replays(c, r.advanced_per_cycle, r.lower_bound));
}

// Out of time: still a real schedule (when one was found) below the true
// worst case, and a proven bound above it but not above the safe bound.
TEST(MakespanIlp, TimeLimitKeepsValidBounds) {
  const Case c = make("LLCLL", 1, 1, 4);
  const std::uint64_t want = oracle(c);
  std::uint64_t safe = 0;
  ASSERT_EQ(safe_pessimistic_makespan(shape_of(c), c.warps, safe), Status::ok);
  const IlpResult r = run(c, IlpFormulation::paper, 0.3);
  ASSERT_EQ(r.status, Status::budget_exhausted);
  EXPECT_LE(r.lower_bound, want);
  EXPECT_GE(r.upper_bound, want);
  EXPECT_LE(r.upper_bound, safe);
  if (!r.advanced_per_cycle.empty()) {
    EXPECT_TRUE(replays(c, r.advanced_per_cycle, r.lower_bound));
  }
}

TEST(MakespanIlp, RejectsBadInput) {
  const std::vector<std::uint8_t> instr{0, 1};
  const std::vector<std::uint64_t> cap{1, 1};
  IlpOptions o;
  EXPECT_EQ(solve_makespan_ilp({}, cap, 2, o).status, Status::invalid_argument);
  EXPECT_EQ(solve_makespan_ilp(instr, std::vector<std::uint64_t>{1}, 2, o).status,
            Status::invalid_argument);
  EXPECT_EQ(solve_makespan_ilp(instr, std::vector<std::uint64_t>{1, 0}, 2, o).status,
            Status::invalid_argument);
  EXPECT_EQ(solve_makespan_ilp(instr, cap, 0, o).status, Status::zero_warps);
  IlpOptions no_time;
  no_time.time_limit_seconds = 0;
  EXPECT_EQ(solve_makespan_ilp(instr, cap, 2, no_time).status, Status::invalid_argument);
  // 64 positions, 100000 warps: far beyond what a model may hold.
  const std::vector<std::uint8_t> long_instr(64, 0);
  IlpOptions paper;
  paper.formulation = IlpFormulation::paper;
  EXPECT_EQ(solve_makespan_ilp(long_instr, cap, 100000, paper).status, Status::kernel_too_long);
  EXPECT_EQ(solve_makespan_ilp(long_instr, cap, 100000, o).status, Status::kernel_too_long);
}

}  // namespace
}  // namespace gpuwcet::glpk
