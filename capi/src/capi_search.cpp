// The C face of the exact makespan search and of the approximation
// (capi/include/gpuwcet_makespan_search.h).
#include <array>
#include <cstdint>
#include <string_view>

#include "capi_internal.hpp"
#include "gpuwcet/checked_math.hpp"
#include "gpuwcet/kernel_string.hpp"
#include "gpuwcet/makespan_approx.hpp"
#include "gpuwcet/makespan_bounds.hpp"
#include "gpuwcet/makespan_search.hpp"
#include "gpuwcet_makespan_search.h"

using gpuwcet::Status;
using gpuwcet::capi::to_c;

namespace {

// The transformed problem, held by value so the instance's span stays valid.
struct Problem {
  std::array<std::uint8_t, gpuwcet::kMaxSearchLength> instr{};
  gpuwcet::TransformedShape shape;
  gpuwcet::MakespanInstance instance;
};

Status build(const gpuwcet_sm_desc* sm, const char* kernel, size_t kernel_len, uint64_t warps,
             Problem& p) noexcept {
  std::string_view view;
  if (!gpuwcet::capi::kernel_view(kernel, kernel_len, view)) return Status::invalid_argument;
  gpuwcet::SmDescription core;
  Status st = gpuwcet::capi::from_c(sm, core);
  if (st != Status::ok) return st;
  st = gpuwcet::analyze_kernel(core, view, p.shape, nullptr);
  if (st != Status::ok) return st;
  if (warps == 0) return Status::zero_warps;
  if (p.shape.length > gpuwcet::kMaxSearchLength) return Status::kernel_too_long;
  std::size_t n = 0;
  st = gpuwcet::transform_to_classes(core, view, p.instr, n);
  if (st != Status::ok) return st;
  p.instance.instr = gsl::span<const std::uint8_t>(p.instr.data(), n);
  p.instance.class_count = p.shape.class_count;
  p.instance.capacity = p.shape.capacity;
  p.instance.warps = warps;
  return Status::ok;
}

// Bridges the C progress callback to the core's, which passes a struct.
struct ProgressBridge {
  gpuwcet_search_progress_fn fn = nullptr;
  void* user = nullptr;
};

void forward_progress(const gpuwcet::SearchProgress& p, void* user) {
  const auto* bridge = static_cast<const ProgressBridge*>(user);
  bridge->fn(p.nodes, p.lower_bound, bridge->user);
}

// NULL means defaults. `bridge` must outlive the search.
Status options_from_c(const gpuwcet_search_options* in, ProgressBridge& bridge,
                      gpuwcet::SearchOptions& out) noexcept {
  out = gpuwcet::SearchOptions{};
  if (in == nullptr) return Status::ok;
  if (!gpuwcet::capi::struct_size_ok(in->struct_size, sizeof(gpuwcet_search_options))) {
    return Status::invalid_argument;
  }
  out.max_nodes = in->max_nodes;
  out.max_steps = in->max_steps;
  out.memo_entries = in->memo_entries;
  if (in->progress_every != 0) out.progress_every = in->progress_every;
  if (in->progress != nullptr) {
    bridge.fn = in->progress;
    bridge.user = in->progress_user;
    out.progress = forward_progress;
    out.progress_user = &bridge;
  }
  return Status::ok;
}

bool result_ok(const gpuwcet_makespan_result* r) noexcept {
  return r != nullptr &&
         gpuwcet::capi::struct_size_ok(r->struct_size, sizeof(gpuwcet_makespan_result));
}

}  // namespace

