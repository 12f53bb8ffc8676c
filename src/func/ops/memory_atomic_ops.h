#pragma once
// The read-modify-write operations of atom/red. Each op names the memory type it works on
// (Type) and computes the new memory value from the old one and the operands b (and c, for
// cas). Integer adds work on unsigned types so that overflow wraps as on the device.
#include <bit>
#include <cmath>
#include <cstdint>

namespace lockstep::func::memory {

// ---- half precision helpers (exact conversions to f32, round-to-nearest-even back) --------

inline float half_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  const uint32_t exponent = (h >> 10) & 0x1f;
  const uint32_t mantissa = h & 0x3ff;
  if (exponent == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  if (exponent != 0)
    return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
  // Zero or subnormal: mantissa * 2^-24, exact in f32.
  const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  return sign ? -magnitude : magnitude;
}

inline uint16_t float_to_half_rn(float f) {
  const uint32_t x = std::bit_cast<uint32_t>(f);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  const uint32_t ax = x & 0x7fffffff;
  if (ax > 0x7f800000) return 0x7fff;          // NaN: the device's canonical NaN
  if (ax >= 0x477ff000) return sign | 0x7c00;  // >= 65520 rounds to infinity
  if (ax < 0x38800000) {                       // below 2^-14: subnormal half
    // |f| * 2^24 is exact; rounding it to an integer (ties to even) gives the encoding,
    // 0x400 being the smallest normal.
    const float scaled = std::ldexp(std::fabs(f), 24);
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(scaled)));
  }
  uint32_t half = ((((ax >> 23) - 112) << 10) | ((ax & 0x7fffff) >> 13));
  const uint32_t rest = ax & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1))) ++half;  // carries into the exponent
  return static_cast<uint16_t>(sign | half);
}

inline float bf16_to_float(uint16_t h) {
  return std::bit_cast<float>(static_cast<uint32_t>(h) << 16);
}

inline uint16_t float_to_bf16_rn(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  if ((x & 0x7fffffff) > 0x7f800000) return 0x7fff;
  x += 0x7fff + ((x >> 16) & 1);
  return static_cast<uint16_t>(x >> 16);
}

// ---- operations ---------------------------------------------------------------------------

template <class T>
struct OpAdd {
  using Type = T;
  static T apply(T old, T b, T) { return static_cast<T>(old + b); }
};

// atom.add.f32 rounds to nearest even and flushes subnormal inputs and results to
// sign-preserving zero (PTX ISA, atom); a NaN result is the canonical 0x7fffffff.
struct OpAddF32 {
  using Type = float;
  static float flush(float x) {
    return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
  }
  static float apply(float old, float b, float) {
    const float sum = flush(flush(old) + flush(b));
    return std::isnan(sum) ? std::bit_cast<float>(0x7fffffffu) : sum;
  }
};

struct OpAddF64 {
  using Type = double;
  static double apply(double old, double b, double) { return old + b; }
};

// f16/bf16 adds (.noftz: subnormals kept). The f32 sum rounded once more to 16 bits is the
// correctly rounded 16-bit sum: f32 has more than 2p+2 significand bits for p = 11 and 8.
struct OpAddF16 {
  using Type = uint16_t;
  static uint16_t apply(uint16_t old, uint16_t b, uint16_t) {
    return float_to_half_rn(half_to_float(old) + half_to_float(b));
  }
};

struct OpAddBF16 {
  using Type = uint16_t;
  static uint16_t apply(uint16_t old, uint16_t b, uint16_t) {
    return float_to_bf16_rn(bf16_to_float(old) + bf16_to_float(b));
  }
};

// Two packed 16-bit lanes, each added on its own.
template <class Half>
struct OpAddPair {
  using Type = uint32_t;
  static uint32_t apply(uint32_t old, uint32_t b, uint32_t) {
    const uint16_t lo = Half::apply(static_cast<uint16_t>(old), static_cast<uint16_t>(b), 0);
    const uint16_t hi =
        Half::apply(static_cast<uint16_t>(old >> 16), static_cast<uint16_t>(b >> 16), 0);
    return static_cast<uint32_t>(lo) | (static_cast<uint32_t>(hi) << 16);
  }
};

template <class T>
struct OpExch {
  using Type = T;
  static T apply(T, T b, T) { return b; }
};

template <class T>
struct OpCas {
  using Type = T;
  static T apply(T old, T b, T c) { return old == b ? c : old; }
};

// inc: ((old >= b) ? 0 : old + 1); dec: ((old == 0) || (old > b)) ? b : old - 1 (PTX ISA).
struct OpInc {
  using Type = uint32_t;
  static uint32_t apply(uint32_t old, uint32_t b, uint32_t) { return old >= b ? 0 : old + 1; }
};

struct OpDec {
  using Type = uint32_t;
  static uint32_t apply(uint32_t old, uint32_t b, uint32_t) {
    return (old == 0 || old > b) ? b : old - 1;
  }
};

template <class T>
struct OpMin {
  using Type = T;
  static T apply(T old, T b, T) { return b < old ? b : old; }
};

template <class T>
struct OpMax {
  using Type = T;
  static T apply(T old, T b, T) { return b > old ? b : old; }
};

template <class T>
struct OpAnd {
  using Type = T;
  static T apply(T old, T b, T) { return static_cast<T>(old & b); }
};

template <class T>
struct OpOr {
  using Type = T;
  static T apply(T old, T b, T) { return static_cast<T>(old | b); }
};

template <class T>
struct OpXor {
  using Type = T;
  static T apply(T old, T b, T) { return static_cast<T>(old ^ b); }
};

}  // namespace lockstep::func::memory
