#include "gpuwcet/kernel_string.hpp"

#include "gpuwcet/checked_math.hpp"

namespace gpuwcet {

Status analyze_kernel(const SmDescription& sm, std::string_view kernel, TransformedShape& shape,
                      std::size_t* error_index) noexcept {
  shape = TransformedShape{};
  const Status sm_status = sm.validate();
  if (sm_status != Status::ok) return sm_status;
  if (kernel.empty()) return Status::empty_kernel;

  std::array<std::uint64_t, kMaxUnitClasses> original{};
  for (std::size_t i = 0; i < kernel.size(); ++i) {
    const char c = kernel[i];
    if (!is_class_symbol(c)) {
      if (error_index != nullptr) *error_index = i;
      return Status::unknown_symbol;
    }
    const std::size_t u = sm.find(c);
    if (u == sm.class_count) {
      if (error_index != nullptr) *error_index = i;
      return Status::undescribed_class;
    }
    ++original[u];
  }

  shape.class_count = sm.class_count;
  for (std::size_t u = 0; u < sm.class_count; ++u) {
    const Rational s = sm.sigma(u);
    shape.repeat[u] = s.den;
    shape.capacity[u] = s.num;
    if (!checked_mul(original[u], s.den, shape.count[u])) return Status::overflow;
    if (!checked_add(shape.length, shape.count[u], shape.length)) return Status::overflow;
  }
  return Status::ok;
}

namespace {

// Emits, for every original instruction, repeat[u] copies of `emit(u)`.
template <typename T, typename Emit>
Status transform_into(const SmDescription& sm, std::string_view kernel, gsl::span<T> out,
                      std::size_t& written, Emit emit) noexcept {
  written = 0;
  TransformedShape shape;
  const Status st = analyze_kernel(sm, kernel, shape);
  if (st != Status::ok) return st;
  if (shape.length > out.size()) return Status::buffer_too_small;
  std::size_t pos = 0;
  for (const char c : kernel) {
    const std::size_t u = sm.find(c);
    for (std::uint64_t r = 0; r < shape.repeat[u]; ++r) out[pos++] = emit(u);
  }
  written = pos;
  return Status::ok;
}

}  // namespace

Status transform_to_symbols(const SmDescription& sm, std::string_view kernel, gsl::span<char> out,
                            std::size_t& written) noexcept {
  return transform_into(sm, kernel, out, written,
                        [&sm](std::size_t u) { return sm.classes[u].symbol; });
}

Status transform_to_classes(const SmDescription& sm, std::string_view kernel,
                            gsl::span<std::uint8_t> out, std::size_t& written) noexcept {
  return transform_into(sm, kernel, out, written,
                        [](std::size_t u) { return static_cast<std::uint8_t>(u); });
}

}  // namespace gpuwcet
