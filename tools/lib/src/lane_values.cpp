// Affine lane values of a PTX warp trace (lane_values.hpp).
#include "gpuwcet_tools/lane_values.hpp"

#include <cstddef>

#include "gpuwcet_tools/opcode_classes.hpp"
#include "gpuwcet_tools/trace_parsing.hpp"

namespace gpuwcet::tools {

namespace {

using detail::starts_with;
using detail::trim;

bool float_typed(std::string_view opcode) {
  return has_component(opcode, "f16") || has_component(opcode, "f16x2") || has_component(opcode, "bf16") ||
         has_component(opcode, "f32") || has_component(opcode, "f64");
}

std::optional<std::int64_t> parse_integer(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (!s.empty() && (s.back() == 'U' || s.back() == 'u')) s.remove_suffix(1);
  std::optional<std::uint64_t> v;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    v = detail::parse_uint(s.substr(2), ~std::uint64_t{0}, 16);
  } else {
    v = detail::parse_uint(s, ~std::uint64_t{0});
  }
  if (!v) return std::nullopt;
  const auto magnitude = static_cast<std::int64_t>(*v);  // wraps like the register would
  return negative ? -magnitude : magnitude;
}

bool checked_mul(std::int64_t a, std::int64_t b, std::int64_t& out) {
  return !__builtin_mul_overflow(a, b, &out);
}

bool checked_add(std::int64_t a, std::int64_t b, std::int64_t& out) {
  return !__builtin_add_overflow(a, b, &out);
}

// Outliers survive operations with a value the same in every lane only.
bool outliers_allowed(const LaneValue& a, const LaneValue& b) {
  return (a.outliers == 0 || b.is_uniform()) && (b.outliers == 0 || a.is_uniform());
}

LaneValue add(const LaneValue& a, const LaneValue& b, bool subtract) {
  if (a.varying || b.varying || !outliers_allowed(a, b)) return LaneValue::unknown();
  LaneValue r;
  r.varying = false;
  r.outliers = static_cast<std::uint8_t>(a.outliers + b.outliers);
  r.base_known = a.base_known && b.base_known;
  if (r.base_known) {
    std::int64_t nb = b.base;
    if (subtract && !checked_mul(nb, -1, nb)) return LaneValue::unknown();
    r.base_known = checked_add(a.base, nb, r.base);
  }
  for (int d = 0; d < 3; ++d) {
    const LaneValue::Term& x = a.tid[static_cast<std::size_t>(d)];
    const LaneValue::Term& y = b.tid[static_cast<std::size_t>(d)];
    LaneValue::Term& t = r.tid[static_cast<std::size_t>(d)];
    if (y.zero()) {
      t = x;
    } else if (x.zero() && !subtract) {
      t = y;
    } else if (x.known && y.known) {
      std::int64_t ny = y.value;
      t.known = (!subtract || checked_mul(ny, -1, ny)) && checked_add(x.value, ny, t.value);
      if (!t.known) t.value = 0;
    } else {
      t = LaneValue::Term{false, 0};
    }
  }
  return r;
}

LaneValue scale(const LaneValue& v, std::int64_t c) {
  if (v.varying) return LaneValue::unknown();
  if (c == 0) return LaneValue::constant(0);
  LaneValue r = v;
  r.symbol = 0;  // another base
  if (r.base_known && !checked_mul(v.base, c, r.base)) r.base_known = false;
  for (LaneValue::Term& t : r.tid) {
    if (t.known && !checked_mul(t.value, c, t.value)) t = LaneValue::Term{false, 0};
  }
  return r;
}

LaneValue multiply(const LaneValue& a, const LaneValue& b) {
  if (a.is_constant()) return scale(b, a.base);
  if (b.is_constant()) return scale(a, b.base);
  if (a.varying || b.varying || !outliers_allowed(a, b)) return LaneValue::unknown();
  if (a.is_uniform() && b.is_uniform()) return LaneValue::uniform();
  if (!a.is_uniform() && !b.is_uniform()) return LaneValue::unknown();  // quadratic in tid
  // An unknown uniform factor times an affine value: still affine, with
  // unknown multipliers where the affine one had any.
  const LaneValue& affine = a.is_uniform() ? b : a;
  LaneValue r;
  r.varying = false;
  r.outliers = affine.outliers;
  for (std::size_t d = 0; d < 3; ++d) {
    if (!affine.tid[d].zero()) r.tid[d] = LaneValue::Term{false, 0};
  }
  return r;
}

// Lanes of a warp that do not write (guard false) keep their value.
LaneValue join(const LaneValue& a, const LaneValue& b) {
  if (a == b) return a;
  if (a.varying || b.varying || a.outliers != 0 || b.outliers != 0) return LaneValue::unknown();
  LaneValue r;
  r.varying = false;
  for (std::size_t d = 0; d < 3; ++d) {
    const LaneValue::Term& x = a.tid[d];
    const LaneValue::Term& y = b.tid[d];
    if (x.known && y.known && x.value == y.value) {
      r.tid[d] = x;
    } else {
      return LaneValue::unknown();
    }
  }
  return r;
}

// Two abstract values that are surely the same number in every lane: equal
// and identified. (Two "uniform, value unknown" may differ.)
bool identical(const LaneValue& a, const LaneValue& b) { return a == b && a.identified(); }

// What identifies a value: its base (known or named) and multipliers; empty
// when it is not identified.
std::string identity(const LaneValue& v) {
  if (!v.identified()) return {};
  std::string id = v.base_known ? 'k' + std::to_string(v.base) : 's' + std::to_string(v.symbol);
  for (const LaneValue::Term& t : v.tid) id += ',' + std::to_string(t.value);
  return id;
}

// A value that is `a` in some lanes and `b` in the others: when one is the
// same in every lane, the other with one more outlier.
LaneValue with_outlier(const LaneValue& a, const LaneValue& b) {
  if (a.varying || b.varying) return LaneValue::unknown();
  if (identical(a, b)) return a;
  const bool a_uniform = a.is_uniform();
  if (!a_uniform && !b.is_uniform()) return LaneValue::unknown();
  LaneValue r = a_uniform ? b : a;
  if (r.outliers >= LaneValue::kMaxOutliers) return LaneValue::unknown();
  ++r.outliers;
  r.symbol = 0;
  return r;
}

// Results that depend on which lanes run or on other lanes' values.
bool lane_dependent(std::string_view opcode) {
  const std::string_view base = opcode.substr(0, opcode.find('.'));
  static constexpr std::string_view kOps[] = {"vote", "activemask", "redux", "match", "shfl", "elect"};
  for (std::string_view k : kOps) {
    if (base == k) return true;
  }
  return (base == "bar" || base == "barrier") && has_component(opcode, "red");
}

bool is_memory(std::string_view base) {
  return base == "ld" || base == "ldu" || base == "st" || base == "atom" || base == "red";
}

}  // namespace

