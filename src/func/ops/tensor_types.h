#pragma once
// Element types of the tensor family (wmma, mma, ldmatrix) and their conversions. Fragments
// pack narrow elements into 32-bit registers: element j of a register holding k elements sits
// at bits [j * 32/k, (j + 1) * 32/k), lowest element in the low bits (the PTX ISA's "low to
// high" order); f64 elements fill a whole 64-bit slot.
#include <bit>
#include <cstdint>
#include <cstring>
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
uint16_t float_to_f16(float f);

// Exact, for every one of the 65536 inputs (tests/func/tensor_types_test.cpp): a NaN keeps its
// payload and stays signaling if it was. Inline and without library calls because the f16
// multiplies decode 512 elements each. The exponent and mantissa move into place as a block
// (rebiased by 127 - 15); a subnormal or zero h is its mantissa m times 2^-24, m and the product
// both exact normal floats (or +0), so no rounding mode or flush-to-zero setting can touch it.
inline float f16_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t mag = static_cast<uint32_t>(h & 0x7fffu) << 13;
  const uint32_t exp = mag & 0x0f800000u;
  // All three candidates, then a choice by masks, not branches: zeros are common in real data
  // and a mispredicted branch per element would cost more than the work.
  const uint32_t normal = mag + (112u << 23);
  const uint32_t special = mag + (224u << 23);  // infinity or NaN: exponent all ones
  const uint32_t small =
      std::bit_cast<uint32_t>(static_cast<float>(static_cast<int32_t>(mag >> 13)) * 0x1p-24f);
  const uint32_t is_small = 0u - static_cast<uint32_t>(exp == 0);
  const uint32_t is_special = 0u - static_cast<uint32_t>(exp == 0x0f800000u);
  const uint32_t large = (special & is_special) | (normal & ~is_special);
  return std::bit_cast<float>(((small & is_small) | (large & ~is_small)) | sign);
}

// f16_to_float of 4 halves at once, in GCC/Clang vector types so that it compiles to vector
// instructions (the f16 multiplies decode 512 elements each): the same steps, lane by lane, so
// the same bits (tests/func/tensor_types_test.cpp checks all 65536 inputs through it).
inline void f16_to_float4(const uint16_t* in, float* out) {
  using U4 = uint32_t __attribute__((vector_size(16)));
  using I4 = int32_t __attribute__((vector_size(16)));
  using F4 = float __attribute__((vector_size(16)));
  const U4 h = {in[0], in[1], in[2], in[3]};
  const U4 sign = (h & 0x8000u) << 16;
  const U4 mag = (h & 0x7fffu) << 13;
  const U4 exp = mag & 0x0f800000u;
  const U4 normal = mag + (112u << 23);
  const U4 special = mag + (224u << 23);
  const F4 small_f = __builtin_convertvector(std::bit_cast<I4>(mag >> 13), F4) * 0x1p-24f;
  const U4 small = std::bit_cast<U4>(small_f);
  const U4 is_small = std::bit_cast<U4>(exp == 0u);
  const U4 is_special = std::bit_cast<U4>(exp == 0x0f800000u);
  const U4 large = (special & is_special) | (normal & ~is_special);
  const U4 bits = ((small & is_small) | (large & ~is_small)) | sign;
  std::memcpy(out, &bits, sizeof bits);
}

// `count` halves decoded as f16_to_float does, except that a signaling NaN comes out quiet (its
// quiet bit set, the rest of its payload kept). The tensor multiplies decode with it: each
// element then goes through a multiply and an add, which quiet a NaN anyway and keep the same
// payload, so their results are exactly those of f16_to_float. Where the CPU has F16C it
// converts 8 halves per instruction (exact, and blind to the rounding mode and to flush-to-zero);
// elsewhere the portable vector code runs. Both give the same bits (tests/func/tensor_types_test).
void f16_to_float_quiet(const uint16_t* in, float* out, uint32_t count);
// The two paths by name, for the tests. The F16C one returns false, writing nothing, on a CPU
// without the instructions.
void f16_to_float_quiet_portable(const uint16_t* in, float* out, uint32_t count);
bool f16_to_float_quiet_f16c(const uint16_t* in, float* out, uint32_t count);

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
