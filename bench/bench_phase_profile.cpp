// Cost of the multi-phase analysis (docs/multiphase.md, "Costs"):
// - BM_ProfileWarp: Algorithm 1 over an in-memory sequence of 10 million
//   generated instructions (rtx3070, memory latency 200, its 8 collector
//   units), phases counted, not stored; items/s = instructions per second.
// - BM_ProfileWarpInIssueOrder: the same without collector units (the
//   load/store unit served in issue order).
// - BM_ProfileShortWarps: the same analysis over 16,384 warps of 64
//   generated instructions each, profiled one after another with one arena:
//   traces of many short warps (vectoradd: 1,568 warps of 17), where what a warp
//   sets up, not its instructions, may dominate.
// - BM_ReferenceScan: a plain loop over the same instructions summing their
//   fields, the reference the profiling rate is compared with (same run).
// - BM_BlockQuery/W: block_bound from W warps' section summaries (1 section).
// Run: build/<dir>/bench/bench_phase_profile
#include <benchmark/benchmark.h>

#include <cstddef>
#include <random>
#include <vector>

#include "gpuwcet/block_bound.hpp"
#include "gpuwcet/hardware_presets.hpp"
#include "gpuwcet/phase_profile.hpp"
#include "gpuwcet_tools/block_generator.hpp"

namespace {

using namespace gpuwcet;

constexpr std::size_t kInstructions = 10'000'000;
constexpr std::size_t kRegisters = 32;

const HardwareDescription& hardware() {
  static const HardwareDescription hw = [] {
    HardwareDescription h;
    if (make_hardware_preset("rtx3070", 200, h) != Status::ok) std::abort();
    return h;
  }();
  return hw;
}

// One long warp: generated in chunks (the generator ends each with exit,
// which is dropped) so that the sequence is Rodinia-like throughout.
const std::vector<Instruction>& instructions() {
  static const std::vector<Instruction> seq = [] {
    std::vector<Instruction> out;
    out.reserve(kInstructions + 1);
    std::mt19937_64 rng(42);
    tools::BlockGeneratorOptions o;
    o.warps = 1;
    o.instructions = 4096;
    o.registers = kRegisters;
    while (out.size() < kInstructions) {
      auto chunk = tools::generate_block(hardware(), o, rng)[0];
      chunk.pop_back();  // exit
      for (const Instruction& i : chunk) {
        if (out.size() < kInstructions) out.push_back(i);
      }
    }
    Instruction exit;
    exit.kind = OpKind::exit;
    out.push_back(exit);
    return out;
  }();
  return seq;
}

void profile(benchmark::State& state, const HardwareDescription& hw) {
  const auto& seq = instructions();
  std::vector<std::byte> arena(profile_arena_bytes(kRegisters));
  std::vector<SectionSummary> sections(1);
  for (auto _ : state) {
    ProfileResult r;
    if (profile_warp(hw, seq, kRegisters, arena, {}, sections, r) != Status::ok) {
      state.SkipWithError("profile_warp failed");
      break;
    }
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(kInstructions));
}
void BM_ProfileWarp(benchmark::State& state) { profile(state, hardware()); }
BENCHMARK(BM_ProfileWarp)->Unit(benchmark::kMillisecond);

void BM_ProfileWarpInIssueOrder(benchmark::State& state) {
  HardwareDescription hw = hardware();
  hw.collector_units = 0;
  profile(state, hw);
}
BENCHMARK(BM_ProfileWarpInIssueOrder)->Unit(benchmark::kMillisecond);

constexpr std::size_t kShortWarps = 16'384;
constexpr std::size_t kShortWarpLength = 64;  // generated instructions, plus exit

const std::vector<std::vector<Instruction>>& short_warps() {
  static const std::vector<std::vector<Instruction>> warps = [] {
    std::vector<std::vector<Instruction>> out;
    out.reserve(kShortWarps);
    std::mt19937_64 rng(42);
    tools::BlockGeneratorOptions o;
    o.warps = 1;
    o.instructions = kShortWarpLength;
    o.registers = kRegisters;
    while (out.size() < kShortWarps) out.push_back(tools::generate_block(hardware(), o, rng)[0]);
    return out;
  }();
  return warps;
}

void BM_ProfileShortWarps(benchmark::State& state) {
  const auto& warps = short_warps();
  std::vector<std::byte> arena(profile_arena_bytes(kRegisters));
  std::vector<SectionSummary> sections(1);
  std::int64_t instructions = 0;
  for (auto _ : state) {
    for (const auto& seq : warps) {
      ProfileResult r;
      if (profile_warp(hardware(), seq, kRegisters, arena, {}, sections, r) != Status::ok) {
        state.SkipWithError("profile_warp failed");
        return;
      }
      benchmark::DoNotOptimize(r);
      instructions += static_cast<std::int64_t>(seq.size());
    }
  }
  state.SetItemsProcessed(instructions);
}
BENCHMARK(BM_ProfileShortWarps)->Unit(benchmark::kMillisecond);

// Reads every field profile_warp reads (unit, operand counts and registers).
void BM_ReferenceScan(benchmark::State& state) {
  const auto& seq = instructions();
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (const Instruction& i : seq) {
      sum += i.unit + i.dst_count + i.src_count;
      for (std::size_t k = 0; k < i.src_count; ++k) sum += i.src[k];
      for (std::size_t k = 0; k < i.dst_count; ++k) sum += i.dst[k];
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(kInstructions));
}
BENCHMARK(BM_ReferenceScan)->Unit(benchmark::kMillisecond);

void BM_BlockQuery(benchmark::State& state) {
  const auto warps = static_cast<std::size_t>(state.range(0));
  // Summaries of real profiles: one generated 64-instruction warp per slot.
  std::mt19937_64 rng(7);
  tools::BlockGeneratorOptions o;
  o.warps = warps;
  o.instructions = 64;
  o.registers = kRegisters;
  o.same_code = false;
  const auto block = tools::generate_block(hardware(), o, rng);
  std::vector<SectionSummary> summaries(warps);
  std::vector<std::byte> arena(profile_arena_bytes(kRegisters));
  for (std::size_t w = 0; w < warps; ++w) {
    ProfileResult r;
    if (profile_warp(hardware(), block[w], kRegisters, arena, {},
                     gsl::span<SectionSummary>(&summaries[w], 1), r) != Status::ok) {
      state.SkipWithError("profile_warp failed");
      return;
    }
  }
  for (auto _ : state) {
    BlockBound b;
    benchmark::DoNotOptimize(block_bound(summaries, warps, 1, b));
    benchmark::DoNotOptimize(b);
  }
}
BENCHMARK(BM_BlockQuery)->Arg(1)->Arg(2)->Arg(4)->Arg(8)->Arg(16)->Arg(32);

}  // namespace

BENCHMARK_MAIN();
