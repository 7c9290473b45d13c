// Transactions and bank passes of one warp-wide memory access
// (lane_values.hpp): GPGPU-Sim's coalescing for compute capability >= 4.0
// (one transaction per 32-byte sector touched) and its shared-memory bank
// conflicts (one pass per distinct word in the most loaded of 32 banks).
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "gpuwcet_tools/lane_values.hpp"
#include "gpuwcet_tools/opcode_classes.hpp"

namespace gpuwcet::tools {

namespace {

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

std::int64_t floor_mod(std::int64_t a, std::int64_t b) { return a - floor_div(a, b) * b; }

// Passes of one group of lanes at known offsets from a common base whose
// alignment is unknown: the worst over every base alignment that keeps each
// lane's access naturally aligned (PTX requires it), or over all of them if
// none does.
std::uint32_t worst_passes(MemorySpace space, const std::vector<std::int64_t>& offsets,
                           std::uint32_t bytes) {
  if (offsets.empty()) return 0;
  // Sectors repeat every 32 bytes, bank rows every 128: base modulo that.
  const std::int64_t period =
      space == MemorySpace::shared ? std::int64_t{kSharedBanks} * kBankWordBytes : kSectorBytes;
  const std::int64_t align = std::max<std::int64_t>(1, std::min<std::int64_t>(bytes, period));
  auto passes_at = [&](std::int64_t beta) -> std::uint32_t {
    if (space == MemorySpace::shared) {
      std::map<std::int64_t, std::set<std::int64_t>> words_per_bank;
      for (std::int64_t d : offsets) {
        const std::int64_t first = floor_div(beta + d, kBankWordBytes);
        const std::int64_t last = floor_div(beta + d + bytes - 1, kBankWordBytes);
        for (std::int64_t w = first; w <= last; ++w) {
          words_per_bank[floor_mod(w, kSharedBanks)].insert(w);
        }
      }
      std::size_t worst = 1;
      for (const auto& [bank, words] : words_per_bank) worst = std::max(worst, words.size());
      return static_cast<std::uint32_t>(worst);
    }
    std::set<std::int64_t> sectors;
    for (std::int64_t d : offsets) {
      const std::int64_t first = floor_div(beta + d, kSectorBytes);
      const std::int64_t last = floor_div(beta + d + bytes - 1, kSectorBytes);
      for (std::int64_t s = first; s <= last; ++s) sectors.insert(s);
    }
    return static_cast<std::uint32_t>(sectors.size());
  };
  std::uint32_t worst = 0;
  bool any_aligned = false;
  for (int pass = 0; pass < 2 && !any_aligned; ++pass) {
    for (std::int64_t beta = 0; beta < period; ++beta) {
      const bool aligned = std::all_of(offsets.begin(), offsets.end(), [&](std::int64_t d) {
        return floor_mod(beta + d, align) == 0;
      });
      if (pass == 0 && !aligned) continue;
      any_aligned = any_aligned || aligned;
      worst = std::max(worst, passes_at(beta));
    }
  }
  return worst;
}

// The most passes one lane can cause: a naturally aligned access (PTX
// requires it) of up to 32 bytes lies in one sector; in shared memory it
// covers bytes / 4 words.
std::uint32_t max_passes_per_lane(MemorySpace space, std::uint32_t bytes) {
  // Local memory interleaves each thread's 4-byte words: every word of a
  // lane may lie in its own sector.
  const std::uint32_t unit =
      space == MemorySpace::shared || space == MemorySpace::local ? kBankWordBytes : kSectorBytes;
  return std::max<std::uint32_t>(1, (bytes + unit - 1) / unit);
}

std::uint32_t lanes_in_warp(BlockShape shape) {
  if (!shape.known()) return kWarpLanes;
  const std::uint64_t threads = std::uint64_t{shape.x} * shape.y * shape.z;
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(threads, kWarpLanes));
}

// Unknown block shape, only tid.x varies (with a known multiplier): a warp's
// tid.x values form at most two runs of consecutive values, of at most 32
// lanes together (one run inside a row, or the end of a row and the start of
// the next); each run's base alignment is unknown.
std::uint32_t two_run_passes(MemorySpace space, std::int64_t stride, std::uint32_t bytes) {
  std::vector<std::uint32_t> run(kWarpLanes + 1, 0);
  std::vector<std::int64_t> offsets;
  for (std::uint32_t n = 1; n <= kWarpLanes; ++n) {
    offsets.push_back(stride * static_cast<std::int64_t>(n - 1));
    run[n] = worst_passes(space, offsets, bytes);
  }
  std::uint32_t worst = 0;
  for (std::uint32_t n1 = 0; n1 <= kWarpLanes; ++n1) {
    worst = std::max(worst, run[n1] + run[kWarpLanes - n1]);
  }
  return std::min(worst, kWarpLanes * max_passes_per_lane(space, bytes));
}

// Active lanes of the busiest warp of the block: `active` (one flag per
// thread of a known shape), or every lane.
std::uint32_t busiest_warp_lanes(BlockShape shape, const std::vector<bool>* active) {
  if (active == nullptr || !shape.known()) return lanes_in_warp(shape);
  std::uint32_t most = 0;
  for (std::size_t first = 0; first < active->size(); first += kWarpLanes) {
    std::uint32_t n = 0;
    for (std::size_t t = first; t < std::min(active->size(), first + kWarpLanes); ++t) {
      n += (*active)[t] ? 1u : 0u;
    }
    most = std::max(most, n);
  }
  return std::max<std::uint32_t>(most, 1);
}

AccessCost compute_cost(MemorySpace space, const LaneValue& address, std::uint32_t bytes,
                        BlockShape shape, const std::vector<bool>* active) {
  if (active != nullptr && (!shape.known() ||
                            active->size() != std::uint64_t{shape.x} * shape.y * shape.z)) {
    active = nullptr;  // a mask needs the block's threads
  }
  const std::uint32_t lanes = busiest_warp_lanes(shape, active);
  // Worst case: every lane on its own sector(s) / every lane in the same
  // bank on its own word(s).
  const std::uint32_t worst = lanes * max_passes_per_lane(space, bytes);
  if (address.varying) return AccessCost{worst, false};
  if (address.is_uniform()) {
    return AccessCost{worst_passes(space, {0}, bytes), true};
  }
  if (!shape.known()) {
    if (!address.tid[1].zero() || !address.tid[2].zero() || !address.tid[0].known) {
      return AccessCost{worst, false};
    }
    return AccessCost{std::min(worst, two_run_passes(space, address.tid[0].value, bytes)), false};
  }
  // Known shape: every warp of the block, lanes grouped by the thread-index
  // components whose multiplier is unknown (their contribution is a uniform
  // shift within a group, of unknown alignment).
  const std::uint64_t threads = std::uint64_t{shape.x} * shape.y * shape.z;
  std::uint32_t result = 0;
  for (std::uint64_t first = 0; first < threads; first += kWarpLanes) {
    std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, std::vector<std::int64_t>> groups;
    for (std::uint64_t l = first; l < std::min(threads, first + kWarpLanes); ++l) {
      if (active != nullptr && !(*active)[l]) continue;
      const std::array<std::int64_t, 3> t{static_cast<std::int64_t>(l % shape.x),
                                          static_cast<std::int64_t>((l / shape.x) % shape.y),
                                          static_cast<std::int64_t>(l / (std::uint64_t{shape.x} * shape.y))};
      std::array<std::int64_t, 3> key{0, 0, 0};
      std::int64_t offset = 0;
      for (std::size_t d = 0; d < 3; ++d) {
        if (address.tid[d].known) {
          offset += address.tid[d].value * t[d];
        } else {
          key[d] = t[d];
        }
      }
      groups[{key[0], key[1], key[2]}].push_back(offset);
    }
    std::uint32_t total = 0;
    for (const auto& [key, offsets] : groups) total += worst_passes(space, offsets, bytes);
    result = std::max(result, total);
  }
  return AccessCost{std::min(std::max<std::uint32_t>(result, 1), worst), false};
}

}  // namespace

