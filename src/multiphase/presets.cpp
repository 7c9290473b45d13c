#include <cstring>

#include "gpuwcet/hardware_presets.hpp"

namespace gpuwcet {

Status make_hardware_preset(const char* name, std::uint32_t memory_latency,
                            HardwareDescription& out) noexcept {
  if (name == nullptr) return Status::not_found;
  for (const HardwarePreset& preset : kHardwarePresets) {
    if (std::strcmp(preset.name, name) != 0) continue;
    HardwareDescription hw{};
    hw.unit_count = preset.unit_count;
    for (std::size_t i = 0; i < preset.unit_count; ++i) {
      const UnitPreset& u = preset.units[i];
      FunctionalUnit& f = hw.units[i];
      std::strncpy(f.name.data(), u.name, kUnitNameSize - 1);
      f.initiation = u.initiation;
      f.latency = u.latency == kMemoryLatency ? memory_latency : u.latency;
      f.resource = u.resource;
      f.flags = u.flags;
    }
    set_gpgpusim_pipeline(hw);
    out = hw;
    return Status::ok;
  }
  return Status::not_found;
}

}  // namespace gpuwcet