LaneValue LaneValue::uniform() {
  LaneValue v;
  v.varying = false;
  return v;
}

LaneValue LaneValue::constant(std::int64_t value) {
  LaneValue v = uniform();
  v.base_known = true;
  v.base = value;
  return v;
}

LaneValue LaneValue::thread_index(int dim) {
  LaneValue v = constant(0);
  v.tid[static_cast<std::size_t>(dim)] = Term{true, 1};
  return v;
}

bool LaneValue::is_uniform() const {
  return !varying && outliers == 0 && tid[0].zero() && tid[1].zero() && tid[2].zero();
}

bool LaneValue::known_everywhere() const {
  if (varying || !base_known || outliers != 0) return false;
  for (const Term& t : tid) {
    if (!t.known) return false;
  }
  return true;
}

bool LaneValue::identified() const {
  if (varying || outliers != 0 || (!base_known && symbol == 0)) return false;
  for (const Term& t : tid) {
    if (!t.known) return false;
  }
  return true;
}

bool LaneValue::operator==(const LaneValue& o) const {
  if (varying || o.varying) return varying && o.varying;
  if (base_known != o.base_known || (base_known && base != o.base) || outliers != o.outliers ||
      symbol != o.symbol) {
    return false;
  }
  for (std::size_t d = 0; d < 3; ++d) {
    if (tid[d].known != o.tid[d].known || tid[d].value != o.tid[d].value) return false;
  }
  return true;
}

