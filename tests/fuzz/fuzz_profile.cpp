// libFuzzer target: any bytes given to the profile reader and, when it
// accepts them, to every accessor and the kernel bound. Must never crash.
#include <cstddef>
#include <cstdint>

#include "gpuwcet/kernel_wcet.hpp"
#include "gpuwcet/profile.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gpuwcet::Profile p;
  if (gpuwcet::open_profile({data, size}, p) != gpuwcet::Status::ok) return 0;
  gpuwcet::GpuDescription gpu;
  gpu.sm_count = 4;
  gpu.max_blocks_per_sm = 8;
  gpu.max_warps_per_sm = 64;
  gpu.dispatch_delay = 10;
  gpu.clock_khz = 1000000;
  // And one that counts the profile's registers and shared memory, as an
  // NVIDIA SM allocates them.
  gpuwcet::GpuDescription sm = gpu;
  sm.max_threads_per_sm = 2048;
  sm.registers_per_sm = 65536;
  sm.register_alloc_unit = 256;
  sm.register_partitions = 4;
  sm.shared_memory_per_sm = 100 * 1024;
  sm.shared_memory_alloc_unit = 128;
  sm.shared_memory_reserved_per_block = 1024;
  for (std::uint32_t i = 0; i < p.kernel_count(); ++i) {
    const gpuwcet::ProfileKernel k = p.kernel(i);
    gpuwcet::ProfileKernel found;
    (void)p.find(k.name(), found);
    (void)k.kernel_string();
    (void)k.makespan_sm();
    (void)k.alone_bound();
    for (std::uint32_t s = 0; s < k.section_count(); ++s) {
      for (std::uint32_t w = 0; w < k.warp_count(); ++w) (void)k.phase(s, w);
    }
    gpuwcet::BlockTiming t;
    if (gpuwcet::block_timing(k, t) != gpuwcet::Status::ok) continue;
    gpuwcet::KernelWcet r;
    (void)gpuwcet::kernel_wcet(gpu, t, 1, r);  // a block alone: B_1
    (void)gpuwcet::kernel_wcet(gpu, t, 1000, r);
    (void)gpuwcet::kernel_wcet(sm, t, 1000, r);
  }
  return 0;
}
