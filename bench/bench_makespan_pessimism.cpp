// Pessimism of the cheap bounds against the exact worst case on the test
// instances: the table of docs/makespan-search.md ("Cheap bounds").
// A plain program, not a benchmark loop:
//   build-search/bench/bench_makespan_pessimism
#include <cstdio>
#include <cstdint>
#include <string>
#include <vector>

#include "gpuwcet/makespan_approx.hpp"
#include "gpuwcet/makespan_bounds.hpp"
#include "gpuwcet/makespan_search.hpp"

namespace {

struct Row {
  const char* kernel;  // transformed, over L (class 0) and C (class 1)
  std::uint64_t cap_l;
  std::uint64_t cap_c;
};

gpuwcet::TransformedShape shape_of(const std::vector<std::uint8_t>& instr, const Row& row) {
  gpuwcet::TransformedShape s;
  s.class_count = 2;
  s.capacity[0] = row.cap_l;
  s.capacity[1] = row.cap_c;
  s.repeat[0] = s.repeat[1] = 1;
  for (const std::uint8_t c : instr) ++s.count[c];
  s.length = instr.size();
  return s;
}

}  // namespace

int main() {
  const Row rows[] = {{"LLC", 1, 1},   {"LCL", 1, 1},      {"LLCLL", 1, 1}, {"LCLCL", 1, 1},
                      {"CLLCC", 1, 1}, {"LLCLLCLL", 1, 1}, {"LL", 2, 1},    {"LLCLL", 2, 1},
                      {"LCLCL", 2, 2}};
  const std::uint64_t warps[] = {2, 4, 8, 16};
  std::printf("| kernel | cap L/C | W | exact | B1 (safe) | B1/exact | order-aware (safe) | "
              "o-a/exact | approx x=2 | approx/exact |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  double worst_ratio = 0;
  double sum_ratio = 0;
  double worst_idle = 0;
  double sum_idle = 0;
  int n = 0;
  int approx_unsafe = 0;
  for (const Row& row : rows) {
    std::vector<std::uint8_t> instr;
    for (const char* c = row.kernel; *c != '\0'; ++c) instr.push_back(*c == 'L' ? 0 : 1);
    for (const std::uint64_t w : warps) {
      gpuwcet::MakespanInstance in;
      in.instr = instr;
      in.class_count = 2;
      in.capacity[0] = row.cap_l;
      in.capacity[1] = row.cap_c;
      in.warps = w;
      gpuwcet::SearchOptions o;
      o.memo_entries = 1u << 20;
      std::size_t bytes = 0;
      std::size_t approx_bytes = 0;
      if (gpuwcet::makespan_search_arena_bytes(in, o, bytes) != gpuwcet::Status::ok ||
          gpuwcet::makespan_approx_arena_bytes(in, 2, o, approx_bytes) != gpuwcet::Status::ok) {
        return 1;
      }
      std::vector<std::byte> arena(bytes > approx_bytes ? bytes : approx_bytes);
      gpuwcet::SearchResult exact;
      gpuwcet::ApproxResult approx;
      std::uint64_t safe = 0;
      std::uint64_t idle = 0;
      if (gpuwcet::order_aware_makespan_bound(shape_of(instr, row), instr, w, idle) !=
              gpuwcet::Status::ok ||
          gpuwcet::search_worst_makespan(in, o, arena, exact) != gpuwcet::Status::ok ||
          gpuwcet::approximate_makespan(in, 2, o, arena, approx) != gpuwcet::Status::ok ||
          gpuwcet::safe_pessimistic_makespan(shape_of(instr, row), w, safe) !=
              gpuwcet::Status::ok) {
        return 1;
      }
      const double v = static_cast<double>(exact.upper_bound);
      const double ratio = static_cast<double>(safe) / v;
      worst_ratio = ratio > worst_ratio ? ratio : worst_ratio;
      sum_ratio += ratio;
      const double idle_ratio = static_cast<double>(idle) / v;
      worst_idle = idle_ratio > worst_idle ? idle_ratio : worst_idle;
      sum_idle += idle_ratio;
      ++n;
      if (approx.estimate < exact.upper_bound) ++approx_unsafe;
      std::printf("| %s | %llu/%llu | %llu | %llu | %llu | %.3f | %llu | %.3f | %llu | %.3f%s |\n",
                  row.kernel, static_cast<unsigned long long>(row.cap_l),
                  static_cast<unsigned long long>(row.cap_c), static_cast<unsigned long long>(w),
                  static_cast<unsigned long long>(exact.upper_bound),
                  static_cast<unsigned long long>(safe), ratio,
                  static_cast<unsigned long long>(idle), idle_ratio,
                  static_cast<unsigned long long>(approx.estimate),
                  static_cast<double>(approx.estimate) / v,
                  approx.estimate < exact.upper_bound ? " (below: unsafe)" : "");
    }
  }
  std::printf("\nB1/exact: mean %.3f, worst %.3f; order-aware/exact: mean %.3f, worst %.3f; over "
              "%d instances; approx x=2 below the exact value on %d of them\n",
              sum_ratio / n, worst_ratio, sum_idle / n, worst_idle, n, approx_unsafe);
  return 0;
}
