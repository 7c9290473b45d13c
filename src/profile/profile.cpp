// Reading a compiled timing profile in place (docs/profile-format.md).
#include <algorithm>

#include "gpuwcet/checked_math.hpp"
#include "gpuwcet/kernel_string.hpp"
#include "gpuwcet/makespan_bounds.hpp"
#include "gpuwcet/profile.hpp"

namespace gpuwcet {

namespace {

// Little-endian reads; callers have checked that [at, at + width) is inside.
std::uint16_t le16(gsl::span<const std::uint8_t> b, std::size_t at) noexcept {
  return static_cast<std::uint16_t>(b[at] | (b[at + 1] << 8));
}
std::uint32_t le32(gsl::span<const std::uint8_t> b, std::size_t at) noexcept {
  return std::uint32_t{b[at]} | (std::uint32_t{b[at + 1]} << 8) |
         (std::uint32_t{b[at + 2]} << 16) | (std::uint32_t{b[at + 3]} << 24);
}
std::uint64_t le64(gsl::span<const std::uint8_t> b, std::size_t at) noexcept {
  return std::uint64_t{le32(b, at)} | (std::uint64_t{le32(b, at + 4)} << 32);
}

// Offsets inside a kernel record.
constexpr std::size_t kName = 0;
constexpr std::size_t kBlockThreads = 32;
constexpr std::size_t kWarpSize = 36;
constexpr std::size_t kRegisters = 40;
constexpr std::size_t kShared = 44;
constexpr std::size_t kWarpCount = 48;
constexpr std::size_t kSectionCount = 52;
constexpr std::size_t kMakespanWarps = 56;
constexpr std::size_t kStringLength = 60;
constexpr std::size_t kClassCount = 64;
constexpr std::size_t kClasses = 68;  // 8 x {u8 symbol, u8[3] zero, u32 units}
constexpr std::size_t kAloneBound = 132;

std::size_t name_length(gsl::span<const std::uint8_t> r) noexcept {
  std::size_t n = 0;
  while (n < kProfileNameSize && r[kName + n] != 0) ++n;
  return n;
}

std::string_view record_name(gsl::span<const std::uint8_t> r) noexcept {
  return {reinterpret_cast<const char*>(r.data()) + kName, name_length(r)};
}

// Everything about one record except its place in the blob.
Status validate_kernel(gsl::span<const std::uint8_t> r) noexcept {
  if (r.size() < kProfileKernelFixedSize) return Status::malformed_data;
  const std::size_t n = name_length(r);
  if (n == 0 || n == kProfileNameSize) return Status::malformed_data;
  for (std::size_t i = 0; i < n; ++i) {
    if (r[kName + i] < 0x21 || r[kName + i] > 0x7E) return Status::malformed_data;
  }
  for (std::size_t i = n; i < kProfileNameSize; ++i) {
    if (r[kName + i] != 0) return Status::malformed_data;
  }
  const std::uint32_t threads = le32(r, kBlockThreads);
  const std::uint32_t warp_size = le32(r, kWarpSize);
  const std::uint32_t warps = le32(r, kWarpCount);
  const std::uint32_t sections = le32(r, kSectionCount);
  const std::uint32_t ms_warps = le32(r, kMakespanWarps);
  const std::uint32_t len = le32(r, kStringLength);
  const std::uint32_t classes = le32(r, kClassCount);
  if (threads == 0 || warp_size == 0 || warps == 0 || warps > kProfileMaxWarps ||
      ceil_div(threads, warp_size) != warps || sections > kProfileMaxSections ||
      len > kProfileMaxKernelString || classes > kMaxUnitClasses) {
    return Status::malformed_data;
  }
  // A kernel needs a source for its block timing: sections or a makespan model.
  if (sections == 0 && len == 0) return Status::malformed_data;
  // An alone bound tightens the sections' bound (checked in open_profile).
  if (sections == 0 && le64(r, kAloneBound) != 0) return Status::malformed_data;
  // Exact record size: fixed part, phases, string, zero padding to 4.
  const std::uint64_t phases = std::uint64_t{sections} * warps * kProfilePhaseSize;
  const std::uint64_t string_at = kProfileKernelFixedSize + phases;
  const std::uint64_t size = string_at + ceil_div(len, 4) * 4;
  if (size != r.size()) return Status::malformed_data;
  for (std::uint64_t i = string_at + len; i < size; ++i) {
    if (r[static_cast<std::size_t>(i)] != 0) return Status::malformed_data;  // i < r.size()
  }
  SmDescription sm;
  sm.warp_size = warp_size;
  sm.class_count = classes;
  for (std::size_t c = 0; c < kMaxUnitClasses; ++c) {
    const std::size_t at = kClasses + 8 * c;
    if (r[at + 1] != 0 || r[at + 2] != 0 || r[at + 3] != 0) return Status::malformed_data;
    if (c >= classes) {
      if (r[at] != 0 || le32(r, at + 4) != 0) return Status::malformed_data;
      continue;
    }
    sm.classes[c] = UnitClass{static_cast<char>(r[at]), le32(r, at + 4)};
  }
  if (len == 0) {
    if (classes != 0 || ms_warps != 0) return Status::malformed_data;
    return Status::ok;
  }
  // The makespan model stands for the whole block: fewer warps than the
  // block has would bound a smaller block, below the block's real time.
  if (ms_warps < warps || sm.validate() != Status::ok) return Status::malformed_data;
  const std::string_view kernel(reinterpret_cast<const char*>(r.data()) + string_at, len);
  TransformedShape shape;
  if (analyze_kernel(sm, kernel, shape) != Status::ok) return Status::malformed_data;
  return Status::ok;
}

// B_S and E of a kernel's sections (docs/kernel-wcet.md); false on overflow.
// Per barrier section (docs/multiphase.md), warp w ends the section within
// length_w + the demand of every other warp, i.e. all demand + (length_w -
// demand_w); computed as length_w + (all - demand_w), which cannot go below
// zero.
bool sections_bound(const ProfileKernel& kernel, std::uint64_t& bound,
                    std::uint64_t& demand_total) noexcept {
  bound = 0;
  demand_total = 0;
  const std::uint32_t warps = kernel.warp_count();
  for (std::uint32_t s = 0; s < kernel.section_count(); ++s) {
    std::uint64_t demand = 0;
    for (std::uint32_t w = 0; w < warps; ++w) {
      if (!checked_add(demand, kernel.phase(s, w).demand, demand)) return false;
    }
    std::uint64_t section = 0;
    for (std::uint32_t w = 0; w < warps; ++w) {
      const PhaseSummary p = kernel.phase(s, w);
      std::uint64_t end = 0;
      if (!checked_add(p.length, demand - p.demand, end)) return false;
      section = std::max(section, end);
    }
    if (!checked_add(bound, section, bound) || !checked_add(demand_total, demand, demand_total)) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string_view ProfileKernel::name() const noexcept { return record_name(record_); }
std::uint32_t ProfileKernel::block_threads() const noexcept { return le32(record_, kBlockThreads); }
std::uint32_t ProfileKernel::warp_size() const noexcept { return le32(record_, kWarpSize); }
std::uint32_t ProfileKernel::registers_per_thread() const noexcept {
  return le32(record_, kRegisters);
}
std::uint32_t ProfileKernel::shared_memory_per_block() const noexcept {
  return le32(record_, kShared);
}
std::uint32_t ProfileKernel::warp_count() const noexcept { return le32(record_, kWarpCount); }
std::uint32_t ProfileKernel::section_count() const noexcept {
  return le32(record_, kSectionCount);
}
std::uint32_t ProfileKernel::makespan_warps() const noexcept {
  return le32(record_, kMakespanWarps);
}
std::uint64_t ProfileKernel::alone_bound() const noexcept { return le64(record_, kAloneBound); }
std::string_view ProfileKernel::kernel_string() const noexcept {
  const std::size_t at =
      kProfileKernelFixedSize + std::size_t{section_count()} * warp_count() * kProfilePhaseSize;
  return {reinterpret_cast<const char*>(record_.data()) + at, le32(record_, kStringLength)};
}
SmDescription ProfileKernel::makespan_sm() const noexcept {
  SmDescription sm;
  sm.warp_size = warp_size();
  sm.class_count = le32(record_, kClassCount);
  for (std::size_t c = 0; c < sm.class_count; ++c) {
    const std::size_t at = kClasses + 8 * c;
    sm.classes[c] = UnitClass{static_cast<char>(record_[at]), le32(record_, at + 4)};
  }
  return sm;
}
PhaseSummary ProfileKernel::phase(std::uint32_t section, std::uint32_t warp) const noexcept {
  const std::size_t at =
      kProfileKernelFixedSize +
      (std::size_t{section} * warp_count() + warp) * kProfilePhaseSize;
  return PhaseSummary{le64(record_, at), le64(record_, at + 8)};
}

std::uint32_t Profile::kernel_count() const noexcept { return le32(blob_, 12); }

ProfileKernel Profile::kernel(std::uint32_t index) const noexcept {
  const std::size_t dir = kProfileHeaderSize + std::size_t{index} * kProfileDirEntrySize;
  return ProfileKernel(blob_.subspan(le32(blob_, dir), le32(blob_, dir + 4)));
}

Status Profile::find_index(std::string_view name, std::uint32_t& index) const noexcept {
  // Binary search: open_profile checked that names strictly increase.
  std::uint32_t lo = 0;
  std::uint32_t hi = kernel_count();
  while (lo < hi) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    const int order = kernel(mid).name().compare(name);
    if (order == 0) {
      index = mid;
      return Status::ok;
    }
    if (order < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return Status::not_found;
}

Status Profile::find(std::string_view name, ProfileKernel& out) const noexcept {
  std::uint32_t index = 0;
  const Status st = find_index(name, index);
  if (st == Status::ok) out = kernel(index);
  return st;
}

Status open_profile(gsl::span<const std::uint8_t> blob, Profile& out) noexcept {
  if (blob.data() == nullptr || blob.size() < kProfileHeaderSize + kProfileTrailerSize) {
    return Status::malformed_data;
  }
  if (blob[0] != 'G' || blob[1] != 'W' || blob[2] != 'P' || blob[3] != 'F') {
    return Status::malformed_data;
  }
  const std::uint32_t total = le32(blob, 8);
  // A blob inside a larger buffer is fine; one cut short is not.
  if (total > blob.size() || total < kProfileHeaderSize + kProfileTrailerSize) {
    return Status::malformed_data;
  }
  const gsl::span<const std::uint8_t> b = blob.first(total);
  const std::uint32_t stored_crc = le32(b, total - kProfileTrailerSize);
  if (crc32(b.first(total - kProfileTrailerSize)) != stored_crc) return Status::malformed_data;
  // The version is checked after the CRC: a corrupted version byte is
  // corruption, an intact foreign version is unsupported.
  if (le16(b, 4) != kProfileFormatVersion) return Status::unsupported_version;
  if (le16(b, 6) != kProfileHeaderSize) return Status::malformed_data;
  const std::uint32_t count = le32(b, 12);
  if (le32(b, 16) != 0 || le32(b, 20) != 0 || le32(b, 24) != 0 || le32(b, 28) != 0 ||
      count > kProfileMaxKernels) {
    return Status::malformed_data;
  }
  // Records follow the directory back to back, in directory order, and the
  // last one ends at the CRC. Their names strictly increase: one comparison
  // with the previous name proves them unique (find() relies on both).
  std::uint64_t expected = kProfileHeaderSize + std::uint64_t{count} * kProfileDirEntrySize;
  const std::uint64_t end = total - kProfileTrailerSize;
  if (expected > end) return Status::malformed_data;
  std::string_view previous;  // empty: below every valid name
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::size_t dir = kProfileHeaderSize + std::size_t{i} * kProfileDirEntrySize;
    const std::uint64_t at = le32(b, dir);
    const std::uint64_t size = le32(b, dir + 4);
    if (at != expected || size > end - at) return Status::malformed_data;
    // at + size <= end < b.size(): both fit in size_t on 32-bit targets too.
    const auto record = b.subspan(static_cast<std::size_t>(at), static_cast<std::size_t>(size));
    const Status st = validate_kernel(record);
    if (st != Status::ok) return st;
    // An alone bound above the sections' bound contradicts them (one that
    // overflows 64 bits is above every alone bound).
    const ProfileKernel k(record);
    if (k.alone_bound() != 0) {
      std::uint64_t bound = 0;
      std::uint64_t demand = 0;
      if (sections_bound(k, bound, demand) && k.alone_bound() > bound) {
        return Status::malformed_data;
      }
    }
    const std::string_view name = record_name(record);  // 1..31 characters, validated
    if (!(previous < name)) return Status::malformed_data;
    previous = name;
    expected = at + size;
  }
  if (expected != end) return Status::malformed_data;
  Profile p;
  p.blob_ = b;
  out = p;
  return Status::ok;
}

Profile reattach_profile(gsl::span<const std::uint8_t> validated_blob) noexcept {
  Profile p;
  p.blob_ = validated_blob;
  return p;
}

Status block_timing(const ProfileKernel& kernel, BlockTiming& out) noexcept {
  BlockTiming t;
  t.block_threads = kernel.block_threads();
  t.registers_per_thread = kernel.registers_per_thread();
  t.shared_memory_per_block = kernel.shared_memory_per_block();
  if (kernel.section_count() != 0) {
    if (!sections_bound(kernel, t.co_resident_bound, t.interference_cycles)) {
      return Status::overflow;
    }
    const std::uint64_t alone = kernel.alone_bound();  // <= B_S, checked when opened
    t.alone_bound = alone != 0 ? alone : t.co_resident_bound;
  } else {
    const SmDescription sm = kernel.makespan_sm();
    TransformedShape shape;
    Status st = analyze_kernel(sm, kernel.kernel_string(), shape);
    if (st != Status::ok) return st;
    st = safe_pessimistic_makespan(shape, kernel.makespan_warps(), t.alone_bound);
    if (st != Status::ok) return st;
    t.co_resident_bound = t.alone_bound;
    // Each transformed instruction of each warp occupies one unit-cycle.
    if (!checked_mul(shape.length, kernel.makespan_warps(), t.interference_cycles)) {
      return Status::overflow;
    }
  }
  out = t;
  return Status::ok;
}

}  // namespace gpuwcet
