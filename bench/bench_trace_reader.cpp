// Cost of reading and profiling a large trace (docs/multiphase.md, "Costs"):
// a generated native trace of 10 million instructions (one warp) on disk.
// - BM_ReadTrace: read_trace (parse, classify, registers) of the whole file;
// - BM_ReadAndProfile: the same, then Algorithm 1 on the warp;
// - BM_ReferenceLines: std::getline over the same file counting non-empty
//   lines, the I/O reference the reading rate is compared with (same run).
// items/s = instructions per second. Run: build/<dir>/bench/bench_trace_reader
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "gpuwcet/phase_profile.hpp"
#include "gpuwcet_tools/trace_input.hpp"

namespace {

constexpr std::size_t kInstructions = 10'000'000;

// Rodinia-like mix in the native format: address arithmetic, fp math, loads,
// stores, dependency chains over 32 registers.
const std::string& trace_path() {
  static const std::string path = [] {
    const std::string p =
        (std::filesystem::temp_directory_path() / "gpuwcet_bench_10M.trace").string();
    std::ofstream out(p);
    out << "kernel bench\nblock 0,0,0\nwarp 0\n";
    std::mt19937_64 rng(7);
    static const char* const kOps[] = {"int_add", "int_mad", "fp_mad", "fp_add", "load",
                                       "store",   "alu",     "fp_mul", "int_add", "alu"};
    for (std::size_t i = 0; i < kInstructions; ++i) {
      const char* op = kOps[rng() % 10];
      const unsigned d = static_cast<unsigned>(rng() % 32);
      const unsigned a = static_cast<unsigned>(rng() % 32);
      const unsigned b = static_cast<unsigned>(rng() % 32);
      if (op[0] == 's') {
        out << op << " , r" << a << " r" << b << '\n';
      } else {
        out << op << " r" << d << " , r" << a << " r" << b << '\n';
      }
    }
    out << "exit\n";
    return p;
  }();
  return path;
}

const gpuwcet::tools::HardwareConfig& hardware() {
  static const gpuwcet::tools::HardwareConfig hw = gpuwcet::tools::hardware_preset("orin-sm", 200);
  return hw;
}

void BM_ReferenceLines(benchmark::State& state) {
  const std::string& p = trace_path();
  for (auto _ : state) {
    std::ifstream in(p);
    std::string line;
    std::size_t n = 0;
    while (std::getline(in, line)) n += line.empty() ? 0 : 1;
    benchmark::DoNotOptimize(n);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kInstructions));
}

void BM_ReadTrace(benchmark::State& state) {
  const std::string& p = trace_path();
  for (auto _ : state) {
    auto t = gpuwcet::tools::read_trace(p, gpuwcet::tools::TraceFormat::native, hardware());
    benchmark::DoNotOptimize(t.blocks.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kInstructions));
}

void BM_ReadAndProfile(benchmark::State& state) {
  const std::string& p = trace_path();
  for (auto _ : state) {
    auto t = gpuwcet::tools::read_trace(p, gpuwcet::tools::TraceFormat::native, hardware());
    const auto& code = t.blocks[0].warps[0].code;
    std::vector<std::byte> arena(gpuwcet::profile_arena_bytes(t.register_count));
    std::vector<gpuwcet::SectionSummary> sections(1);
    gpuwcet::ProfileResult r;
    if (gpuwcet::profile_warp(hardware().hw, code, t.register_count, arena, {}, sections, r) !=
        gpuwcet::Status::ok) {
      state.SkipWithError("profile_warp failed");
    }
    benchmark::DoNotOptimize(r.total_cycles);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kInstructions));
}

BENCHMARK(BM_ReferenceLines)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK(BM_ReadTrace)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK(BM_ReadAndProfile)->Unit(benchmark::kMillisecond)->Iterations(2);

}  // namespace

BENCHMARK_MAIN();
