#pragma once
// Bit-exact helpers for the PTX floating-point formats: decoding f16/bf16/f32 bit patterns to
// double exactly, and encoding a double into any binary format (f16, bf16, tf32, f32) under a
// chosen rounding mode. The encoder rounds once from the double it is given, so callers pass
// either an exact value or a "round-to-odd" double (see float_exact.h), which makes the single
// rounding to a format of at most 24 significant bits exact for every mode.
#include <bit>
#include <cmath>
#include <cstdint>

namespace lockstep::func::fp {

// IEEE rounding directions, plus the round-half-away mode of cvt.rna.
enum class Round : uint8_t { Nearest, Zero, Down, Up, NearestAway };

// A binary floating-point format with an implicit leading bit, IEEE-style inf/NaN encodings.
struct Format {
  int exp_bits;
  int man_bits;
  constexpr int bias() const { return (1 << (exp_bits - 1)) - 1; }
  constexpr uint32_t sign_bit() const { return uint32_t{1} << (exp_bits + man_bits); }
  constexpr uint32_t inf_bits() const { return ((uint32_t{1} << exp_bits) - 1) << man_bits; }
  // The canonical NaN PTX results use: all exponent and mantissa bits set, sign clear
  // (0x7fff for f16 and bf16, 0x7fffffff for f32).
  constexpr uint32_t canonical_nan() const { return sign_bit() - 1; }
  constexpr uint32_t max_finite() const { return inf_bits() - 1; }
};

inline constexpr Format kF16{5, 10};
inline constexpr Format kBF16{8, 7};
inline constexpr Format kTF32{8, 10};  // stored in the top 19 bits of an f32 register
inline constexpr Format kF32{8, 23};

inline constexpr uint32_t kF32CanonicalNaN = 0x7fffffffu;
inline constexpr uint16_t kHalfCanonicalNaN = 0x7fffu;  // f16 and bf16

// Classification of an encoded value.
inline bool is_nan(uint32_t bits, Format f) {
  const uint32_t mag = bits & (f.sign_bit() - 1);
  return mag > f.inf_bits();
}
inline bool is_inf(uint32_t bits, Format f) { return (bits & (f.sign_bit() - 1)) == f.inf_bits(); }
inline bool is_subnormal(uint32_t bits, Format f) {
  const uint32_t mag = bits & (f.sign_bit() - 1);
  return mag != 0 && mag < (uint32_t{1} << f.man_bits);
}
// .ftz on an input or result: a subnormal becomes a zero of the same sign.
inline uint32_t flush_subnormal(uint32_t bits, Format f) {
  return is_subnormal(bits, f) ? (bits & f.sign_bit()) : bits;
}

// The exact value of an encoded number (every format here fits a double exactly).
inline double decode(uint32_t bits, Format f) {
  const bool neg = (bits & f.sign_bit()) != 0;
  const uint32_t exp = (bits >> f.man_bits) & ((uint32_t{1} << f.exp_bits) - 1);
  const uint32_t man = bits & ((uint32_t{1} << f.man_bits) - 1);
  double v;
  if (exp == (uint32_t{1} << f.exp_bits) - 1) {
    v = man == 0 ? HUGE_VAL : std::nan("");
  } else if (exp == 0) {
    v = std::ldexp(static_cast<double>(man), 1 - f.bias() - f.man_bits);
  } else {
    v = std::ldexp(static_cast<double>(man | (uint32_t{1} << f.man_bits)),
                   static_cast<int>(exp) - f.bias() - f.man_bits);
  }
  return neg ? -v : v;
}

// Whether rounding the magnitude m + frac (0 <= frac < 1) goes up to m + 1.
inline bool rounds_up(Round r, bool negative, double frac, uint64_t m) {
  switch (r) {
    case Round::Nearest: return frac > 0.5 || (frac == 0.5 && (m & 1) != 0);
    case Round::NearestAway: return frac >= 0.5;
    case Round::Zero: return false;
    case Round::Up: return !negative && frac > 0.0;
    case Round::Down: return negative && frac > 0.0;
  }
  return false;
}

// The bits of v rounded to format f under r. NaN becomes the canonical NaN of f; overflow
// gives infinity or the largest finite value as IEEE 754 prescribes for the mode.
inline uint32_t encode(double v, Format f, Round r) {
  if (std::isnan(v)) return f.canonical_nan();
  const bool neg = std::signbit(v);
  const uint32_t sign = neg ? f.sign_bit() : 0;
  if (std::isinf(v)) return sign | f.inf_bits();
  const double a = std::fabs(v);
  if (a == 0.0) return sign;
  int e2 = 0;
  std::frexp(a, &e2);  // a = fr * 2^e2 with fr in [0.5, 1): the leading bit weighs 2^(e2-1)
  const int emin = 1 - f.bias();
  const int lead = std::max(e2 - 1, emin);
  int quantum = lead - f.man_bits;                       // weight of the last kept bit
  const double scaled = std::ldexp(a, -quantum);         // exact: a power-of-two scaling
  const double whole = std::floor(scaled);
  uint64_t m = static_cast<uint64_t>(whole);
  if (rounds_up(r, neg, scaled - whole, m)) ++m;
  if (m >> (f.man_bits + 1)) {                           // carried into a new binade
    m >>= 1;
    ++quantum;
  }
  const uint64_t hidden = uint64_t{1} << f.man_bits;
  const int biased = m >= hidden ? quantum + f.man_bits + f.bias() : 0;
  if (biased >= (1 << f.exp_bits) - 1) {
    const bool to_inf = r == Round::Nearest || r == Round::NearestAway ||
                        (r == Round::Up && !neg) || (r == Round::Down && neg);
    return sign | (to_inf ? f.inf_bits() : f.max_finite());
  }
  return sign | (static_cast<uint32_t>(biased) << f.man_bits) |
         static_cast<uint32_t>(m & (hidden - 1));
}

// f32 <-> bits and the common conversions of the half formats.
inline float f32_of(uint32_t bits) { return std::bit_cast<float>(bits); }
inline uint32_t bits_of(float v) { return std::bit_cast<uint32_t>(v); }
inline double f64_of(uint64_t bits) { return std::bit_cast<double>(bits); }
inline uint64_t bits_of(double v) { return std::bit_cast<uint64_t>(v); }

inline float half_to_f32(uint16_t h) { return static_cast<float>(decode(h, kF16)); }
inline float bf16_to_f32(uint16_t h) { return f32_of(static_cast<uint32_t>(h) << 16); }

}  // namespace lockstep::func::fp