std::uint32_t access_bytes(std::string_view opcode) {
  std::uint32_t width = 4;
  static constexpr std::pair<std::string_view, std::uint32_t> kTypes[] = {
      {"u8", 1},  {"s8", 1},  {"b8", 1},  {"u16", 2}, {"s16", 2}, {"b16", 2}, {"f16", 2},
      {"u32", 4}, {"s32", 4}, {"b32", 4}, {"f32", 4}, {"u64", 8}, {"s64", 8}, {"b64", 8},
      {"f64", 8}, {"b128", 16},
  };
  for (const auto& [name, w] : kTypes) {
    if (has_component(opcode, name)) width = w;
  }
  if (has_component(opcode, "v2")) width *= 2;
  if (has_component(opcode, "v4")) width *= 4;
  return width;
}

std::string_view unknown_ptx_type(std::string_view opcode) {
  // The PTX types spelt as a letter u, s, b or f and a width (the ISA's
  // fundamental types, and the sub-byte ones of mma/wmma).
  static constexpr std::string_view kWidths[] = {"u4",  "s4",  "b1",  "b4",  "u8",  "s8",
                                                 "b8",  "u16", "s16", "b16", "f16", "u32",
                                                 "s32", "b32", "f32", "u64", "s64", "b64",
                                                 "f64", "b128"};
  std::size_t start = opcode.find('.');  // after the base opcode
  while (start != std::string_view::npos) {
    const std::size_t end = opcode.find('.', start + 1);
    const std::string_view c = opcode.substr(start + 1, end == std::string_view::npos ? end : end - start - 1);
    start = end;
    if (c.size() < 2 || (c[0] != 'u' && c[0] != 's' && c[0] != 'b' && c[0] != 'f')) continue;
    if (c.substr(1).find_first_not_of("0123456789") != std::string_view::npos) continue;
    if (std::find(std::begin(kWidths), std::end(kWidths), c) == std::end(kWidths)) return c;
  }
  return {};
}

