// libFuzzer target: the makespan C API on unvalidated caller input. The
// bytes become an SM description (raw bytes, or classes with any symbol,
// unit count and warp size), a kernel string (mostly the SM's symbols,
// sometimes any byte), a warp count (small, or large) and search options
// with a node and step budget; every makespan entry point runs on them.
// Any status is an answer; a crash, a sanitizer report or a broken
// documented relation (gpuwcet.h, gpuwcet_makespan_search.h) is a bug.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "fuzz_bytes.hpp"
#include "gpuwcet.h"

namespace {

using gpuwcet::fuzz::Bytes;

// Budgets that keep one input's search short.
constexpr std::uint64_t kMaxNodes = 4000;
constexpr std::uint64_t kMaxSteps = 200000;
constexpr std::size_t kMaxArenaBytes = std::size_t{8} << 20;
constexpr std::size_t kMaxScheduleEntries = std::size_t{1} << 18;

void sm_from(Bytes& in, gpuwcet_sm_desc& sm) {
  if (in.u8() % 4 == 0) {  // raw bytes, the size field right or not
    in.copy(&sm, sizeof sm);
    if (in.u8() % 4 != 0) sm.struct_size = sizeof sm;
    return;
  }
  const std::uint8_t w = in.u8();
  FUZZ_CHECK(gpuwcet_sm_init(&sm, w < 240 ? 32 : (w < 250 ? w % 8 : in.u32())) == GPUWCET_OK ||
        sm.warp_size == 0);
  for (std::uint8_t n = 1 + in.u8() % (GPUWCET_MAX_UNIT_CLASSES + 1); n != 0; --n) {
    const std::uint8_t s = in.u8();
    const char symbol = static_cast<char>(s < 200 ? 'A' + s % 26 : s);
    const std::uint8_t u = in.u8();
    const std::uint32_t units = u < 200 ? 8u << (u % 5) : (u < 250 ? u % 3 : in.u32());
    (void)gpuwcet_sm_add_class(&sm, symbol, units);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Bytes in(data, size);
  gpuwcet_sm_desc sm;
  std::memset(&sm, 0, sizeof sm);
  sm_from(in, sm);

  std::vector<char> kernel(in.u8() % 48);
  const std::uint32_t classes = sm.class_count <= GPUWCET_MAX_UNIT_CLASSES ? sm.class_count : 0;
  for (char& c : kernel) {
    const std::uint8_t b = in.u8();
    c = b < 230 && classes != 0 ? sm.classes[b % classes].symbol : static_cast<char>(b);
  }
  const std::uint8_t wsel = in.u8();
  const std::uint64_t warps = wsel < 240 ? wsel % 9 : (wsel < 250 ? in.u16() : in.u64());

  // Transformed length and string.
  std::uint64_t length = 0;
  std::size_t error_index = ~std::size_t{0};
  const gpuwcet_status tl =
      gpuwcet_transformed_length(&sm, kernel.data(), kernel.size(), &length, &error_index);
  if (tl == GPUWCET_UNKNOWN_SYMBOL || tl == GPUWCET_UNDESCRIBED_CLASS) {
    FUZZ_CHECK(error_index == ~std::size_t{0} || error_index < kernel.size());
  }
  std::vector<std::uint8_t> scratch;
  if (tl == GPUWCET_OK && length < (std::uint64_t{1} << 20)) {
    std::vector<char> out(static_cast<std::size_t>(length) + 1);
    const std::size_t capacity = in.u8() % 8 == 0 ? out.size() - 1 : out.size();
    std::size_t written = 0;
    const gpuwcet_status ts =
        gpuwcet_transform_kernel(&sm, kernel.data(), kernel.size(), out.data(), capacity, &written);
    FUZZ_CHECK(ts == (capacity == out.size() ? GPUWCET_OK : GPUWCET_BUFFER_TOO_SMALL));
    if (ts == GPUWCET_OK) FUZZ_CHECK(written == length && out[written] == 0);
    scratch.resize(static_cast<std::size_t>(length));
  }

  // The closed forms.
  gpuwcet_makespan_result pess;
  gpuwcet_makespan_result order;
  gpuwcet_makespan_result paper;
  FUZZ_CHECK(gpuwcet_makespan_result_init(&pess) == GPUWCET_OK);
  FUZZ_CHECK(gpuwcet_makespan_result_init(&order) == GPUWCET_OK);
  FUZZ_CHECK(gpuwcet_makespan_result_init(&paper) == GPUWCET_OK);
  const gpuwcet_status ps =
      gpuwcet_makespan_pessimistic(&sm, kernel.data(), kernel.size(), warps, &pess);
  if (ps == GPUWCET_OK) {
    FUZZ_CHECK(pess.safe == 1 && pess.method == GPUWCET_METHOD_PESSIMISTIC);
    FUZZ_CHECK(pess.makespan == pess.upper_bound && pess.lower_bound <= pess.upper_bound);
  }
  const gpuwcet_status os = gpuwcet_makespan_order_aware(
      &sm, kernel.data(), kernel.size(), warps, scratch.data(), scratch.size(), &order);
  if (os == GPUWCET_OK) {
    FUZZ_CHECK(order.safe == 1 && order.lower_bound <= order.makespan);
    // Never above the pessimistic bound (gpuwcet.h). That one can overflow
    // where rule N leaves a class out of the order-aware bound, which fits.
    if (ps == GPUWCET_OK) FUZZ_CHECK(order.makespan <= pess.makespan);
  }
  const gpuwcet_status es =
      gpuwcet_makespan_paper_estimate(&sm, kernel.data(), kernel.size(), warps, &paper);
  if (es == GPUWCET_OK) FUZZ_CHECK(paper.safe == 0);

  // The exact search and the approximation, within a budget.
  gpuwcet_search_options opts;
  FUZZ_CHECK(gpuwcet_search_options_init(&opts) == GPUWCET_OK);
  opts.memo_entries = in.u8() % 8 == 0 ? in.u32() : 1 + in.u16() % 4096;
  opts.max_nodes = 1 + in.u16() % kMaxNodes;
  opts.max_steps = 1 + in.u32() % kMaxSteps;
  std::size_t bytes = 0;
  const gpuwcet_status ab =
      gpuwcet_makespan_search_arena_bytes(&sm, kernel.data(), kernel.size(), warps, &opts, &bytes);
  if (ab != GPUWCET_OK || bytes > kMaxArenaBytes) return 0;
  std::size_t entries = 0;
  if (gpuwcet_makespan_schedule_entries(&sm, kernel.data(), kernel.size(), warps, &entries) !=
          GPUWCET_OK ||
      entries > kMaxScheduleEntries) {
    entries = 0;
  }
  // At any alignment, and sometimes a byte short.
  const std::size_t offset = in.u8() % 8;
  const std::size_t short_by = in.u8() % 16 == 0 && bytes != 0 ? 1 : 0;
  std::vector<unsigned char> storage(bytes + offset);
  std::vector<std::uint32_t> schedule(entries);
  gpuwcet_makespan_result exact;
  gpuwcet_search_stats stats;
  FUZZ_CHECK(gpuwcet_makespan_result_init(&exact) == GPUWCET_OK);
  FUZZ_CHECK(gpuwcet_search_stats_init(&stats) == GPUWCET_OK);
  const gpuwcet_status ss = gpuwcet_makespan_search(
      &sm, kernel.data(), kernel.size(), warps, &opts, storage.data() + offset, bytes - short_by,
      &exact, entries != 0 ? schedule.data() : nullptr, entries, &stats);
  if (short_by != 0) FUZZ_CHECK(ss == GPUWCET_BUFFER_TOO_SMALL);
  if (ss == GPUWCET_OK || ss == GPUWCET_BUDGET_EXHAUSTED || ss == GPUWCET_SCHEDULE_UNAVAILABLE) {
    FUZZ_CHECK(ps == GPUWCET_OK);
    FUZZ_CHECK(exact.safe == 1 && exact.method == GPUWCET_METHOD_SEARCH);
    FUZZ_CHECK(exact.makespan == exact.upper_bound && exact.lower_bound <= exact.upper_bound);
    // Every schedule takes at least the closed form's lower bound, and the
    // worst one at most any safe bound.
    FUZZ_CHECK(exact.lower_bound >= pess.lower_bound);
    if (ss != GPUWCET_BUDGET_EXHAUSTED) {
      FUZZ_CHECK(exact.exact == 1 && exact.lower_bound == exact.upper_bound);
      FUZZ_CHECK(exact.makespan <= pess.makespan);
      if (os == GPUWCET_OK) FUZZ_CHECK(exact.makespan <= order.makespan);
    }
    if (ss == GPUWCET_OK && entries != 0) {
      // A worst schedule: as long as the worst case, every warp through
      // every transformed position once.
      FUZZ_CHECK(stats.schedule_cycles == exact.makespan);
      const std::uint64_t width = stats.transformed_length;
      FUZZ_CHECK(stats.schedule_cycles * width <= entries);
      for (std::uint64_t k = 0; k < width; ++k) {
        std::uint64_t through = 0;
        for (std::uint64_t t = 0; t < stats.schedule_cycles; ++t) {
          through += schedule[t * width + k];
        }
        FUZZ_CHECK(through == warps);
      }
    }
  }
  gpuwcet_makespan_result approx;
  FUZZ_CHECK(gpuwcet_makespan_result_init(&approx) == GPUWCET_OK);
  const std::uint64_t group = 1 + in.u8() % 4;
  std::size_t approx_bytes = 0;
  if (gpuwcet_makespan_approx_arena_bytes(&sm, kernel.data(), kernel.size(), warps, group, &opts,
                                          &approx_bytes) != GPUWCET_OK ||
      approx_bytes > kMaxArenaBytes) {
    return 0;
  }
  std::vector<unsigned char> approx_arena(approx_bytes);
  std::uint64_t best = 0;
  const gpuwcet_status as = gpuwcet_makespan_approx(&sm, kernel.data(), kernel.size(), warps,
                                                    group, &opts, approx_arena.data(),
                                                    approx_arena.size(), &approx, &best);
  if (as == GPUWCET_OK || as == GPUWCET_BUDGET_EXHAUSTED) {
    FUZZ_CHECK(approx.safe == 0 && approx.method == GPUWCET_METHOD_APPROX);
    FUZZ_CHECK(best >= 1 && best <= group);
  }
  return 0;
}