std::optional<BlockShape> parse_block_shape(std::string_view text) {
  BlockShape s;
  std::array<std::uint32_t*, 3> dims{&s.x, &s.y, &s.z};
  std::size_t k = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t comma = text.find(',', pos);
    const std::string_view part = trim(text.substr(pos, comma == std::string_view::npos
                                                            ? std::string_view::npos
                                                            : comma - pos));
    if (k == dims.size()) return std::nullopt;
    const auto v = detail::parse_uint(part, 1024);
    if (!v || *v == 0) return std::nullopt;
    *dims[k++] = static_cast<std::uint32_t>(*v);
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  if (std::uint64_t{s.x} * s.y * s.z > 1024) return std::nullopt;
  return s;
}

LaneValue LaneValueAnalysis::operand(std::string_view text) const {
  text = trim(text);
  if (text.empty()) return LaneValue::unknown();
  if (text[0] == '{' || text[0] == '[') return LaneValue::unknown();
  if (text[0] == '!') text.remove_prefix(1);
  if (text[0] == '%') {
    static constexpr std::string_view kDims = "xyz";
    for (std::size_t d = 0; d < 3; ++d) {
      const std::string dim(1, kDims[d]);
      if (text == "%tid." + dim) return LaneValue::thread_index(static_cast<int>(d));
      if (text == "%ntid." + dim && shape_.known()) {
        const std::array<std::uint32_t, 3> n{shape_.x, shape_.y, shape_.z};
        return LaneValue::constant(n[d]);
      }
    }
    // Fixed for the whole launch: named. %warpid and %smid may change when
    // a warp is preempted and moved.
    static constexpr std::string_view kFixedSpecial[] = {"%ntid", "%ctaid", "%nctaid", "%gridid"};
    for (std::string_view s : kFixedSpecial) {
      if (text == s || starts_with(text, std::string(s) + ".")) return named(text);
    }
    static constexpr std::string_view kUniformSpecial[] = {"%warpid", "%nwarpid", "%smid", "%nsmid"};
    for (std::string_view s : kUniformSpecial) {
      if (text == s || starts_with(text, std::string(s) + ".")) return LaneValue::uniform();
    }
    const auto it = regs_.find(std::string(text));
    if (it == regs_.end()) return LaneValue::unknown();
    return it->second.epoch == epoch_ ? it->second.value : it->second.held;
  }
  if (starts_with(text, "0f") || starts_with(text, "0F") || starts_with(text, "0d") ||
      starts_with(text, "0D")) {
    return LaneValue::uniform();  // floating-point immediate
  }
  if (auto v = parse_integer(text)) return LaneValue::constant(*v);
  // A symbol: a kernel parameter, a shared or global variable's address.
  return named(text);
}

std::uint64_t LaneValueAnalysis::intern(const std::string& key) const {
  return symbols_.emplace(key, symbols_.size() + 1).first->second;
}

LaneValue LaneValueAnalysis::named(std::string_view name) const {
  LaneValue v = LaneValue::uniform();
  v.symbol = intern('@' + std::string(name));
  return v;
}

LaneValue LaneValueAnalysis::identify(LaneValue result, std::string_view opcode,
                                      const std::vector<std::string_view>& ops) const {
  // The same operation on identified operands gives the same result: name
  // its base after them.
  if (result.varying || result.base_known || result.symbol != 0 || result.outliers != 0) {
    return result;
  }
  std::string key(opcode);
  for (std::size_t k = 1; k < ops.size(); ++k) {
    const std::string id = identity(operand(ops[k]));
    if (id.empty()) return result;
    key += '|' + id;
  }
  result.symbol = intern(key);
  return result;
}

LaneValue LaneValueAnalysis::address(std::string_view bracketed) const {
  std::string_view inner = trim(bracketed);
  if (inner.size() < 2 || inner.front() != '[' || inner.back() != ']') return LaneValue::unknown();
  inner = trim(inner.substr(1, inner.size() - 2));
  // base, base+offset, base+-offset, base-offset
  std::size_t split = std::string_view::npos;
  for (std::size_t i = 1; i < inner.size(); ++i) {
    if (inner[i] == '+' || (inner[i] == '-' && inner[i - 1] != '+')) {
      split = i;
      break;
    }
  }
  if (split == std::string_view::npos) return operand(inner);
  const LaneValue base = operand(trim(inner.substr(0, split)));
  std::string_view off = trim(inner.substr(split));
  if (!off.empty() && off[0] == '+') off.remove_prefix(1);
  const auto offset = parse_integer(trim(off));
  if (!offset) return add(base, operand(off), false);
  return add(base, LaneValue::constant(*offset), false);
}

