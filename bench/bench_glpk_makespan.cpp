// Seconds GLPK needs for the paper's per-warp ILP and the symmetric ILP of
// the exact worst-case makespan, against the core's branch and bound on the
// same instances in the same run, with the ratios (docs/makespan-ilp.md,
// "Benchmark"). The search is repeated until 0.2 s have passed and its mean
// time is reported, so that sub-millisecond times are resolved.
// A plain timed program, not part of the test suite:
//   build-glpk/bench/bench_glpk_makespan [time_limit_seconds=120] [--quick]
// --quick runs only the small instances (LLC W = 2..4, LLCLL W = 2..3).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#ifdef GPUWCET_HAVE_GLPK
#include "gpuwcet/makespan_search.hpp"
#include "gpuwcet_glpk/makespan_ilp.hpp"

namespace {

using gpuwcet::glpk::IlpFormulation;
using gpuwcet::glpk::IlpOptions;
using gpuwcet::glpk::IlpResult;

struct Instance {
  const char* kernel;  // transformed string over L (class 0) and C (class 1)
  std::uint64_t warps;
  bool quick;
};

std::string answer(const IlpResult& r) {
  if (r.status == gpuwcet::Status::ok) return std::to_string(r.lower_bound);
  if (r.status == gpuwcet::Status::budget_exhausted) {
    return "[" + std::to_string(r.lower_bound) + ", " + std::to_string(r.upper_bound) + "]";
  }
  return gpuwcet::status_message(r.status);
}

struct SearchRun {
  std::string answer;
  double seconds = 0;  // mean over the repetitions
};

// The core's branch-and-bound answer and its mean time.
SearchRun search(const std::vector<std::uint8_t>& instr, const std::vector<std::uint64_t>& capacity,
                 std::uint64_t warps) {
  gpuwcet::MakespanInstance in;
  in.instr = instr;
  in.class_count = capacity.size();
  for (std::size_t u = 0; u < capacity.size(); ++u) in.capacity[u] = capacity[u];
  in.warps = warps;
  gpuwcet::SearchOptions options;
  // A search visits at most C(W + I, I) count states (I = string length):
  // the memo is sized to hold them all (next power of two), as a caller
  // sizing its arena for this problem would; a larger memo would only
  // measure clearing it.
  std::uint64_t states = 1;
  for (std::uint64_t k = 1; k <= instr.size(); ++k) states = states * (warps + k) / k;
  std::uint64_t memo = 16;
  while (memo < states) memo *= 2;
  options.memo_entries = memo;
  std::size_t bytes = 0;
  if (gpuwcet::makespan_search_arena_bytes(in, options, bytes) != gpuwcet::Status::ok) return {"-", 0};
  std::vector<std::byte> arena(bytes);
  gpuwcet::SearchResult r;
  const auto start = std::chrono::steady_clock::now();
  double elapsed = 0;
  int runs = 0;
  do {
    if (gpuwcet::search_worst_makespan(in, options, arena, r) != gpuwcet::Status::ok) return {"-", 0};
    ++runs;
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  } while (elapsed < 0.2);
  return {std::to_string(r.upper_bound) + (r.exact ? "" : " (bound)"), elapsed / runs};
}

}  // namespace

int main(int argc, char** argv) {
  double limit = 120.0;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else {
      limit = std::atof(argv[i]);
    }
  }
  const std::vector<std::uint64_t> capacity{1, 1};  // capacities L = 1, C = 1
  // The small instances (LLC W = 2..4, LLCLL W = 2..3), then larger W
  // to show where each formulation stops scaling.
  const Instance instances[] = {{"LLC", 2, true},    {"LLC", 3, true},    {"LLC", 4, true},
                                {"LLCLL", 2, true},  {"LLCLL", 3, true},  {"LLC", 5, false},
                                {"LLC", 6, false},   {"LLC", 8, false},   {"LLCLL", 4, false},
                                {"LLCLL", 5, false}, {"LLCLL", 6, false}};
  std::printf("time limit %.0f s, capacities L = 1, C = 1\n\n", limit);
  std::printf("| instance | W | paper ILP s | paper answer | symmetric ILP s | symmetric answer "
              "| search s | search answer | paper / search | symmetric / search |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  // Smallest speed-up over the ILP solves that finish within 60 s (the goal).
  double min_ratio = 0;
  bool any = false;
  for (const Instance& in : instances) {
    if (quick && !in.quick) continue;
    std::vector<std::uint8_t> instr;
    for (const char* c = in.kernel; *c != '\0'; ++c) instr.push_back(*c == 'L' ? 0 : 1);
    IlpOptions options;
    options.time_limit_seconds = limit;
    options.formulation = IlpFormulation::paper;
    const IlpResult paper = gpuwcet::glpk::solve_makespan_ilp(instr, capacity, in.warps, options);
    options.formulation = IlpFormulation::symmetric;
    const IlpResult sym = gpuwcet::glpk::solve_makespan_ilp(instr, capacity, in.warps, options);
    const SearchRun sr = search(instr, capacity, in.warps);
    const double rp = paper.seconds / sr.seconds;
    const double rs = sym.seconds / sr.seconds;
    std::printf("| %s | %llu | %.2f | %s | %.2f | %s | %.6f | %s | %.0f | %.0f |\n", in.kernel,
                static_cast<unsigned long long>(in.warps), paper.seconds, answer(paper).c_str(),
                sym.seconds, answer(sym).c_str(), sr.seconds, sr.answer.c_str(), rp, rs);
    std::fflush(stdout);
    for (const IlpResult* r : {&paper, &sym}) {
      if (r->status != gpuwcet::Status::ok || r->seconds > 60.0) continue;
      const double ratio = r->seconds / sr.seconds;
      min_ratio = any ? std::min(min_ratio, ratio) : ratio;
      any = true;
    }
  }
  if (any) {
    std::printf("\nsmallest ILP / search time ratio over the solves that finished within 60 s: %.0f\n",
                min_ratio);
  }
  return 0;
}
#else
int main() {
  std::puts("GLPK is not built in (GPUWCET_HAVE_GLPK is off): nothing to measure");
  return 0;
}
#endif
