// Compiled timing profiles and the kernel-level WCET in the C API.
#include <algorithm>
#include <cstddef>
#include <cstring>

#include "capi_internal.hpp"
#include "gpuwcet/kernel_wcet.hpp"
#include "gpuwcet/profile.hpp"

using gpuwcet::Status;
using gpuwcet::capi::struct_size_ok;
using gpuwcet::capi::to_c;

namespace {

gsl::span<const std::uint8_t> bytes_of(const gpuwcet_profile* p) {
  return {p->data_, p->size_};
}

// The layout of 0.3, before block_bound_co_resident.
constexpr std::size_t kKernelInfoFirstSize = offsetof(gpuwcet_kernel_info, block_bound_co_resident);
// The layout before 0.5, before register_partitions and the shared-memory
// allocation.
constexpr std::size_t kGpuDescFirstSize = offsetof(gpuwcet_gpu_desc, register_partitions);

// *_init_sized: zeroes the caller's `size` bytes, from the first layout
// (`first`) to this header's.
template <typename T>
gpuwcet_status init_sized(T* x, std::size_t size, std::size_t first) {
  if (x == nullptr || size < first || size > sizeof(T)) return GPUWCET_INVALID_ARGUMENT;
  std::memset(x, 0, size);
  x->struct_size = static_cast<std::uint32_t>(size);
  return GPUWCET_OK;
}

// *_init of a struct that has not grown: its whole layout.
template <typename T>
gpuwcet_status init(T* x) {
  return init_sized(x, sizeof(T), sizeof(T));
}

// The kernel behind a handle; false for a handle never filled in.
bool kernel_of(const gpuwcet_profile_kernel* k, gpuwcet::ProfileKernel& out) {
  if (k == nullptr || k->data_ == nullptr) return false;
  const gpuwcet::Profile p = gpuwcet::reattach_profile({k->data_, k->size_});
  if (k->index_ >= p.kernel_count()) return false;
  out = p.kernel(k->index_);
  return true;
}

}  // namespace

