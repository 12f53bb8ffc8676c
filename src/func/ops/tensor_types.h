#pragma once
// Element types of the tensor family (wmma, mma, ldmatrix) and their conversions. Fragments
// pack narrow elements into 32-bit registers: element j of a register holding k elements sits
// at bits [j * 32/k, (j + 1) * 32/k), lowest element in the low bits (the PTX ISA's "low to
// high" order); f64 elements fill a whole 64-bit slot.
#include <bit>
#include <cstdint>
#include <optional>
#include <string_view>

namespace lockstep::func::tensor {

enum class Elem : uint8_t { F16, BF16, TF32, F32, F64, S8, U8, S32 };

std::optional<Elem> elem_type(std::string_view modifier);
const char* elem_name(Elem e);

constexpr uint32_t elem_bits(Elem e) {
  switch (e) {
    case Elem::F16:
    case Elem::BF16: return 16;
    case Elem::S8:
    case Elem::U8: return 8;
    case Elem::F64: return 64;
    default: return 32;
  }
}
// Elements per register (f64: one per 64-bit slot).
constexpr uint32_t per_reg(Elem e) { return e == Elem::F64 ? 1 : 32 / elem_bits(e); }
constexpr bool is_int(Elem e) { return e == Elem::S8 || e == Elem::U8 || e == Elem::S32; }

// IEEE binary16 <-> binary32. float_to_f16 rounds to nearest even, overflows to infinity and
// keeps NaNs quiet (payload truncated, never turned into infinity).
float f16_to_float(uint16_t h);
uint16_t float_to_f16(float f);

// A multiplicand or accumulator element as the multiply sees it. tf32 operands use only the
// upper 19 bits of their f32 container (the low 13 mantissa bits are ignored, as tensor cores
// do); bf16 is the upper half of an f32.
template <Elem E>
inline float to_float(uint64_t bits) {
  const uint32_t b = static_cast<uint32_t>(bits);
  if constexpr (E == Elem::F16) return f16_to_float(static_cast<uint16_t>(b));
  if constexpr (E == Elem::BF16) return std::bit_cast<float>((b & 0xffffu) << 16);
  if constexpr (E == Elem::TF32) return std::bit_cast<float>(b & 0xffffe000u);
  if constexpr (E == Elem::F32) return std::bit_cast<float>(b);
  return 0.0f;
}

template <Elem E>
inline int64_t to_int(uint64_t bits) {
  if constexpr (E == Elem::S8) return static_cast<int8_t>(static_cast<uint8_t>(bits));
  if constexpr (E == Elem::U8) return static_cast<uint8_t>(bits);
  if constexpr (E == Elem::S32) return static_cast<int32_t>(static_cast<uint32_t>(bits));
  return 0;
}

}  // namespace lockstep::func::tensor
