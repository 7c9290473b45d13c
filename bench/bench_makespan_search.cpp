// Exact worst-case makespan search at the paper's experiment sizes
// (docs/makespan-search.md, "Benchmark"). Google Benchmark; not a test.
//   build/search/bench/bench_makespan_search [--benchmark_filter=...]
// (configure with -DGPUWCET_BUILD_BENCHMARKS=ON).
// Each run reports the certified bounds (lower = a real schedule, upper =
// safe), the node count and the arena size as counters; every run with the
// order-aware bounds (B2:1, i.e. min(B1, B2) with rule N) has its reference
// with plain B1 alone (B2:0) in the same process.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpuwcet/makespan_search.hpp"

namespace {

struct Case {
  const char* kernel;  // over L (class 0) and C (class 1), already transformed
  std::uint64_t cap_l;
  std::uint64_t cap_c;
  std::uint64_t warps;
  std::uint64_t max_nodes;     // 0: no budget
  std::uint64_t memo_entries;  // sizes the arena
  bool order_bounds;           // false: B1 alone, the reference
};

void run(benchmark::State& state, const Case& c) {
  std::vector<std::uint8_t> instr;
  for (const char* k = c.kernel; *k != '\0'; ++k) instr.push_back(*k == 'L' ? 0 : 1);
  gpuwcet::MakespanInstance in;
  in.instr = instr;
  in.class_count = 2;
  in.capacity[0] = c.cap_l;
  in.capacity[1] = c.cap_c;
  in.warps = c.warps;
  gpuwcet::SearchOptions options;
  options.max_nodes = c.max_nodes;
  options.memo_entries = c.memo_entries;
  options.order_bounds = c.order_bounds;
  std::size_t bytes = 0;
  if (gpuwcet::makespan_search_arena_bytes(in, options, bytes) != gpuwcet::Status::ok) {
    state.SkipWithError("arena size");
    return;
  }
  std::vector<std::byte> arena(bytes);
  gpuwcet::SearchResult r;
  for (auto _ : state) {
    const gpuwcet::Status st = gpuwcet::search_worst_makespan(in, options, arena, r);
    if (!gpuwcet::has_result(st)) state.SkipWithError("search failed");
  }
  state.counters["lower"] = static_cast<double>(r.lower_bound);
  state.counters["upper"] = static_cast<double>(r.upper_bound);
  state.counters["exact"] = r.exact ? 1 : 0;
  state.counters["nodes"] = static_cast<double>(r.nodes);
  state.counters["arena_MiB"] = static_cast<double>(bytes) / (1 << 20);
}

constexpr std::uint64_t kBigMemo = std::uint64_t{1} << 22;  // 80 MiB at length 5
constexpr std::uint64_t kSmallMemo = std::uint64_t{1} << 16;  // the default

// Growth with W on the Fig. 6 string, order-aware bounds against B1 alone.
void BM_Llcll(benchmark::State& state) {
  run(state, {"LLCLL", 1, 1, static_cast<std::uint64_t>(state.range(0)), 0, kBigMemo,
              state.range(1) != 0});
}
BENCHMARK(BM_Llcll)
    ->ArgNames({"W", "B2"})
    ->ArgsProduct({{10, 20, 40, 80}, {1, 0}})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// Fig. 6 size: LLCLL, sigma 1/1, W = 600. Order-aware: no budget, default
// memo. Reference (B1 alone): 4M-node budget, large memo.
void BM_Fig6_Llcll_W600(benchmark::State& state) {
  const bool b2 = state.range(0) != 0;
  run(state, {"LLCLL", 1, 1, 600, b2 ? 0u : 4'000'000u, b2 ? kSmallMemo : kBigMemo, b2});
}
BENCHMARK(BM_Fig6_Llcll_W600)->ArgName("B2")->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->Iterations(1);

// Fig. 7 size: LCLCL with sigma_L = 1/2 (L = 16, S = 32), sigma_C = 1,
// transformed to LLCLLCLL with capacities 1/1, W = 420.
void BM_Fig7_Lclcl_W420(benchmark::State& state) {
  const bool b2 = state.range(0) != 0;
  run(state, {"LLCLLCLL", 1, 1, 420, b2 ? 0u : 4'000'000u, b2 ? kSmallMemo : kBigMemo, b2});
}
BENCHMARK(BM_Fig7_Lclcl_W420)->ArgName("B2")->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->Iterations(1);

// LCLCL, sigma 1/1: B2 = 3W + 2 at the root.
void BM_Lclcl(benchmark::State& state) {
  run(state, {"LCLCL", 1, 1, static_cast<std::uint64_t>(state.range(0)), 0, kBigMemo,
              state.range(1) != 0});
}
BENCHMARK(BM_Lclcl)
    ->ArgNames({"W", "B2"})
    ->ArgsProduct({{40, 80}, {1, 0}})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// Other strings: LLC 1/1 and LCLCL 2/2 (rule N tightens the root), CLLCC
// 1/1 and LLCLL 2/1 (no order-aware gain at the root).
void BM_Other(benchmark::State& state) {
  const bool b2 = state.range(1) != 0;
  const Case cases[] = {{"LLC", 1, 1, 40, 0, kBigMemo, b2},
                        {"LCLCL", 2, 2, 40, 0, kBigMemo, b2},
                        {"CLLCC", 1, 1, 40, 0, kBigMemo, b2},
                        {"LLCLL", 2, 1, 40, 0, kBigMemo, b2}};
  run(state, cases[state.range(0)]);
}
BENCHMARK(BM_Other)
    ->ArgNames({"case", "B2"})
    ->ArgsProduct({{0, 1, 2, 3}, {1, 0}})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
