// cvt between float and integer types.
// float -> integer: .rni/.rzi/.rmi/.rpi round to an integral value, the result saturates to
// the destination range (PTX saturates float-to-integer conversions always), NaN gives 0, and
// .ftz flushes a subnormal f32 source first. A register wider than the destination type gets
// the value sign-extended (.sN) or zero-extended (.uN).
// integer -> float: rounded once in the requested mode (.rn by default). Integers of up to 53
// bits are exact in double; wider ones are folded to a round-to-odd double first, so the
// single rounding to f32/f16/bf16 is exact; f64 results of 64-bit integers use the host FPU
// in the requested mode.
#include <bit>
#include <cmath>
#include <limits>
#include <type_traits>

#include "func/ops/float_cvt.h"
#include "func/ops/float_element.h"
#include "func/ops/float_fenv.h"
#include "func/ops/float_lanes.h"
#include "ir/types.h"

namespace lockstep::func::fp {
namespace {

// ---- float -> integer --------------------------------------------------------------------
template <Kind S>
double read_float(uint64_t slot, bool ftz) {
  if constexpr (S == Kind::F16) return half_in<false>(slot, ftz);
  if constexpr (S == Kind::BF16) return half_in<true>(slot, ftz);
  if constexpr (S == Kind::F32) return f32_in(slot, ftz);
  if constexpr (S == Kind::F64) return f64_of(slot);
}

inline double round_integral(double v, Round r) {
  switch (r) {
    case Round::Zero: return std::trunc(v);
    case Round::Down: return std::floor(v);
    case Round::Up: return std::ceil(v);
    case Round::NearestAway: return std::round(v);
    case Round::Nearest: break;
  }
  return std::nearbyint(v);  // the default environment rounds ties to even
}

template <class I, Kind S>
uint64_t to_int(uint64_t a, uint64_t aux) {
  const Mode m = unpack(aux);
  const double v = round_integral(read_float<S>(a, m.ftz), m.round);
  I r;
  if (std::isnan(v)) {
    r = 0;
  } else if (v <= static_cast<double>(std::numeric_limits<I>::min())) {
    r = std::numeric_limits<I>::min();
  } else if (v >= static_cast<double>(std::numeric_limits<I>::max())) {
    // max() of a 64-bit type rounds up to 2^63 / 2^64 in double, so >= also catches them.
    r = std::numeric_limits<I>::max();
  } else {
    r = static_cast<I>(v);
  }
  return std::is_signed_v<I> ? static_cast<uint64_t>(static_cast<int64_t>(r))
                             : static_cast<uint64_t>(r);
}

// The register mask travels in aux2; the mode in aux.
template <class I, Kind S>
void to_int_h(const ExecInst& in, Warp& w) {
  uint64_t* d = w.r(in.d[0]);
  const uint64_t* a = w.r(in.s[0]);
  for_each_lane(w.exec, [&](uint32_t l) { d[l] = to_int<I, S>(a[l], in.aux) & in.aux2; });
}

// ---- integer -> float --------------------------------------------------------------------
// The round-to-odd double of an unsigned 64-bit magnitude.
inline double odd_double(uint64_t x) {
  const int width = 64 - std::countl_zero(x);
  if (width <= 53) return static_cast<double>(x);
  const int drop = width - 53;
  uint64_t kept = x >> drop;
  if ((x & ((uint64_t{1} << drop) - 1)) != 0) kept |= 1;  // sticky bit makes it round-to-odd
  return std::ldexp(static_cast<double>(kept), drop);
}

template <class I>
double int_odd(I v) {
  if constexpr (std::is_signed_v<I>) {
    const uint64_t mag = v < 0 ? uint64_t{0} - static_cast<uint64_t>(static_cast<int64_t>(v))
                               : static_cast<uint64_t>(v);
    const double d = odd_double(mag);
    return v < 0 ? -d : d;
  } else {
    return odd_double(static_cast<uint64_t>(v));
  }
}

template <Kind D, class I>
uint64_t from_int(uint64_t a, uint64_t aux) {
  const Mode m = unpack(aux);
  const I v = get<I>(a);
  if constexpr (D == Kind::F64) {
    if constexpr (sizeof(I) == 8) {
      if (m.round != Round::Nearest) {
        return bits_of(std::is_signed_v<I> ? f64_from_s64(static_cast<int64_t>(v), m.round)
                                           : f64_from_u64(static_cast<uint64_t>(v), m.round));
      }
    }
    double r = static_cast<double>(v);
    if (m.sat) r = std::fmin(std::fmax(r, 0.0), 1.0);
    return bits_of(r);
  } else if constexpr (D == Kind::F32) {
    return f32_out(f32_of(encode(int_odd(v), kF32, m.round)), m);
  } else {
    return half_out<D == Kind::BF16>(int_odd(v), m);
  }
}

// ---- dispatch ----------------------------------------------------------------------------
template <class F>
Handler with_int(Kind k, F&& f) {
  switch (k) {
    case Kind::S8: return f(std::type_identity<int8_t>{});
    case Kind::S16: return f(std::type_identity<int16_t>{});
    case Kind::S32: return f(std::type_identity<int32_t>{});
    case Kind::S64: return f(std::type_identity<int64_t>{});
    case Kind::U8: return f(std::type_identity<uint8_t>{});
    case Kind::U16: return f(std::type_identity<uint16_t>{});
    case Kind::U32: return f(std::type_identity<uint32_t>{});
    case Kind::U64: return f(std::type_identity<uint64_t>{});
    default: return nullptr;
  }
}

template <Kind S>
Handler to_int_handler(Kind dst) {
  return with_int(dst, []<class I>(std::type_identity<I>) -> Handler { return &to_int_h<I, S>; });
}

template <Kind D>
Handler from_int_handler(Kind src) {
  return with_int(src, []<class I>(std::type_identity<I>) -> Handler {
    return &unary_h<from_int<D, I>>;
  });
}

}  // namespace

uint64_t register_mask(const ir::Operand& dst) {
  const uint32_t bytes = dst.kind == ir::Operand::Kind::Reg ? ir::type_size(dst.reg_type) : 8;
  return bytes >= 8 || bytes == 0 ? ~uint64_t{0} : (uint64_t{1} << (8 * bytes)) - 1;
}

ExecInst bind_cvt_int(const ir::Instruction& inst, BindContext& ctx, const FloatForm& f) {
  const Kind dst = f.types[0], src = f.types[1];
  Handler h = nullptr;
  Mode m = mode_of(f);
  if (is_float(src)) {
    // float -> integer: an integer rounding is required; .relu/.satfinite do not apply.
    if (!f.int_round || f.round || f.relu || f.satfinite) ctx.unsupported(inst);
    m.round = *f.int_round;
    switch (src) {
      case Kind::F16: h = to_int_handler<Kind::F16>(dst); break;
      case Kind::BF16: h = to_int_handler<Kind::BF16>(dst); break;
      case Kind::F32: h = to_int_handler<Kind::F32>(dst); break;
      case Kind::F64: h = to_int_handler<Kind::F64>(dst); break;
      default: break;
    }
  } else {
    if (f.int_round || f.round == Round::NearestAway || f.satfinite) ctx.unsupported(inst);
    if (f.relu && dst != Kind::F16 && dst != Kind::BF16) ctx.unsupported(inst);
    switch (dst) {
      case Kind::F16: h = from_int_handler<Kind::F16>(src); break;
      case Kind::BF16: h = from_int_handler<Kind::BF16>(src); break;
      case Kind::F32: h = from_int_handler<Kind::F32>(src); break;
      case Kind::F64: h = from_int_handler<Kind::F64>(src); break;
      default: break;
    }
  }
  if (h == nullptr) ctx.unsupported(inst);
  ctx.expect_operands(inst, 2);
  ExecInst e = make_exec(inst, h);
  e.d[0] = dest_slot(ctx, inst, 0);
  e.nd = 1;
  e.s[0] = source_slot(ctx, inst, 1, src);
  e.ns = 1;
  e.aux = pack(m);
  e.aux2 = register_mask(inst.operands[0]);
  return e;
}

}  // namespace lockstep::func::fp