void LaneValueAnalysis::assign(std::string_view dst, const LaneValue& v, std::string_view guard) {
  dst = trim(dst);
  if (dst.empty() || dst[0] == '[') return;
  if (dst[0] == '{') {  // vector destination: every element is loaded data
    std::size_t pos = 1;
    while (pos < dst.size()) {
      std::size_t end = dst.find_first_of(",}", pos);
      if (end == std::string_view::npos) end = dst.size();
      const std::string_view name = trim(dst.substr(pos, end - pos));
      if (!name.empty()) assign(name, LaneValue::unknown(), guard);
      pos = end + 1;
    }
    return;
  }
  // "%p1|%p2": setp's two predicate results.
  if (const std::size_t bar = dst.find('|'); bar != std::string_view::npos) {
    assign(dst.substr(0, bar), v, guard);
    assign(dst.substr(bar + 1), v, guard);
    return;
  }
  if (dst[0] != '%') return;
  const std::string name(dst);
  predicates_.erase(name);
  auto it = regs_.find(name);
  // The lanes running now read `v` until lanes may join (lane_values.hpp);
  // `held` is what every lane holding the register has after that.
  LaneValue value = v;
  LaneValue held = v;
  // Whether every lane that holds the register makes this write.
  bool cover = true;
  if (it != regs_.end() && lanes_ != Lanes::all) {
    // The warp may be split: this write may reach only some of the lanes
    // that hold the old value. It reaches them all when no lanes have
    // parted since the register's first write (lanes joining since never
    // wrote it), or when it is in the same straight run as a write that
    // reached them all.
    const Register& old = it->second;
    cover = old.first_split == splits_ || (old.run == run_ && old.cover);
    if (!cover && !identical(old.held, v)) {
      held = lanes_ == Lanes::known ? mix(v, old.held) : LaneValue::unknown();
    }
  }
  if (!guard.empty()) {
    // A uniform guard writes every running lane or none; otherwise some
    // running lanes keep the old value.
    const bool uniform = operand(guard).is_uniform();
    const LaneValue now = it == regs_.end() ? LaneValue::unknown() : operand(dst);
    const LaneValue before = it == regs_.end() ? LaneValue::unknown() : it->second.held;
    // A guard that differs between lanes leaves each lane the old value or
    // the written one.
    value = uniform ? join(now, value) : (identical(now, value) ? value : with_outlier(now, value));
    held = uniform ? join(before, held) : (identical(before, held) ? held : with_outlier(before, held));
    cover = false;
  }
  if (it == regs_.end()) {
    regs_.emplace(name, Register{value, held, epoch_, run_, splits_, epoch_, cover, true});
  } else {
    Register& r = it->second;
    r.value = value;
    r.held = held;
    r.epoch = epoch_;
    r.run = run_;
    r.cover = cover;
    r.written_once = false;
  }
}

