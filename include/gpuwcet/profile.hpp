// Compiled timing profiles: a versioned, CRC-protected binary blob holding,
// per kernel, what a target needs to bound a launch (docs/profile-format.md).
// Read in place: no copy, no heap. Every field is validated by open_profile()
// before any accessor is used, and read byte by byte (no casts of the blob,
// so any alignment works).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include <gsl/span>

#include "gpuwcet/kernel_wcet.hpp"
#include "gpuwcet/sm_model.hpp"
#include "gpuwcet/status.hpp"

namespace gpuwcet {

// Version 5: the records of version 4; a section's demand counts the
// barrier that ends it as an issue when the hardware's barrier takes an
// issue slot (barrier_delay >= 1), and its length lasts until the
// collector unit such a barrier takes is released, so a version-4 blob,
// written before that, may hold figures that are too low and is refused.
// Version 4: a kernel record carries the block's bound alone on its SM when
// it is below what its sections give (a one-warp block's time alone: the
// sections count its own queued holds once more, which only another warp's
// work calls for). Version 3: kernel records come in strictly increasing name order, so that
// open_profile proves the names unique in one linear pass and find() is a
// binary search (version 2 allowed any order, and checking uniqueness took
// time quadratic in the kernel count). Version 2: warp-section records are
// (length, demand), from which the block bound is the proven one of
// docs/multiphase.md (version 1 held the paper's exec/idle phases, whose
// General Upper Bound is not safe).
inline constexpr std::uint16_t kProfileFormatVersion = 5;
inline constexpr std::size_t kProfileHeaderSize = 32;
inline constexpr std::size_t kProfileDirEntrySize = 8;
inline constexpr std::size_t kProfileNameSize = 32;  // including at least one NUL
inline constexpr std::size_t kProfileKernelFixedSize = 140;
inline constexpr std::size_t kProfilePhaseSize = 16;  // u64 length, u64 demand
inline constexpr std::size_t kProfileTrailerSize = 4;  // CRC-32
inline constexpr std::uint32_t kProfileMaxKernels = 65535;
inline constexpr std::uint32_t kProfileMaxWarps = 1024;
inline constexpr std::uint32_t kProfileMaxSections = 65535;
inline constexpr std::uint32_t kProfileMaxKernelString = 1u << 20;

// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), as zlib computes it.
[[nodiscard]] std::uint32_t crc32(gsl::span<const std::uint8_t> bytes) noexcept;

// What the block bound needs of one warp in one barrier section
// (docs/multiphase.md, "The safe bound"), from its multi-phase summary:
// - length: section start to the warp's drain when it runs alone;
// - demand: cycles in which it can delay another warp of the SM, i.e. its
//   issues plus, per instruction, the initiation cycles after the issue
//   (SectionSummary::issues + the sum of SectionSummary::held).
struct PhaseSummary {
  std::uint64_t length = 0;
  std::uint64_t demand = 0;
};

class Profile;

// One kernel of an open profile: a view into the blob.
class ProfileKernel {
 public:
  ProfileKernel() noexcept = default;
  std::string_view name() const noexcept;
  std::uint32_t block_threads() const noexcept;
  std::uint32_t warp_size() const noexcept;
  std::uint32_t registers_per_thread() const noexcept;
  std::uint32_t shared_memory_per_block() const noexcept;
  std::uint32_t warp_count() const noexcept;
  std::uint32_t section_count() const noexcept;
  std::uint32_t makespan_warps() const noexcept;
  // A bound on the block alone on its SM below the sections' one; 0: none
  // (then B_1 is the sections' bound).
  std::uint64_t alone_bound() const noexcept;
  std::string_view kernel_string() const noexcept;  // empty when absent
  // SM shape of the makespan model; class_count 0 when absent.
  SmDescription makespan_sm() const noexcept;
  // Requires section < section_count() and warp < warp_count().
  PhaseSummary phase(std::uint32_t section, std::uint32_t warp) const noexcept;

 private:
  friend class Profile;
  friend Status open_profile(gsl::span<const std::uint8_t>, Profile&) noexcept;
  explicit ProfileKernel(gsl::span<const std::uint8_t> record) noexcept : record_(record) {}
  gsl::span<const std::uint8_t> record_;
};

// A validated profile: a view into the caller's blob, which must outlive it.
class Profile {
 public:
  Profile() noexcept = default;
  std::uint32_t kernel_count() const noexcept;
  // The profile's own size, from its header: bytes after it in what
  // open_profile was given (a flash image's padding) are not part of it.
  std::size_t size() const noexcept { return blob_.size(); }
  // Requires index < kernel_count(). Indices follow the names' order
  // (bytewise): index 0 is the kernel with the smallest name.
  ProfileKernel kernel(std::uint32_t index) const noexcept;
  // The index of the kernel called `name`, in O(log kernel_count()).
  // not_found when no kernel has that name.
  [[nodiscard]] Status find_index(std::string_view name, std::uint32_t& index) const noexcept;
  // not_found when no kernel has that name.
  [[nodiscard]] Status find(std::string_view name, ProfileKernel& out) const noexcept;

 private:
  friend Status open_profile(gsl::span<const std::uint8_t>, Profile&) noexcept;
  friend Profile reattach_profile(gsl::span<const std::uint8_t>) noexcept;
  gsl::span<const std::uint8_t> blob_;
};

// Validates the whole blob (magic, version, sizes, CRC, every kernel, names
// in strictly increasing order) and makes `out` a view of it, in time linear
// in the blob's size. Returns malformed_data (truncated, corrupted or not a
// profile) or unsupported_version; `out` is written only on ok.
[[nodiscard]] Status open_profile(gsl::span<const std::uint8_t> blob, Profile& out) noexcept;

// A view of a blob that open_profile() has accepted before and that has not
// changed since (the C API's handles keep only the pointer and size). Never
// for bytes that were not validated: accessors trust what open_profile checked.
[[nodiscard]] Profile reattach_profile(gsl::span<const std::uint8_t> validated_blob) noexcept;

// The block timing of a kernel (docs/kernel-wcet.md): from the sections,
// B_S = sum over sections s of max over warps w of
//   (length_w,s + sum over v != w of demand_v,s),
// the safe block bound of docs/multiphase.md with every resource counted,
// B_1 = the record's alone bound if it has one, else B_S, and E = the sum of
// all demands; without sections, B_1 = B_S = the safe pessimistic makespan
// of makespan_warps warps. Returns overflow.
[[nodiscard]] Status block_timing(const ProfileKernel& kernel, BlockTiming& out) noexcept;

}  // namespace gpuwcet
