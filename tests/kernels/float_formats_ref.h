#pragma once
// Exact reference arithmetic for the narrow float formats the kernel tests check bit for bit
// (f16, bf16, f32 from wider values). A value is held exactly as (sign, integer significand,
// binary exponent) and rounded once to the target format in any IEEE rounding direction, so
// the reference never double-rounds the way float/double host arithmetic would.
#include <algorithm>
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <vector>

namespace lockstep::test {

__extension__ typedef unsigned __int128 U128;

enum class Round { kNearestEven, kTowardZero, kDown, kUp };

// An IEEE binary format: significand bits after the leading one, exponent field bits.
struct FloatFormat {
  int mantissa_bits;
  int exponent_bits;
};
inline constexpr FloatFormat kHalfFormat{10, 5};
inline constexpr FloatFormat kBf16Format{7, 8};
inline constexpr FloatFormat kF32Format{23, 8};

// value = (-1)^negative * significand * 2^exponent, exactly.
struct ExactValue {
  bool negative = false;
  U128 significand = 0;
  int exponent = 0;
};

inline int bit_length(U128 v) {
  int n = 0;
  while (v != 0) {
    v >>= 1;
    ++n;
  }
  return n;
}

// Rounds an exact finite value to the format's bit pattern (sign included). Overflow gives
// infinity or the largest finite value as the direction demands; tiny values become
// subnormals or zero. Significands up to 120 bits.
inline uint64_t round_to_format(const ExactValue& v, FloatFormat f, Round mode) {
  const int m = f.mantissa_bits;
  const uint64_t sign = v.negative ? 1ull << (m + f.exponent_bits) : 0;
  if (v.significand == 0) return sign;
  if (bit_length(v.significand) > 120) throw std::logic_error("significand too wide");
  const int bias = (1 << (f.exponent_bits - 1)) - 1;
  const int top = v.exponent + bit_length(v.significand) - 1;  // value in [2^top, 2^(top+1))
  int quantum = std::max(top - m, 1 - bias - m);                // exponent of one unit in the last place
  U128 units;
  if (quantum <= v.exponent) {
    units = v.significand << (v.exponent - quantum);
  } else {
    const int shift = quantum - v.exponent;
    U128 rest = 0, half = 0;
    if (shift >= 124) {
      units = 0;
      rest = v.significand;
      half = U128{1} << 123;  // larger than any allowed significand: the value is below half a unit
    } else {
      units = v.significand >> shift;
      rest = v.significand & ((U128{1} << shift) - 1);
      half = U128{1} << (shift - 1);
    }
    bool up = false;
    switch (mode) {
      case Round::kNearestEven: up = rest > half || (rest == half && (units & 1) != 0); break;
      case Round::kTowardZero: up = false; break;
      case Round::kDown: up = rest != 0 && v.negative; break;
      case Round::kUp: up = rest != 0 && !v.negative; break;
    }
    if (up) ++units;
  }
  if (units >> (m + 1)) {  // rounding carried into the next binade
    units >>= 1;
    ++quantum;
  }
  const uint64_t max_biased = (1ull << f.exponent_bits) - 1;
  if (units < (U128{1} << m)) return sign | static_cast<uint64_t>(units);  // subnormal or zero
  const int64_t biased = quantum + m + bias;
  if (biased >= static_cast<int64_t>(max_biased)) {
    const bool to_infinity = mode == Round::kNearestEven || (mode == Round::kUp && !v.negative) ||
                             (mode == Round::kDown && v.negative);
    if (to_infinity) return sign | (max_biased << m);
    return sign | ((max_biased - 1) << m) | ((1ull << m) - 1);
  }
  return sign | (static_cast<uint64_t>(biased) << m) |
         static_cast<uint64_t>(units - (U128{1} << m));
}

// Decoders of finite values of the wider formats into exact form.
inline ExactValue exact_from_float(float x) {
  uint32_t b = std::bit_cast<uint32_t>(x);
  uint32_t e = (b >> 23) & 0xff, mant = b & 0x7fffff;
  ExactValue v;
  v.negative = (b >> 31) != 0;
  v.significand = e == 0 ? mant : (mant | 0x800000u);
  v.exponent = e == 0 ? -149 : static_cast<int>(e) - 150;
  return v;
}

inline ExactValue exact_from_double(double x) {
  uint64_t b = std::bit_cast<uint64_t>(x);
  uint64_t e = (b >> 52) & 0x7ff, mant = b & 0xfffffffffffffull;
  ExactValue v;
  v.negative = (b >> 63) != 0;
  v.significand = e == 0 ? mant : (mant | (1ull << 52));
  v.exponent = e == 0 ? -1074 : static_cast<int>(e) - 1075;
  return v;
}

inline ExactValue exact_from_half(uint16_t h) {
  uint32_t e = (h >> 10) & 0x1f, mant = h & 0x3ffu;
  ExactValue v;
  v.negative = (h >> 15) != 0;
  v.significand = e == 0 ? mant : (mant | 0x400u);
  v.exponent = e == 0 ? -24 : static_cast<int>(e) - 25;
  return v;
}

inline ExactValue exact_from_bf16(uint16_t h) {
  return exact_from_float(std::bit_cast<float>(static_cast<uint32_t>(h) << 16));
}

inline ExactValue exact_from_int(int64_t x) {
  ExactValue v;
  v.negative = x < 0;
  v.significand = x < 0 ? U128{0} - static_cast<U128>(x) : static_cast<U128>(x);  // |x|, INT64_MIN too
  v.exponent = 0;
  return v;
}

inline ExactValue exact_from_uint(uint64_t x) {
  ExactValue v;
  v.significand = x;
  return v;
}

inline double half_to_double(uint16_t h) {
  if (((h >> 10) & 0x1f) == 0x1f) {
    if (h & 0x3ff) return std::nan("");
    return (h >> 15) ? -INFINITY : INFINITY;
  }
  ExactValue v = exact_from_half(h);
  double d = std::ldexp(static_cast<double>(static_cast<uint64_t>(v.significand)), v.exponent);
  return v.negative ? -d : d;
}

inline float bf16_to_float(uint16_t h) { return std::bit_cast<float>(static_cast<uint32_t>(h) << 16); }

inline bool half_is_nan(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0; }
inline bool bf16_is_nan(uint16_t h) { return (h & 0x7f80) == 0x7f80 && (h & 0x7f) != 0; }

// Sum of two exact values (exponents within ~100 bits of each other).
inline ExactValue exact_add(const ExactValue& a, const ExactValue& b) {
  const int e = std::min(a.exponent, b.exponent);
  U128 ma = a.significand << (a.exponent - e), mb = b.significand << (b.exponent - e);
  ExactValue r;
  r.exponent = e;
  if (a.negative == b.negative) {
    r.negative = a.negative;
    r.significand = ma + mb;
  } else if (ma >= mb) {
    r.negative = a.negative;
    r.significand = ma - mb;
  } else {
    r.negative = b.negative;
    r.significand = mb - ma;
  }
  if (r.significand == 0) r.negative = a.negative && b.negative;  // x + (-x) = +0 when rounding to nearest
  return r;
}

inline ExactValue exact_mul(const ExactValue& a, const ExactValue& b) {
  ExactValue r;
  r.negative = a.negative != b.negative;
  r.significand = a.significand * b.significand;
  r.exponent = a.exponent + b.exponent;
  return r;
}

inline ExactValue exact_neg(ExactValue v) {
  v.negative = !v.negative;
  return v;
}

// Format conversions of finite or special inputs; NaN inputs give the format's canonical
// quiet NaN (tests only compare NaN-ness for those).
inline uint16_t float_to_half(float x, Round mode) {
  if (std::isnan(x)) return 0x7fff;
  if (std::isinf(x)) return x < 0 ? 0xfc00 : 0x7c00;
  return static_cast<uint16_t>(round_to_format(exact_from_float(x), kHalfFormat, mode));
}

inline uint16_t double_to_half(double x, Round mode) {
  if (std::isnan(x)) return 0x7fff;
  if (std::isinf(x)) return x < 0 ? 0xfc00 : 0x7c00;
  return static_cast<uint16_t>(round_to_format(exact_from_double(x), kHalfFormat, mode));
}

inline uint16_t float_to_bf16(float x, Round mode) {
  if (std::isnan(x)) return 0x7fff;
  if (std::isinf(x)) return x < 0 ? 0xff80 : 0x7f80;
  return static_cast<uint16_t>(round_to_format(exact_from_float(x), kBf16Format, mode));
}

inline uint32_t double_to_float_bits(double x, Round mode) {
  if (std::isnan(x)) return 0x7fffffffu;
  if (std::isinf(x)) return x < 0 ? 0xff800000u : 0x7f800000u;
  return static_cast<uint32_t>(round_to_format(exact_from_double(x), kF32Format, mode));
}

inline uint32_t int_to_float_bits(int64_t x, Round mode) {
  return static_cast<uint32_t>(round_to_format(exact_from_int(x), kF32Format, mode));
}

inline uint32_t uint_to_float_bits(uint64_t x, Round mode) {
  return static_cast<uint32_t>(round_to_format(exact_from_uint(x), kF32Format, mode));
}

// Rounds a double to an integral double in the given direction (exact for every double).
inline double round_integral(double x, Round mode) {
  switch (mode) {
    case Round::kNearestEven: {
      double f = std::floor(x), diff = x - f;
      if (diff > 0.5) return f + 1;
      if (diff < 0.5) return f;
      return std::fmod(f, 2.0) == 0 ? f : f + 1;
    }
    case Round::kTowardZero: return std::trunc(x);
    case Round::kDown: return std::floor(x);
    case Round::kUp: return std::ceil(x);
  }
  return x;
}

// PTX cvt float->integer: round in the given direction, saturate to [lo, hi], NaN -> 0.
template <class Int>
Int float_to_int_sat(double x, Round mode) {
  if (std::isnan(x)) return 0;
  double r = round_integral(x, mode);
  const double lo = static_cast<double>(std::numeric_limits<Int>::min());
  const double past_hi = std::ldexp(1.0, std::numeric_limits<Int>::digits);  // first value above the range
  if (r <= lo) return std::numeric_limits<Int>::min();
  if (r >= past_hi) return std::numeric_limits<Int>::max();
  return static_cast<Int>(r);
}

// Distance in units in the last place between two non-NaN floats (counting across zero).
inline int64_t ulp_distance(float a, float b) {
  auto ordered = [](float x) {
    int32_t i = std::bit_cast<int32_t>(x);
    return i < 0 ? static_cast<int64_t>(INT32_MIN) - i : static_cast<int64_t>(i);
  };
  int64_t d = ordered(a) - ordered(b);
  return d < 0 ? -d : d;
}

// Bit-exact comparison of raw format words, except that where the reference is a NaN any NaN
// is accepted (PTX fixes the canonical NaN only for some instructions).
template <class Word, class IsNan>
::testing::AssertionResult same_words_any_nan(const std::vector<Word>& actual,
                                              const std::vector<Word>& expected, IsNan is_nan) {
  if (actual.size() != expected.size()) return ::testing::AssertionFailure() << "size differs";
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < actual.size(); ++i) {
    bool ok = is_nan(expected[i]) ? is_nan(actual[i]) : actual[i] == expected[i];
    if (!ok && bad++ == 0) first = i;
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << bad << " of " << actual.size() << " differ; first at ["
                                       << first << "]: got 0x" << std::hex << +actual[first]
                                       << " expected 0x" << +expected[first];
}

inline bool f32_bits_is_nan(uint32_t b) { return (b & 0x7f800000u) == 0x7f800000u && (b & 0x7fffffu) != 0; }

}  // namespace lockstep::test