MemorySpace memory_space(std::string_view opcode) {
  if (has_component(opcode, "shared")) return MemorySpace::shared;
  if (has_component(opcode, "param") || has_component(opcode, "const") || has_component(opcode, "tex")) {
    return MemorySpace::other;
  }
  if (has_component(opcode, "local")) return MemorySpace::local;
  return MemorySpace::global;  // global and generic addresses
}

AccessCost cost_of_access(MemorySpace space, const LaneValue& address, std::uint32_t bytes,
                          BlockShape shape, const std::vector<bool>* active) {
  if (space == MemorySpace::other) return AccessCost{1, true};
  if (space == MemorySpace::local) {
    // Each lane's own words, wherever the address: the worst.
    return compute_cost(space, LaneValue::unknown(), bytes, shape, active);
  }
  if (address.varying || address.outliers == 0) {
    return compute_cost(space, address, bytes, shape, active);
  }
  // The lanes holding the affine value cost at most what every lane would
  // at it (fewer lanes touch no more sectors or words per bank); each
  // outlier, one address for all its lanes, adds at most one lane's passes.
  LaneValue affine = address;
  affine.outliers = 0;
  const AccessCost part = compute_cost(space, affine, bytes, shape, active);
  const std::uint32_t worst = compute_cost(space, LaneValue::unknown(), bytes, shape, active).passes;
  return AccessCost{std::min(worst, part.passes + address.outliers * max_passes_per_lane(space, bytes)),
                    false};
}

AccessCost cost_of_addresses(MemorySpace space, const std::vector<std::uint64_t>& addresses,
                             std::uint32_t bytes) {
  if (space == MemorySpace::other || addresses.empty()) return AccessCost{1, true};
  std::uint32_t passes = 0;
  if (space == MemorySpace::shared) {
    std::map<std::uint64_t, std::set<std::uint64_t>> words_per_bank;
    for (std::uint64_t a : addresses) {
      for (std::uint64_t w = a / kBankWordBytes; w <= (a + bytes - 1) / kBankWordBytes; ++w) {
        words_per_bank[w % kSharedBanks].insert(w);
      }
    }
    for (const auto& [bank, words] : words_per_bank) {
      passes = std::max(passes, static_cast<std::uint32_t>(words.size()));
    }
  } else {
    std::set<std::uint64_t> sectors;
    for (std::uint64_t a : addresses) {
      for (std::uint64_t s = a / kSectorBytes; s <= (a + bytes - 1) / kSectorBytes; ++s) {
        sectors.insert(s);
      }
    }
    passes = static_cast<std::uint32_t>(sectors.size());
  }
  return AccessCost{std::max<std::uint32_t>(passes, 1), true};
}

}  // namespace gpuwcet::tools