extern "C" {

gpuwcet_status gpuwcet_search_options_init(gpuwcet_search_options* opts) {
  if (opts == nullptr) return GPUWCET_INVALID_ARGUMENT;
  *opts = gpuwcet_search_options{};
  opts->struct_size = sizeof(gpuwcet_search_options);
  opts->memo_entries = 65536;
  opts->progress_every = 1u << 20;
  return GPUWCET_OK;
}

gpuwcet_status gpuwcet_search_stats_init(gpuwcet_search_stats* stats) {
  if (stats == nullptr) return GPUWCET_INVALID_ARGUMENT;
  *stats = gpuwcet_search_stats{};
  stats->struct_size = sizeof(gpuwcet_search_stats);
  return GPUWCET_OK;
}

gpuwcet_status gpuwcet_makespan_search_arena_bytes(const gpuwcet_sm_desc* sm, const char* kernel,
                                                   size_t kernel_len, uint64_t warps,
                                                   const gpuwcet_search_options* opts,
                                                   size_t* bytes) {
  if (bytes == nullptr) return GPUWCET_INVALID_ARGUMENT;
  Problem p;
  Status st = build(sm, kernel, kernel_len, warps, p);
  if (st != Status::ok) return to_c(st);
  ProgressBridge bridge;
  gpuwcet::SearchOptions o;
  st = options_from_c(opts, bridge, o);
  if (st != Status::ok) return to_c(st);
  std::size_t b = 0;
  st = gpuwcet::makespan_search_arena_bytes(p.instance, o, b);
  if (st == Status::ok) *bytes = b;
  return to_c(st);
}

gpuwcet_status gpuwcet_makespan_schedule_entries(const gpuwcet_sm_desc* sm, const char* kernel,
                                                 size_t kernel_len, uint64_t warps,
                                                 size_t* entries) {
  if (entries == nullptr) return GPUWCET_INVALID_ARGUMENT;
  Problem p;
  Status st = build(sm, kernel, kernel_len, warps, p);
  if (st != Status::ok) return to_c(st);
  // The search's limit, as gpuwcet_makespan_search_arena_bytes reports it.
  if (warps > gpuwcet::kMaxSearchWarps) return GPUWCET_KERNEL_TOO_LONG;
  std::uint64_t cycles = 0;
  st = gpuwcet::safe_pessimistic_makespan(p.shape, warps, cycles);
  if (st != Status::ok) return to_c(st);
  std::uint64_t n = 0;
  if (!gpuwcet::checked_mul(cycles, p.shape.length, n) || n > SIZE_MAX) return GPUWCET_OVERFLOW;
  *entries = static_cast<size_t>(n);
  return GPUWCET_OK;
}

gpuwcet_status gpuwcet_makespan_search(const gpuwcet_sm_desc* sm, const char* kernel,
                                       size_t kernel_len, uint64_t warps,
                                       const gpuwcet_search_options* opts, void* arena,
                                       size_t arena_bytes, gpuwcet_makespan_result* result,
                                       uint32_t* schedule, size_t schedule_entries,
                                       gpuwcet_search_stats* stats) {
  if (arena == nullptr || !result_ok(result)) return GPUWCET_INVALID_ARGUMENT;
  if (schedule == nullptr && schedule_entries != 0) return GPUWCET_INVALID_ARGUMENT;
  if (stats != nullptr &&
      !gpuwcet::capi::struct_size_ok(stats->struct_size, sizeof(gpuwcet_search_stats))) {
    return GPUWCET_INVALID_ARGUMENT;
  }
  Problem p;
  Status st = build(sm, kernel, kernel_len, warps, p);
  if (st != Status::ok) return to_c(st);
  ProgressBridge bridge;
  gpuwcet::SearchOptions o;
  st = options_from_c(opts, bridge, o);
  if (st != Status::ok) return to_c(st);
  gpuwcet::SearchResult r;
  st = gpuwcet::search_worst_makespan(p.instance, o, gpuwcet::capi::caller_arena(arena, arena_bytes),
                                      r, gpuwcet::capi::caller_span(schedule, schedule_entries));
  // A small schedule buffer still leaves proven bounds (r.upper_bound != 0).
  const bool bounds = gpuwcet::has_result(st) ||
                      (st == Status::buffer_too_small && r.upper_bound != 0);
  if (!bounds) return to_c(st);
  result->method = GPUWCET_METHOD_SEARCH;
  result->makespan = r.upper_bound;
  result->lower_bound = r.lower_bound;
  result->upper_bound = r.upper_bound;
  result->exact = r.exact ? 1 : 0;
  result->safe = 1;
  if (stats != nullptr) {
    stats->nodes = r.nodes;
    stats->steps = r.steps;
    stats->memo_used = r.memo_used;
    stats->schedule_cycles = r.schedule_cycles;
    stats->transformed_length = p.shape.length;
  }
  return to_c(st);
}

gpuwcet_status gpuwcet_makespan_approx_arena_bytes(const gpuwcet_sm_desc* sm, const char* kernel,
                                                   size_t kernel_len, uint64_t warps,
                                                   uint64_t max_group,
                                                   const gpuwcet_search_options* opts,
                                                   size_t* bytes) {
  if (bytes == nullptr) return GPUWCET_INVALID_ARGUMENT;
  Problem p;
  Status st = build(sm, kernel, kernel_len, warps, p);
  if (st != Status::ok) return to_c(st);
  ProgressBridge bridge;
  gpuwcet::SearchOptions o;
  st = options_from_c(opts, bridge, o);
  if (st != Status::ok) return to_c(st);
  std::size_t b = 0;
  st = gpuwcet::makespan_approx_arena_bytes(p.instance, max_group, o, b);
  if (st == Status::ok) *bytes = b;
  return to_c(st);
}

gpuwcet_status gpuwcet_makespan_approx(const gpuwcet_sm_desc* sm, const char* kernel,
                                       size_t kernel_len, uint64_t warps, uint64_t max_group,
                                       const gpuwcet_search_options* opts, void* arena,
                                       size_t arena_bytes, gpuwcet_makespan_result* result,
                                       uint64_t* best_group) {
  if (arena == nullptr || !result_ok(result)) return GPUWCET_INVALID_ARGUMENT;
  Problem p;
  Status st = build(sm, kernel, kernel_len, warps, p);
  if (st != Status::ok) return to_c(st);
  ProgressBridge bridge;
  gpuwcet::SearchOptions o;
  st = options_from_c(opts, bridge, o);
  if (st != Status::ok) return to_c(st);
  gpuwcet::ApproxResult r;
  st = gpuwcet::approximate_makespan(p.instance, max_group, o,
                                     gpuwcet::capi::caller_arena(arena, arena_bytes), r);
  if (!gpuwcet::has_result(st)) return to_c(st);
  std::uint64_t lower = 0;
  const Status lb = gpuwcet::makespan_lower_bound(p.shape, warps, lower);
  if (lb != Status::ok) return to_c(lb);
  result->method = GPUWCET_METHOD_APPROX;
  result->makespan = r.estimate;
  result->lower_bound = lower;
  result->upper_bound = r.estimate;
  result->exact = 0;
  result->safe = 0;  // Eqs. (42)-(43) can under-estimate
  if (best_group != nullptr) *best_group = r.best_group;
  return to_c(st);
}

}  // extern "C"
