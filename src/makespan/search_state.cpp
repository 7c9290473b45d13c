#include "search_state.hpp"

namespace gpuwcet::search_detail {

Status build_tables(const MakespanInstance& in, Tables& t) noexcept {
  if (in.warps == 0) return Status::zero_warps;
  if (in.instr.empty() || in.class_count == 0 || in.class_count > kMaxUnitClasses) {
    return Status::invalid_argument;
  }
  if (in.instr.size() > kMaxSearchLength || in.warps > kMaxSearchWarps) {
    return Status::kernel_too_long;
  }
  t = Tables{};
  t.length = in.instr.size();
  t.classes = in.class_count;
  t.warps = in.warps;
  for (std::size_t u = 0; u < t.classes; ++u) {
    if (in.capacity[u] == 0) return Status::invalid_argument;
    t.capacity[u] = in.capacity[u];
  }
  for (const std::uint8_t c : in.instr) {
    if (c >= t.classes) return Status::invalid_argument;
  }
  std::size_t n = 0;
  for (std::size_t u = 0; u < t.classes; ++u) {
    t.offset[u] = static_cast<std::uint8_t>(n);
    for (std::size_t k = t.length; k-- > 0;) {
      if (in.instr[k] == u) t.positions[n++] = static_cast<std::uint8_t>(k);
    }
  }
  t.offset[t.classes] = static_cast<std::uint8_t>(n);
  for (std::size_t u = 0; u < t.classes; ++u) {
    std::uint16_t acc = 0;
    t.suffix[u * (t.length + 1) + t.length] = 0;
    for (std::size_t k = t.length; k-- > 0;) {
      if (in.instr[k] == u) ++acc;
      t.suffix[u * (t.length + 1) + k] = acc;
    }
  }
  for (std::size_t v = 0; v < t.classes; ++v) t.single_runs[v] = true;
  std::array<bool, kMaxUnitClasses * kMaxUnitClasses> before{};  // [p * K + v]
  for (std::size_t k = 0; k + 1 < t.length; ++k) {
    const std::size_t p = in.instr[k];
    const std::size_t v = in.instr[k + 1];
    if (p == v) {
      t.single_runs[v] = false;
    } else if (!before[p * kMaxUnitClasses + v]) {
      before[p * kMaxUnitClasses + v] = true;
      t.inflow[v] += t.capacity[p];
    }
  }
  for (std::size_t v = 0; v < t.classes; ++v) {
    for (std::size_t u = 0; u < t.classes; ++u) {
      bool feeds = u != v && t.offset[v + 1] > t.offset[v];
      for (std::size_t i = t.offset[v]; i < t.offset[v + 1] && feeds; ++i) {
        const std::size_t k = t.positions[i];
        feeds = k + 1 < t.length && in.instr[k + 1] == u;
      }
      t.feeds[v * kMaxUnitClasses + u] = feeds;
      if (feeds) t.fed[u] = true;
    }
  }
  return Status::ok;
}

std::uint32_t upper_bound(const Tables& t, const Count* counts) noexcept {
  std::uint64_t unfinished = 0;
  std::array<std::uint64_t, kMaxUnitClasses> work{};
  for (std::size_t k = 0; k < t.length; ++k) {
    if (counts[k] == 0) continue;
    unfinished += counts[k];
    for (std::size_t u = 0; u < t.classes; ++u) work[u] += std::uint64_t{counts[k]} * t.remaining(u, k);
  }
  if (unfinished == 0) return 0;
  const std::uint64_t others = unfinished - 1;
  // Rule N: a class v whose positions are never adjacent, whose inflow is at
  // most its capacity, and whose queue (warps at v-positions) is at most its
  // capacity now keeps that queue within its capacity for ever, so it never
  // leaves a warp waiting.
  std::array<bool, kMaxUnitClasses> never_blocks{};
  for (std::size_t v = 0; v < t.classes && t.order_bounds; ++v) {
    if (!t.single_runs[v] || t.inflow[v] > t.capacity[v]) continue;
    std::uint64_t queue = 0;
    for (std::size_t i = t.offset[v]; i < t.offset[v + 1]; ++i) queue += counts[t.positions[i]];
    never_blocks[v] = queue <= t.capacity[v];
  }
  // blocked[u] (for the last warp w at position k): cycles in which w can
  // wait unserved on class u, at most floor(others_u / capacity[u]), none if
  // capacity[u] exceeds the number of other unfinished warps or w holds no
  // u-instruction any more.
  auto blocked = [&](std::size_t u, std::size_t k) -> std::uint64_t {
    if (never_blocks[u] || t.capacity[u] > others || t.remaining(u, k) == 0) return 0;
    return (work[u] - t.remaining(u, k)) / t.capacity[u];
  };
  // Bound B1 (docs/makespan-search.md): every remaining cycle either
  // advances the last warp w (at most length - k of them) or leaves it
  // blocked on the class of its next instruction.
  std::uint64_t best = 0;
  for (std::size_t k = 0; k < t.length; ++k) {
    if (counts[k] == 0) continue;
    std::uint64_t b = t.length - k;
    for (std::size_t u = 0; u < t.classes; ++u) b += blocked(u, k);
    if (b > best) best = b;
  }
  // Bound B2 for each class u of capacity 1: the makespan is work[u] plus
  // the cycles in which u serves nothing (idle). While w stays at a non-u
  // position at most one idle cycle happens if its class feeds u, else one
  // plus the cycles w is blocked there. Proof: docs/makespan-search.md.
  for (std::size_t u = 0; u < t.classes; ++u) {
    if (t.capacity[u] != 1 || !t.order_bounds || !t.fed[u]) continue;
    std::uint64_t idle = 0;
    for (std::size_t k = 0; k < t.length; ++k) {
      if (counts[k] == 0) continue;
      std::uint64_t b = (t.length - k) - t.remaining(u, k);
      for (std::size_t v = 0; v < t.classes; ++v) {
        if (v != u && !t.feeds[v * kMaxUnitClasses + u]) b += blocked(v, k);
      }
      if (b > idle) idle = b;
    }
    if (work[u] + idle < best) best = work[u] + idle;
  }
  return static_cast<std::uint32_t>(best);
}

namespace {

// Fills class u's positions from index `from` on with `amount` warps,
// most advanced first. Returns what could not be placed.
std::uint64_t fill(const Tables& t, const Count* counts, Count* take, std::size_t u,
                   std::size_t from, std::uint64_t amount) noexcept {
  for (std::size_t i = t.offset[u] + from; i < t.offset[u + 1]; ++i) {
    const std::size_t k = t.positions[i];
    const std::uint64_t x = amount < counts[k] ? amount : counts[k];
    take[k] = static_cast<Count>(x);
    amount -= x;
  }
  return amount;
}

std::uint64_t served(const Tables& t, const Count* counts, std::size_t u) noexcept {
  std::uint64_t waiting = 0;
  for (std::size_t i = t.offset[u]; i < t.offset[u + 1]; ++i) waiting += counts[t.positions[i]];
  return waiting < t.capacity[u] ? waiting : t.capacity[u];
}

// Next distribution of class u in decreasing lexicographic order.
bool next_in_class(const Tables& t, const Count* counts, Count* take, std::size_t u) noexcept {
  const std::size_t first = t.offset[u];
  const std::size_t last = t.offset[u + 1];
  if (last - first < 2) return false;
  std::uint64_t room_after = 0;  // free places after index i
  std::uint64_t taken_after = 0;
  for (std::size_t i = last - 1; i-- > first;) {
    const std::size_t next = t.positions[i + 1];
    room_after += counts[next] - take[next];
    taken_after += take[next];
    const std::size_t k = t.positions[i];
    if (take[k] > 0 && room_after > 0) {
      --take[k];
      fill(t, counts, take, u, i + 1 - first, taken_after + 1);
      return true;
    }
  }
  return false;
}

}  // namespace

bool first_choice(const Tables& t, const Count* counts, Count* take) noexcept {
  for (std::size_t k = 0; k < t.length; ++k) take[k] = 0;
  bool any = false;
  for (std::size_t u = 0; u < t.classes; ++u) {
    const std::uint64_t m = served(t, counts, u);
    any = any || m > 0;
    fill(t, counts, take, u, 0, m);
  }
  return any;
}

bool next_choice(const Tables& t, const Count* counts, Count* take) noexcept {
  for (std::size_t u = t.classes; u-- > 0;) {
    if (next_in_class(t, counts, take, u)) {
      for (std::size_t v = u + 1; v < t.classes; ++v) fill(t, counts, take, v, 0, served(t, counts, v));
      return true;
    }
  }
  return false;
}

void last_choice(const Tables& t, const Count* counts, Count* take) noexcept {
  for (std::size_t k = 0; k < t.length; ++k) take[k] = 0;
  for (std::size_t u = 0; u < t.classes; ++u) {
    std::uint64_t m = served(t, counts, u);
    for (std::size_t i = t.offset[u + 1]; i-- > t.offset[u] && m > 0;) {
      const std::size_t k = t.positions[i];
      const std::uint64_t x = m < counts[k] ? m : counts[k];
      take[k] = static_cast<Count>(x);
      m -= x;
    }
  }
}

void Memo::init(std::byte* base, std::size_t capacity, std::size_t length) noexcept {
  base_ = base;
  capacity_ = capacity;
  length_ = length;
  stride_ = stride(length);
  used_ = 0;
  if (base_ != nullptr) std::memset(base_, 0, capacity_ * stride_);
}

std::size_t Memo::hash(const Count* key) const noexcept {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the counts
  for (std::size_t k = 0; k < length_; ++k) {
    h ^= key[k];
    h *= 1099511628211ull;
  }
  h ^= h >> 29;
  return static_cast<std::size_t>(h % capacity_);
}

std::uint8_t Memo::find(const Count* key, std::uint32_t& value) const noexcept {
  if (capacity_ == 0) return kEmpty;
  std::size_t i = hash(key);
  for (std::size_t probe = 0; probe < 32; ++probe, i = (i + 1) % capacity_) {
    const std::byte* s = slot(i);
    std::uint8_t kind = 0;
    std::memcpy(&kind, s + 2 * length_ + 4, 1);
    if (kind == kEmpty) return kEmpty;
    if (std::memcmp(s, key, 2 * length_) == 0) {
      std::memcpy(&value, s + 2 * length_, 4);
      return kind;
    }
  }
  return kEmpty;
}

void Memo::store(const Count* key, std::uint8_t kind, std::uint32_t value) noexcept {
  if (capacity_ == 0) return;
  std::size_t i = hash(key);
  for (std::size_t probe = 0; probe < 32; ++probe, i = (i + 1) % capacity_) {
    std::byte* s = slot(i);
    std::uint8_t old = 0;
    std::memcpy(&old, s + 2 * length_ + 4, 1);
    if (old == kEmpty) {
      std::memcpy(s, key, 2 * length_);
      ++used_;
    } else if (std::memcmp(s, key, 2 * length_) != 0) {
      continue;
    } else if (old == kExact) {
      return;  // already known exactly
    } else if (kind == kUpper) {
      std::uint32_t have = 0;
      std::memcpy(&have, s + 2 * length_, 4);
      if (have <= value) return;  // keep the tighter bound
    }
    std::memcpy(s + 2 * length_, &value, 4);
    std::memcpy(s + 2 * length_ + 4, &kind, 1);
    return;
  }
}

}  // namespace gpuwcet::search_detail