extern "C" {

gpuwcet_status gpuwcet_gpu_desc_init_sized(gpuwcet_gpu_desc* gpu, size_t size) {
  return init_sized(gpu, size, kGpuDescFirstSize);
}
gpuwcet_status(gpuwcet_gpu_desc_init)(gpuwcet_gpu_desc* gpu) {
  return gpuwcet_gpu_desc_init_sized(gpu, kGpuDescFirstSize);
}
gpuwcet_status gpuwcet_launch_init(gpuwcet_launch* launch) { return init(launch); }
gpuwcet_status gpuwcet_kernel_info_init_sized(gpuwcet_kernel_info* info, size_t size) {
  return init_sized(info, size, kKernelInfoFirstSize);
}
gpuwcet_status(gpuwcet_kernel_info_init)(gpuwcet_kernel_info* info) {
  return gpuwcet_kernel_info_init_sized(info, kKernelInfoFirstSize);
}
gpuwcet_status gpuwcet_kernel_wcet_result_init(gpuwcet_kernel_wcet_result* result) {
  return init(result);
}

gpuwcet_status gpuwcet_profile_open(const void* blob, size_t size, gpuwcet_profile* profile) {
  if (blob == nullptr || profile == nullptr || size > 0xFFFFFFFFu) {
    return GPUWCET_INVALID_ARGUMENT;
  }
  const auto* data = static_cast<const std::uint8_t*>(blob);
  gpuwcet::Profile p;
  const Status st = gpuwcet::open_profile({data, size}, p);
  if (st != Status::ok) return to_c(st);
  profile->data_ = data;
  // The profile's own size, <= size < 4 GiB (checked above).
  profile->size_ = static_cast<std::uint32_t>(p.size());
  profile->kernel_count = p.kernel_count();
  return GPUWCET_OK;
}

gpuwcet_status gpuwcet_profile_kernel_at(const gpuwcet_profile* profile, uint32_t index,
                                         gpuwcet_profile_kernel* kernel) {
  if (profile == nullptr || profile->data_ == nullptr || kernel == nullptr) {
    return GPUWCET_INVALID_ARGUMENT;
  }
  if (index >= profile->kernel_count) return GPUWCET_NOT_FOUND;
  kernel->data_ = profile->data_;
  kernel->size_ = profile->size_;
  kernel->index_ = index;
  return GPUWCET_OK;
}

gpuwcet_status gpuwcet_profile_find(const gpuwcet_profile* profile, const char* name,
                                    gpuwcet_profile_kernel* kernel) {
  if (profile == nullptr || profile->data_ == nullptr || name == nullptr || kernel == nullptr) {
    return GPUWCET_INVALID_ARGUMENT;
  }
  const gpuwcet::Profile p = gpuwcet::reattach_profile(bytes_of(profile));
  // Names are at most 31 characters: a longer one cannot match.
  std::size_t len = 0;
  while (len < GPUWCET_PROFILE_NAME_SIZE && name[len] != '\0') ++len;
  if (len >= GPUWCET_PROFILE_NAME_SIZE) return GPUWCET_NOT_FOUND;
  std::uint32_t index = 0;
  const Status st = p.find_index(std::string_view(name, len), index);
  if (st != Status::ok) return to_c(st);
  kernel->data_ = profile->data_;
  kernel->size_ = profile->size_;
  kernel->index_ = index;
  return GPUWCET_OK;
}

gpuwcet_status gpuwcet_profile_kernel_info(const gpuwcet_profile_kernel* kernel,
                                           gpuwcet_kernel_info* info) {
  gpuwcet::ProfileKernel k;
  if (!kernel_of(kernel, k) || info == nullptr ||
      !struct_size_ok(info->struct_size, kKernelInfoFirstSize)) {
    return GPUWCET_INVALID_ARGUMENT;
  }
  gpuwcet::BlockTiming t;
  const Status st = gpuwcet::block_timing(k, t);
  if (st != Status::ok) return to_c(st);
  std::memset(info->name, 0, sizeof info->name);
  const std::string_view name = k.name();  // < 32 characters, validated
  std::memcpy(info->name, name.data(), name.size());
  info->block_threads = k.block_threads();
  info->warp_size = k.warp_size();
  info->registers_per_thread = k.registers_per_thread();
  info->shared_memory_per_block = k.shared_memory_per_block();
  info->warp_count = k.warp_count();
  info->section_count = k.section_count();
  const std::uint64_t co_resident = std::max(t.co_resident_bound, t.alone_bound);
  info->block_interference_cycles = t.interference_cycles;
  if (info->struct_size >= sizeof(gpuwcet_kernel_info)) {
    info->block_bound_alone = t.alone_bound;
    info->block_bound_co_resident = co_resident;
  } else {
    // A caller of 0.3 knows block_bound_alone as the base of B_k for every
    // k (B_k = B_1 + (min(k, G) - 1) E): it gets B_S there, which keeps
    // that formula safe.
    info->block_bound_alone = co_resident;
  }
  return GPUWCET_OK;
}

gpuwcet_status gpuwcet_kernel_wcet(const gpuwcet_profile_kernel* kernel,
                                   const gpuwcet_gpu_desc* gpu, const gpuwcet_launch* launch,
                                   gpuwcet_kernel_wcet_result* result) {
  gpuwcet::ProfileKernel k;
  if (!kernel_of(kernel, k) || gpu == nullptr || launch == nullptr || result == nullptr ||
      !struct_size_ok(gpu->struct_size, kGpuDescFirstSize) ||
      !struct_size_ok(launch->struct_size, sizeof(gpuwcet_launch)) ||
      !struct_size_ok(result->struct_size, sizeof(gpuwcet_kernel_wcet_result))) {
    return GPUWCET_INVALID_ARGUMENT;
  }
  // The summaries hold for the profiled block size and warp size only.
  if ((launch->block_threads != 0 && launch->block_threads != k.block_threads()) ||
      (gpu->warp_size != 0 && gpu->warp_size != k.warp_size())) {
    return GPUWCET_INVALID_ARGUMENT;
  }
  gpuwcet::BlockTiming t;
  Status st = gpuwcet::block_timing(k, t);
  if (st != Status::ok) return to_c(st);
  gpuwcet::GpuDescription g;
  g.sm_count = gpu->sm_count;
  g.warp_size = k.warp_size();
  g.max_blocks_per_sm = gpu->max_blocks_per_sm;
  g.max_threads_per_sm = gpu->max_threads_per_sm;
  g.max_warps_per_sm = gpu->max_warps_per_sm;
  g.registers_per_sm = gpu->registers_per_sm;
  g.register_alloc_unit = gpu->register_alloc_unit;
  g.shared_memory_per_sm = gpu->shared_memory_per_sm;
  // The fields of 0.5, read only from a caller whose struct has them (as
  // gpuwcet_profile_kernel_info does for block_bound_co_resident).
  if (gpu->struct_size >= sizeof(gpuwcet_gpu_desc)) {
    g.register_partitions = gpu->register_partitions;
    g.shared_memory_alloc_unit = gpu->shared_memory_alloc_unit;
    g.shared_memory_reserved_per_block = gpu->shared_memory_reserved_per_block;
  }
  g.dispatch_delay = gpu->dispatch_delay;
  g.clock_khz = gpu->clock_khz;
  gpuwcet::KernelWcet w;
  st = gpuwcet::kernel_wcet(g, t, launch->grid_blocks, w);
  if (st != Status::ok) return to_c(st);
  result->blocks_per_sm = w.blocks_per_sm;
  result->resident_blocks = w.resident_blocks;
  result->rounds = w.rounds;
  result->block_bound_alone = t.alone_bound;
  result->block_bound_shared = w.block_bound_shared;
  result->rounds_estimate = w.rounds_estimate;
  result->cycles = w.cycles;
  result->nanoseconds = w.nanoseconds;
  return GPUWCET_OK;
}

}  // extern "C"
