#pragma once
// Element-level helpers shared by the floating-point handlers: reading an operand with
// optional flush-to-zero, and finishing a result the way the hardware writes it (canonical
// NaN, .ftz flush, .sat clamp, .relu clamp).
#include <cmath>
#include <cstdint>

#include "func/ops/float_bits.h"
#include "func/ops/float_exact.h"
#include "func/ops/float_form.h"

namespace lockstep::func::fp {

inline float f32_in(uint64_t slot, bool ftz) {
  uint32_t b = static_cast<uint32_t>(slot);
  if (ftz) b = flush_subnormal(b, kF32);
  return f32_of(b);
}

inline uint64_t f32_out(float r, const Mode& m) {
  uint32_t b = bits_of(r);
  if (std::isnan(r)) b = kF32CanonicalNaN;
  if (m.ftz) b = flush_subnormal(b, kF32);
  if (m.sat) {
    // .sat clamps to [0.0, 1.0]; NaN and every negative value (also -0.0) give +0.0.
    if (std::isnan(r) || (b & 0x80000000u) != 0) b = 0;
    else if (r > 1.0f) b = 0x3f800000u;
  }
  return b;
}

// A quiet f32 result without modifiers: only the NaN is canonicalised.
inline uint64_t f32_plain(float r) { return std::isnan(r) ? kF32CanonicalNaN : bits_of(r); }

template <bool Bf16>
constexpr Format half_format() {
  return Bf16 ? kBF16 : kF16;
}

template <bool Bf16>
double half_in(uint64_t slot, bool ftz) {
  uint32_t h = static_cast<uint32_t>(slot & 0xffff);
  if (ftz) h = flush_subnormal(h, half_format<Bf16>());
  return decode(h, half_format<Bf16>());
}

// Rounds v (exact or round-to-odd) to the half format and applies the result modifiers.
template <bool Bf16>
uint64_t half_out(double v, const Mode& m) {
  constexpr Format f = half_format<Bf16>();
  uint32_t h = encode(v, f, m.round);
  const bool nan = is_nan(h, f);
  if (m.ftz) h = flush_subnormal(h, f);
  if (m.sat) {
    if (nan || (h & f.sign_bit()) != 0) h = 0;
    else if (v > 1.0) h = encode(1.0, f, Round::Nearest);
  }
  if (m.relu && !nan && (h & f.sign_bit()) != 0) h = 0;  // NaN stays the canonical NaN
  return h;
}

// Round-to-odd of p + c with the IEEE sign of an exact zero sum: +0 unless both addends
// are -0, except that rounding down gives -0 unless both are +0.
inline double sum_for_mode(double p, double c, Round r) {
  const double s = sum_odd(p, c);
  if (s == 0.0 && r == Round::Down && !(p == 0.0 && c == 0.0 && !std::signbit(p) &&
                                        !std::signbit(c))) {
    return -0.0;
  }
  return s;
}

}  // namespace lockstep::func::fp
