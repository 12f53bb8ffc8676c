// The tensor family's f16 decoding (func/ops/tensor_types.h, one at a time and four at a time)
// against the plain definition, for every one of the 65536 half bit patterns, in every host
// rounding mode and with flush-to-zero; and wmma.mma on operands of any bit pattern (NaN,
// infinity, subnormals, overflow) against a CPU reference of the documented arithmetic
// (tensor_multiply.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#if defined(__SSE__)
#include <xmmintrin.h>
#endif

#include "common/harness.h"
#include "engine/engine.h"
#include "func/ops/tensor_types.h"

namespace lockstep::test {
namespace {

using func::tensor::f16_to_float;

// The definition: sign, exponent and mantissa taken apart, a subnormal scaled by ldexp; a NaN
// keeps its payload bits (and so stays signaling if it was).
uint32_t reference_f16_bits(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t man = h & 0x3ffu;
  if (exp == 0x1f) return sign | 0x7f800000u | (man << 13);
  if (exp != 0) return sign | ((exp + 112) << 23) | (man << 13);
  return sign | std::bit_cast<uint32_t>(std::ldexp(static_cast<float>(man), -24));
}

// What the block decoders give: the definition, with a signaling NaN's quiet bit set.
uint32_t reference_quiet_f16_bits(uint16_t h) {
  const uint32_t bits = reference_f16_bits(h);
  const bool nan = (bits & 0x7fffffffu) > 0x7f800000u;
  return nan ? bits | 0x00400000u : bits;
}

// Every half through a block decoder, as one block and again as a block whose length is not a
// multiple of the vector width (the tails).
template <class Decode>
void expect_block_decoder_exact(const char* mode, const char* path, Decode decode) {
  std::vector<uint16_t> in(0x10000);
  for (uint32_t h = 0; h < 0x10000; ++h) in[h] = static_cast<uint16_t>(h);
  for (const uint32_t count : {0x10000u, 0xfffbu}) {
    std::vector<float> out(count, -1.0f);
    decode(in.data(), out.data(), count);
    for (uint32_t h = 0; h < count; ++h)
      ASSERT_EQ(std::bit_cast<uint32_t>(out[h]), reference_quiet_f16_bits(in[h]))
          << mode << " " << path << " count=" << count << " h=0x" << std::hex << h;
  }
}

void expect_every_half_decodes_exactly(const char* mode) {
  expect_block_decoder_exact(mode, "portable", func::tensor::f16_to_float_quiet_portable);
  expect_block_decoder_exact(mode, "dispatched", func::tensor::f16_to_float_quiet);
  std::vector<float> probe(1);
  const uint16_t one = 0x3c00;
  if (func::tensor::f16_to_float_quiet_f16c(&one, probe.data(), 1))
    expect_block_decoder_exact(mode, "f16c", [](const uint16_t* in, float* out, uint32_t n) {
      ASSERT_TRUE(func::tensor::f16_to_float_quiet_f16c(in, out, n));
    });

  // The vector decoder (f16_to_float4), four halves at a time.
  for (uint32_t h = 0; h < 0x10000; h += 4) {
    const uint16_t in[4] = {static_cast<uint16_t>(h), static_cast<uint16_t>(h + 1),
                            static_cast<uint16_t>(h + 2), static_cast<uint16_t>(h + 3)};
    float out[4];
    func::tensor::f16_to_float4(in, out);
    for (uint32_t e = 0; e < 4; ++e)
      ASSERT_EQ(std::bit_cast<uint32_t>(out[e]), reference_f16_bits(in[e]))
          << mode << " h=0x" << std::hex << in[e];
  }
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const uint32_t got = std::bit_cast<uint32_t>(f16_to_float(static_cast<uint16_t>(h)));
    ASSERT_EQ(got, reference_f16_bits(static_cast<uint16_t>(h)))
        << mode << " h=0x" << std::hex << h;
    if (std::isnan(std::bit_cast<float>(got))) continue;
    // The compiler's own conversion agrees wherever no NaN is involved.
    ASSERT_EQ(got, std::bit_cast<uint32_t>(
                       static_cast<float>(std::bit_cast<_Float16>(static_cast<uint16_t>(h)))))
        << mode << " h=0x" << std::hex << h;
  }
}

TEST(TensorTypes, F16ToFloatIsExactForEveryHalf) {
  expect_every_half_decodes_exactly("nearest");
}

TEST(TensorTypes, F16ToFloatIgnoresTheHostRoundingMode) {
  const int saved = std::fegetround();
  for (const auto& [mode, name] : {std::pair{FE_DOWNWARD, "down"}, std::pair{FE_UPWARD, "up"},
                                   std::pair{FE_TOWARDZERO, "zero"}}) {
    ASSERT_EQ(std::fesetround(mode), 0);
    expect_every_half_decodes_exactly(name);
  }
  std::fesetround(saved);
}

#if defined(__SSE__)
TEST(TensorTypes, F16ToFloatIgnoresFlushToZero) {
  const unsigned saved = _mm_getcsr();
  _mm_setcsr(saved | 0x8040u);  // FTZ and DAZ
  expect_every_half_decodes_exactly("ftz");
  _mm_setcsr(saved);
}
#endif

std::string regs(const std::string& prefix, uint32_t first, uint32_t n) {
  std::string s = "{";
  for (uint32_t i = 0; i < n; ++i) s += (i ? ", %" : "%") + prefix + std::to_string(first + i);
  return s + "}";
}

// D = A * B + C through wmma (m16n16k16, row-major, f32 C and D) with multiplicands of `type`
// (f16 or bf16).
std::vector<float> wmma_f32(const std::string& type, const std::vector<uint16_t>& a,
                            const std::vector<uint16_t>& b, const std::vector<float>& c) {
  const uint32_t ab_regs = type == "f16" ? 8 : 4;
  const std::string mma_types = type == "f16" ? "f32.f32" : "f32." + type + "." + type + ".f32";
  const std::string text = R"(.version 9.0
.target sm_80
.address_size 64
.visible .entry mm(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd) {
  .reg .b32 %r<40>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [pa];
  ld.param.u64 %rd2, [pb];
  ld.param.u64 %rd3, [pc];
  ld.param.u64 %rd4, [pd];
  wmma.load.a.sync.aligned.row.m16n16k16.global.)" +
                           type + " " + regs("r", 0, ab_regs) + R"(, [%rd1];
  wmma.load.b.sync.aligned.row.m16n16k16.global.)" +
                           type + " " + regs("r", 8, ab_regs) + R"(, [%rd2];
  wmma.load.c.sync.aligned.row.m16n16k16.global.f32 )" +
                           regs("r", 16, 8) + R"(, [%rd3];
  wmma.mma.sync.aligned.row.row.m16n16k16.)" +
                           mma_types + " " + regs("r", 24, 8) + ", " + regs("r", 0, ab_regs) +
                           ", " + regs("r", 8, ab_regs) + ", " + regs("r", 16, 8) + R"(;
  wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd4], )" +
                           regs("r", 24, 8) + R"(;
  ret;
}
)";
  Engine e;
  const ModuleId mod = e.load_ptx(text, "wmma_bits.ptx");
  DeviceBuffer<uint16_t> da(e, a), db(e, b);
  DeviceBuffer<float> dc(e, c), dd(e, 256);
  launch_ok(e, mod, "mm", {1, 1, 1}, {32, 1, 1}, {da.arg(), db.arg(), dc.arg(), dd.arg()});
  return dd.download();
}

