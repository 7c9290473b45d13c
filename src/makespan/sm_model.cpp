#include "gpuwcet/sm_model.hpp"

#include "gpuwcet/checked_math.hpp"

namespace gpuwcet {

Status SmDescription::add_class(char symbol, std::uint32_t units) noexcept {
  if (class_count >= kMaxUnitClasses) return Status::too_many_classes;
  if (!is_class_symbol(symbol)) return Status::unknown_symbol;
  if (find(symbol) != class_count) return Status::duplicate_class;
  if (units == 0) return Status::zero_units;
  classes[class_count] = UnitClass{symbol, units};
  ++class_count;
  return Status::ok;
}

std::size_t SmDescription::find(char symbol) const noexcept {
  const std::size_t n = class_count <= kMaxUnitClasses ? class_count : kMaxUnitClasses;
  for (std::size_t i = 0; i < n; ++i) {
    if (classes[i].symbol == symbol) return i;
  }
  return class_count;
}

Status SmDescription::validate() const noexcept {
  if (warp_size == 0) return Status::zero_warp_size;
  if (class_count > kMaxUnitClasses) return Status::too_many_classes;
  for (std::size_t i = 0; i < class_count; ++i) {
    if (!is_class_symbol(classes[i].symbol)) return Status::unknown_symbol;
    if (classes[i].units == 0) return Status::zero_units;
    for (std::size_t j = 0; j < i; ++j) {
      if (classes[j].symbol == classes[i].symbol) return Status::duplicate_class;
    }
  }
  return Status::ok;
}

Rational SmDescription::sigma(std::size_t index) const noexcept {
  const std::uint64_t units = classes[index].units;
  const std::uint64_t size = warp_size;
  const std::uint64_t g = gcd_u64(units, size);
  return Rational{units / g, size / g};
}

}  // namespace gpuwcet
