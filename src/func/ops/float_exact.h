#pragma once
// Error-free transformations that give f32/f16/bf16 arithmetic exact results under every
// rounding mode without touching the floating-point environment. Products of two values of
// at most 24 significant bits are exact in double; a sum is made exact by TwoSum, and the
// pair (sum, error) is folded into a "round-to-odd" double: the truncated 53-bit result with
// its last bit forced to 1 when inexact. Rounding that double once more to a format of at
// most 51 bits gives the correctly rounded result in any mode (Boldo & Melquiond).
#include <bit>
#include <cmath>
#include <cstdint>

namespace lockstep::func::fp {

// The round-to-odd double of the exact value s + e, where s = fl(s + e) (TwoSum output).
inline double odd_from_pair(double s, double e) {
  if (e == 0.0 || !std::isfinite(s)) return s;
  uint64_t bits = std::bit_cast<uint64_t>(s);
  if ((bits & 1) != 0) return s;  // s is the odd neighbour of the exact value
  // s is even: the exact value lies strictly between s and its neighbour towards e, which
  // is odd. Moving the magnitude bits by one steps one ulp away from or towards zero.
  const bool away_from_zero = std::signbit(s) == std::signbit(e);
  bits = away_from_zero ? bits + 1 : bits - 1;
  return std::bit_cast<double>(bits);
}

// Round-to-odd of a + b (Knuth's TwoSum, valid without overflow).
inline double sum_odd(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  const double e = (a - (s - bb)) + (b - bb);
  return odd_from_pair(s, e);
}

// Round-to-odd of a * b + c for operands of at most 24 significant bits (product exact).
inline double fma_odd(double a, double b, double c) { return sum_odd(a * b, c); }

}  // namespace lockstep::func::fp