// A random f16 (or bf16: `bias` 127, `exp_bits` 8) bit pattern in which every class turns up
// but most results stay finite: 1 in 64 is an infinity or NaN, 1 in 8 a zero or subnormal, the
// rest normals with exponents within `spread` of 0 (wide enough for bf16 products to underflow
// and overflow f32 now and then).
uint16_t random_bits(std::mt19937& rng, uint32_t exp_bits, int bias, int spread) {
  const uint32_t r = rng();
  const uint32_t man_bits = 15 - exp_bits;
  const uint32_t sign = (r & 1u) << 15;
  const uint32_t man = (r >> 1) & ((1u << man_bits) - 1);
  const uint32_t all_ones = (1u << exp_bits) - 1;
  if (r % 64 == 0)
    return static_cast<uint16_t>(sign | (all_ones << man_bits) | ((r >> 20) % 3 == 0 ? 0 : man));
  if (r % 8 == 1) return static_cast<uint16_t>(sign | ((r >> 20) % 4 == 0 ? 0 : man));
  const int e = std::clamp(bias + static_cast<int>((r >> 16) % (2 * spread + 1)) - spread, 1,
                           static_cast<int>(all_ones) - 1);
  return static_cast<uint16_t>(sign | (static_cast<uint32_t>(e) << man_bits) | man);
}

