#include "func/ops/tensor_types.h"

#include <cmath>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define LOCKSTEP_HAVE_F16C_PATH 1
#endif

namespace lockstep::func::tensor {

std::optional<Elem> elem_type(std::string_view m) {
  if (m == "f16") return Elem::F16;
  if (m == "bf16") return Elem::BF16;
  if (m == "tf32") return Elem::TF32;
  if (m == "f32") return Elem::F32;
  if (m == "f64") return Elem::F64;
  if (m == "s8") return Elem::S8;
  if (m == "u8") return Elem::U8;
  if (m == "s32") return Elem::S32;
  return std::nullopt;
}

const char* elem_name(Elem e) {
  switch (e) {
    case Elem::F16: return "f16";
    case Elem::BF16: return "bf16";
    case Elem::TF32: return "tf32";
    case Elem::F32: return "f32";
    case Elem::F64: return "f64";
    case Elem::S8: return "s8";
    case Elem::U8: return "u8";
    case Elem::S32: return "s32";
  }
  return "?";
}

uint16_t float_to_f16(float f) {
  const uint32_t bits = std::bit_cast<uint32_t>(f);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t abs = bits & 0x7fffffffu;
  if (abs >= 0x7f800000u) {  // inf or NaN
    if (abs == 0x7f800000u) return sign | 0x7c00u;
    return static_cast<uint16_t>(sign | 0x7e00u | ((abs >> 13) & 0x3ffu));
  }
  const int32_t exp = static_cast<int32_t>(abs >> 23) - 127;
  if (exp > 15) return sign | 0x7c00u;  // overflow (rounding cannot bring it back)
  uint32_t man = (abs & 0x7fffffu) | 0x800000u;  // 24 significant bits
  int32_t shift;   // bits to drop from the 24-bit significand
  uint32_t hexp;   // biased half exponent for normal results
  if (exp >= -14) {
    shift = 13;
    hexp = static_cast<uint32_t>(exp + 15);
  } else {
    if (abs == 0) return sign;
    shift = 13 + (-14 - exp);  // subnormal: value = m * 2^-24
    hexp = 0;
    if (shift > 25) return sign;  // below half the smallest subnormal
  }
  const uint32_t kept = man >> shift;
  const uint32_t rest = man & ((1u << shift) - 1);
  const uint32_t half = 1u << (shift - 1);
  uint32_t rounded = kept + ((rest > half || (rest == half && (kept & 1))) ? 1 : 0);
  if (hexp == 0) return static_cast<uint16_t>(sign | rounded);  // may carry into the normals
  // Normal: kept includes the implicit bit (bit 10); a carry to bit 11 bumps the exponent.
  uint32_t result = (hexp << 10) + (rounded - 0x400u);
  if (result >= 0x7c00u) return sign | 0x7c00u;
  return static_cast<uint16_t>(sign | result);
}

namespace {

#if defined(LOCKSTEP_HAVE_F16C_PATH)
// Compiled for F16C whatever the build's baseline; called only where the CPU has it.
[[gnu::target("avx,f16c")]] void decode_f16c(const uint16_t* in, float* out, uint32_t count) {
  uint32_t i = 0;
  for (; i + 8 <= count; i += 8) {
    __m128i halves;
    std::memcpy(&halves, in + i, sizeof halves);
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(halves));
  }
  for (; i < count; ++i) out[i] = _cvtsh_ss(in[i]);
}

bool cpu_has_f16c() {
  static const bool has = __builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx");
  return has;
}
#endif

}  // namespace

void f16_to_float_quiet_portable(const uint16_t* in, float* out, uint32_t count) {
  uint32_t i = 0;
  for (; i + 4 <= count; i += 4) f16_to_float4(in + i, out + i);
  for (; i < count; ++i) out[i] = f16_to_float(in[i]);
  // Quiet the signaling NaNs, by mask so that the loop stays vector code.
  for (i = 0; i < count; ++i) {
    uint32_t bits;
    std::memcpy(&bits, out + i, sizeof bits);
    const uint32_t is_nan = 0u - static_cast<uint32_t>((bits & 0x7fffffffu) > 0x7f800000u);
    bits |= is_nan & 0x00400000u;
    std::memcpy(out + i, &bits, sizeof bits);
  }
}

bool f16_to_float_quiet_f16c([[maybe_unused]] const uint16_t* in, [[maybe_unused]] float* out,
                             [[maybe_unused]] uint32_t count) {
#if defined(LOCKSTEP_HAVE_F16C_PATH)
  if (!cpu_has_f16c()) return false;
  decode_f16c(in, out, count);
  return true;
#else
  return false;
#endif
}

void f16_to_float_quiet(const uint16_t* in, float* out, uint32_t count) {
  if (!f16_to_float_quiet_f16c(in, out, count)) f16_to_float_quiet_portable(in, out, count);
}

}  // namespace lockstep::func::tensor
