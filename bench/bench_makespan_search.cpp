// Exact worst-case makespan search at the paper's experiment sizes
// (docs/makespan-search.md, "Benchmark"). Google Benchmark; not a test.
//   build-search/bench/bench_makespan_search [--benchmark_filter=...]
// Each run reports the certified bounds (lower = a real schedule, upper =
// safe), the node count and the arena size as counters.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpuwcet/makespan_search.hpp"

namespace {

// kernel over L (class 0) and C (class 1), already transformed.
void run(benchmark::State& state, const char* kernel, std::uint64_t warps,
         std::uint64_t max_nodes) {
  std::vector<std::uint8_t> instr;
  for (const char* c = kernel; *c != '\0'; ++c) instr.push_back(*c == 'L' ? 0 : 1);
  gpuwcet::MakespanInstance in;
  in.instr = instr;
  in.class_count = 2;
  in.capacity[0] = 1;  // after the transformation: sigma 1 (or 1/2 repeated) serves 1 per cycle
  in.capacity[1] = 1;
  in.warps = warps;
  gpuwcet::SearchOptions options;
  options.max_nodes = max_nodes;
  options.memo_entries = std::uint64_t{1} << 22;
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

// Growth of the exact search with W on the Fig. 6 string.
void BM_Llcll(benchmark::State& state) {
  run(state, "LLCLL", static_cast<std::uint64_t>(state.range(0)), 0);
}
BENCHMARK(BM_Llcll)->Arg(10)->Arg(20)->Arg(40)->Unit(benchmark::kMillisecond)->Iterations(1);

// Fig. 6 size: LLCLL, sigma 1/1, W = 600, under a node budget sized for
// about a minute on the reference machine.
void BM_Fig6_Llcll_W600(benchmark::State& state) {
  run(state, "LLCLL", 600, static_cast<std::uint64_t>(state.range(0)));
}
BENCHMARK(BM_Fig6_Llcll_W600)->Arg(40'000'000)->Unit(benchmark::kSecond)->Iterations(1);

// Fig. 7 size: LCLCL with sigma_L = 1/2 (L = 16, S = 32), sigma_C = 1,
// transformed to LLCLLCLL with capacities 1/1, W = 420.
void BM_Fig7_Lclcl_W420(benchmark::State& state) {
  run(state, "LLCLLCLL", 420, static_cast<std::uint64_t>(state.range(0)));
}
BENCHMARK(BM_Fig7_Lclcl_W420)->Arg(40'000'000)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