AccessCost LaneValueAnalysis::step(std::string_view opcode, std::string_view guard,
                                   const std::vector<std::string_view>& operands,
                                   TraceLocation at) {
  if (starts_with(guard, "@")) guard.remove_prefix(1);
  bool followed = false, left = false;
  if (flow_ != nullptr) {
    followed = follow_flow(at, opcode);
    left = !followed;
  }
  if (followed) {
    branch_.reset();
    remember(at);
  } else {
    enter(at, !left && reads_fresh_register(opcode, guard, operands));
  }
  const std::string_view base = opcode.substr(0, opcode.find('.'));
  AccessCost cost;
  const std::vector<std::string_view>& ops = operands;
  auto src = [&](std::size_t k) { return k < ops.size() ? operand(ops[k]) : LaneValue::unknown(); };

  if (is_memory(base)) {
    const MemorySpace space = memory_space(opcode);
    for (std::string_view o : ops) {
      if (!starts_with(trim(o), "[")) continue;
      const LaneValue addr = address(o);
      if (space != MemorySpace::other) {
        const std::uint32_t bytes = access_bytes(opcode);
        std::string key = std::to_string(static_cast<int>(space)) + ':' + std::to_string(bytes);
        if (!addr.varying) {
          for (const LaneValue::Term& t : addr.tid) {
            key += t.known ? ':' + std::to_string(t.value) : std::string(":?");
          }
          key += '+' + std::to_string(addr.outliers);
        }
        if (!mask_full_) {
          // Only the threads that may run it (not cached: masks vary).
          cost = cost_of_access(space, addr, bytes, shape_, &mask_);
        } else {
          auto it = costs_.find(key);
          if (it == costs_.end()) {
            it = costs_.emplace(key, cost_of_access(space, addr, bytes, shape_)).first;
          }
          cost = it->second;
        }
      }
      if (base == "st" && has_component(opcode, "param")) params_written_ = true;
      if (!ptx_writes_nothing(opcode) && !ops.empty()) {
        // Data read from one address is the same in every lane (not in
        // local memory, private to each thread); kernel parameters and the
        // constant bank do not change during the kernel (a call's
        // parameters, written by st.param, are per lane).
        const bool param = has_component(opcode, "param");
        const bool uniform_data = addr.is_uniform() && base != "atom" &&
                                  space != MemorySpace::local && !(param && params_written_);
        LaneValue data = uniform_data ? LaneValue::uniform() : LaneValue::unknown();
        const std::string where = identity(addr);
        if (uniform_data && (param || has_component(opcode, "const")) && !where.empty()) {
          data.symbol = intern(std::string(opcode) + '[' + where + ']');
        }
        assign(ops[0], data, guard);
      }
      return cost;
    }
    if (!ptx_writes_nothing(opcode) && !ops.empty()) assign(ops[0], LaneValue::unknown(), guard);
    return cost;
  }
  if (base == "bra" || base == "brx") {
    branch(base, guard, ops);
    return cost;
  }
  if (base == "ret" || base == "exit") {
    exit_guard_ = ExitGuard{};
    exit_guard_.uniform = guard.empty() || operand(guard).is_uniform();
    if (!exit_guard_.uniform) exit_guard_.leaving = where_guard(guard, true, exit_guard_.exact);
  }
  if ((base == "ret" || base == "exit") && !guard.empty() && !operand(guard).is_uniform()) {
    lanes_ = Lanes::unknown;  // some lanes leave
    ++run_;
  }
  if (base == "call") params_written_ = true;
  if (ptx_writes_nothing(opcode) || ops.empty()) return cost;

  const bool is_float = float_typed(opcode);
  LaneValue result = LaneValue::unknown();
  if (base == "mov") {
    result = src(1);
  } else if (base == "cvta" && has_component(opcode, "local")) {
    result = LaneValue::unknown();  // each thread's own local window
  } else if (base == "cvta" || (base == "cvt" && !is_float)) {
    result = src(1);
    result.symbol = 0;  // a conversion is named after its own operation
  } else if (lane_dependent(opcode)) {
    result = LaneValue::unknown();
  } else if (!is_float && (base == "add" || base == "sub")) {
    result = add(src(1), src(2), base == "sub");
  } else if (!is_float && base == "mul" && !has_component(opcode, "hi")) {
    result = multiply(src(1), src(2));
  } else if (!is_float && base == "mad" && !has_component(opcode, "hi")) {
    result = add(multiply(src(1), src(2)), src(3), false);
  } else if (!is_float && base == "shl" && src(2).is_constant() && src(2).base >= 0 &&
             src(2).base < 62) {
    result = scale(src(1), std::int64_t{1} << src(2).base);
  } else if (!is_float && base == "neg") {
    result = scale(src(1), -1);
  } else if (!is_float && (base == "max" || base == "min") &&
             !(src(1).is_uniform() && src(2).is_uniform())) {
    // Each lane keeps its affine value or the bound, the same in every lane.
    result = with_outlier(src(1), src(2));
  } else if (base == "selp" && !src(3).is_uniform()) {
    // Each lane picks one of the two.
    result = with_outlier(src(1), src(2));
  } else {
    // Anything else of uniform operands is uniform; of varying ones, varying.
    bool uniform = true;
    for (std::size_t k = 1; k < ops.size(); ++k) uniform = uniform && src(k).is_uniform();
    result = uniform ? LaneValue::uniform() : LaneValue::unknown();
  }
  assign(ops[0], identify(result, opcode, ops), guard);
  // A guarded comparison leaves the other lanes' predicate as it was.
  if ((base == "setp" || base == "and") && guard.empty()) record_predicate(base, opcode, ops);
  return cost;
}

}  // namespace gpuwcet::tools