// Bit for bit, but a NaN only as a NaN (the ISA leaves its payload open). Counts finite results.
void expect_same(float got, float want, const std::string& what, int& finite) {
  if (std::isnan(want)) {
    EXPECT_TRUE(std::isnan(got)) << what;
  } else {
    EXPECT_EQ(std::bit_cast<uint32_t>(got), std::bit_cast<uint32_t>(want)) << what;
    finite += std::isfinite(want) ? 1 : 0;
  }
}

// f16 x f16 products are exact in f32, so acc + a * b rounds once, as fma would.
TEST(TensorTypes, WmmaF16OnEveryKindOfValue) {
  std::mt19937 rng(16);
  int finite = 0;
  for (int round = 0; round < 20; ++round) {
    std::vector<uint16_t> a(256), b(256);
    std::vector<float> c(256);
    for (auto& x : a) x = random_bits(rng, 5, 15, 14);
    for (auto& x : b) x = random_bits(rng, 5, 15, 14);
    for (auto& x : c) x = f16_to_float(random_bits(rng, 5, 15, 14)) * 16.0f;
    const std::vector<float> d = wmma_f32("f16", a, b, c);
    for (uint32_t i = 0; i < 16; ++i)
      for (uint32_t j = 0; j < 16; ++j) {
        float acc = c[i * 16 + j];
        for (uint32_t k = 0; k < 16; ++k)
          acc = std::fmaf(static_cast<float>(std::bit_cast<_Float16>(a[i * 16 + k])),
                          static_cast<float>(std::bit_cast<_Float16>(b[k * 16 + j])), acc);
        expect_same(d[i * 16 + j], acc,
                    "round " + std::to_string(round) + " d[" + std::to_string(i) + "][" +
                        std::to_string(j) + "]",
                    finite);
      }
  }
  EXPECT_GT(finite, 20 * 256 / 4);  // the special values must not drown every result
}

// bf16 products can underflow or overflow in f32: each step is one fma.
TEST(TensorTypes, WmmaBf16OnEveryKindOfValue) {
  std::mt19937 rng(17);
  auto bf16 = [](uint16_t x) { return std::bit_cast<float>(uint32_t{x} << 16); };
  int finite = 0;
  for (int round = 0; round < 20; ++round) {
    std::vector<uint16_t> a(256), b(256);
    std::vector<float> c(256);
    for (auto& x : a) x = random_bits(rng, 8, 127, 66);
    for (auto& x : b) x = random_bits(rng, 8, 127, 66);
    for (auto& x : c) x = bf16(random_bits(rng, 8, 127, 66));
    const std::vector<float> d = wmma_f32("bf16", a, b, c);
    for (uint32_t i = 0; i < 16; ++i)
      for (uint32_t j = 0; j < 16; ++j) {
        float acc = c[i * 16 + j];
        for (uint32_t k = 0; k < 16; ++k)
          acc = std::fmaf(bf16(a[i * 16 + k]), bf16(b[k * 16 + j]), acc);
        expect_same(d[i * 16 + j], acc,
                    "round " + std::to_string(round) + " d[" + std::to_string(i) + "][" +
                        std::to_string(j) + "]",
                    finite);
      }
  }
  EXPECT_GT(finite, 20 * 256 / 4);  // the special values must not drown every result
}

}  // namespace
}  // namespace lockstep::test
