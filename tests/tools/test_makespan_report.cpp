// The makespan command's schedule output when the search's bounds are exact
// but its node budget ran out before a worst schedule was rebuilt
// (Status::schedule_unavailable): it says so instead of drawing an empty one.
// And the memo the command gives a search: sized by the states it can meet.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "gpuwcet/makespan_search.hpp"
#include "gpuwcet_tools/makespan_report.hpp"

namespace {

using gpuwcet::tools::MakespanReport;
using gpuwcet::tools::ValidatedProblem;

TEST(MakespanReport, ScheduleNotRebuiltIsSaidSo) {
  MakespanReport r;
  r.schedule_available = false;
  const ValidatedProblem v{};
  const std::string text = gpuwcet::tools::gantt(v, r, 4);
  EXPECT_NE(text.find("not available"), std::string::npos) << text;
  const auto j = gpuwcet::tools::schedule_json(v, r, 4);
  EXPECT_FALSE(j.at("available").get<bool>());
  EXPECT_TRUE(j.at("cycles").is_null());
}

// Pascal's triangle, independent of the product formula.
std::uint64_t binomial(std::uint64_t n, std::uint64_t k) {
  std::vector<std::vector<std::uint64_t>> c(n + 1, std::vector<std::uint64_t>(n + 1, 0));
  for (std::uint64_t i = 0; i <= n; ++i) {
    c[i][0] = 1;
    for (std::uint64_t j = 1; j <= i; ++j) c[i][j] = c[i - 1][j - 1] + c[i - 1][j];
  }
  return c[n][k];
}

TEST(MakespanReport, StateCountIsTheBinomialUpToItsLimit) {
  using gpuwcet::tools::search_state_count;
  for (std::uint64_t w = 1; w <= 20; ++w) {
    for (std::uint64_t n = 1; n <= 20; ++n) {
      EXPECT_EQ(search_state_count(w, n, std::uint64_t{1} << 40), binomial(w + n, n)) << w << " " << n;
      EXPECT_EQ(search_state_count(w, n, 100), std::min<std::uint64_t>(binomial(w + n, n), 101));
    }
  }
  // The largest search: C(65,535 + 256, 256) is far past 64 bits.
  EXPECT_EQ(search_state_count(65535, 256, 1u << 21), (1u << 21) + 1);
  EXPECT_EQ(search_state_count(~std::uint64_t{0} / 2, 3, 10), 11u);
}

TEST(MakespanReport, SearchMemoIsTwiceWhatCanBeStored) {
  using gpuwcet::tools::kSearchMemoEntries;
  using gpuwcet::tools::search_memo_entries;
  EXPECT_EQ(search_memo_entries(0, 2, 2), 64u);  // LC, W = 2: 6 states
  EXPECT_EQ(search_memo_entries(0, 6, 10), 2 * binomial(16, 10));
  EXPECT_EQ(search_memo_entries(100, 6, 10), 200u);  // the budget is smaller
  EXPECT_EQ(search_memo_entries(0, 65535, 64), kSearchMemoEntries);
  EXPECT_EQ(search_memo_entries(1000, 65535, 64), 2000u);
  EXPECT_EQ(search_memo_entries(kSearchMemoEntries, 65535, 64), kSearchMemoEntries);
}

// The search never stores more states than the count (so a memo of twice
// that never fills), and answers as with a large memo: every string over
// {L, C} of length 1 to 5, capacities 1 to 2, W 1 to 6.
TEST(MakespanReport, SearchMemoHoldsEveryStateTheSearchStores) {
  using namespace gpuwcet;
  int runs = 0;
  for (std::size_t len = 1; len <= 5; ++len) {
    for (unsigned bits = 0; bits < (1u << len); ++bits) {
      std::vector<std::uint8_t> instr;
      for (std::size_t k = 0; k < len; ++k) instr.push_back(static_cast<std::uint8_t>((bits >> k) & 1u));
      for (std::uint64_t cap = 1; cap <= 2; ++cap) {
        for (std::uint64_t w = 1; w <= 6; ++w) {
          MakespanInstance in;
          in.instr = instr;
          in.class_count = 2;
          in.capacity[0] = cap;
          in.capacity[1] = 3 - cap;
          in.warps = w;
          SearchResult small;
          SearchResult large;
          for (SearchResult* r : {&small, &large}) {
            SearchOptions o;
            o.memo_entries = r == &small ? tools::search_memo_entries(0, w, len) : 1u << 16;
            std::size_t bytes = 0;
            ASSERT_EQ(makespan_search_arena_bytes(in, o, bytes), Status::ok);
            std::vector<std::byte> arena(bytes);
            ASSERT_EQ(search_worst_makespan(in, o, arena, *r, {}), Status::ok);
          }
          const std::uint64_t states = tools::search_state_count(w, len, 1u << 30);
          EXPECT_LE(small.memo_used, states) << bits << " " << len << " W=" << w;
          EXPECT_LE(large.memo_used, states) << bits << " " << len << " W=" << w;
          EXPECT_TRUE(small.exact);
          EXPECT_EQ(small.upper_bound, large.upper_bound);
          ++runs;
        }
      }
    }
  }
  EXPECT_EQ(runs, 62 * 2 * 6);
}

}  // namespace
