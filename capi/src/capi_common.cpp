// Version, status messages and SM description functions of the C API.
#include <type_traits>

#include "capi_internal.hpp"
#include "gpuwcet/version.hpp"

using gpuwcet::Status;
using gpuwcet::capi::to_c;

// The C enum mirrors the core's one value for value.
static_assert(GPUWCET_UNSUPPORTED_VERSION == static_cast<int>(Status::unsupported_version),
              "C and C++ status codes diverged");
static_assert(GPUWCET_BUDGET_EXHAUSTED == static_cast<int>(Status::budget_exhausted),
              "C and C++ status codes diverged");
static_assert(GPUWCET_SCHEDULE_UNAVAILABLE == static_cast<int>(Status::schedule_unavailable),
              "C and C++ status codes diverged");
static_assert(GPUWCET_VERSION_MAJOR == gpuwcet::kVersionMajor &&
                  GPUWCET_VERSION_MINOR == gpuwcet::kVersionMinor &&
                  GPUWCET_VERSION_PATCH == gpuwcet::kVersionPatch,
              "C and C++ versions diverged");
static_assert(GPUWCET_MAX_UNIT_CLASSES == gpuwcet::kMaxUnitClasses, "class limits diverged");

extern "C" {

uint32_t gpuwcet_version(void) { return GPUWCET_VERSION_NUMBER; }

const char* gpuwcet_version_string(void) { return GPUWCET_VERSION_STRING; }

const char* gpuwcet_status_message(gpuwcet_status status) {
  return gpuwcet::status_message(static_cast<Status>(status));
}

gpuwcet_status gpuwcet_sm_init(gpuwcet_sm_desc* sm, uint32_t warp_size) {
  if (sm == nullptr) return GPUWCET_INVALID_ARGUMENT;
  *sm = gpuwcet_sm_desc{};
  sm->struct_size = sizeof(gpuwcet_sm_desc);
  sm->warp_size = warp_size;
  return warp_size == 0 ? GPUWCET_ZERO_WARP_SIZE : GPUWCET_OK;
}

gpuwcet_status gpuwcet_sm_add_class(gpuwcet_sm_desc* sm, char symbol, uint32_t units) {
  if (sm == nullptr) return GPUWCET_INVALID_ARGUMENT;
  gpuwcet::SmDescription core;
  if (sm->warp_size == 0) {
    // Validate the table without tripping over the warp size the caller sets later.
    gpuwcet_sm_desc probe = *sm;
    probe.warp_size = 1;
    const Status st = gpuwcet::capi::from_c(&probe, core);
    if (st != Status::ok) return to_c(st);
  } else {
    const Status st = gpuwcet::capi::from_c(sm, core);
    if (st != Status::ok) return to_c(st);
  }
  const Status st = core.add_class(symbol, units);
  if (st != Status::ok) return to_c(st);
  sm->classes[sm->class_count] = gpuwcet_unit_class{symbol, units};
  ++sm->class_count;
  return GPUWCET_OK;
}

gpuwcet_status gpuwcet_sigma(const gpuwcet_sm_desc* sm, char symbol, uint64_t* num,
                             uint64_t* den) {
  if (num == nullptr || den == nullptr) return GPUWCET_INVALID_ARGUMENT;
  gpuwcet::SmDescription core;
  const Status st = gpuwcet::capi::from_c(sm, core);
  if (st != Status::ok) return to_c(st);
  const std::size_t u = core.find(symbol);
  if (u == core.class_count) return GPUWCET_UNDESCRIBED_CLASS;
  const gpuwcet::Rational r = core.sigma(u);
  *num = r.num;
  *den = r.den;
  return GPUWCET_OK;
}

}  // extern "C"
