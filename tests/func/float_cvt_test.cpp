// cvt with float types: narrowing with every rounding mode, widening, integral rounding,
// float <-> integer with saturation, the packing x2 forms, tf32 and fp8.
#include <cfenv>
#include <cmath>
#include <limits>

#include "func/float_test_util.h"

namespace lockstep::test::floatops {
namespace {

uint16_t h16(float v) { return std::bit_cast<uint16_t>(static_cast<_Float16>(v)); }
uint16_t bf16(float v) {
  if (std::isnan(v)) return 0x7fff;
  const uint32_t b = std::bit_cast<uint32_t>(v);
  return static_cast<uint16_t>((b + 0x7fff + (b >> 16 & 1)) >> 16);
}

std::vector<float> conversion_inputs() {
  std::vector<float> v = tricky_f32();
  for (float x : {65519.0f, 65520.0f, 0x1.002p0f, 0x1.006p0f, 0x1.0021p0f, 0x1p-24f, 0x1p-25f,
                  0x1.8p-25f, 0x1p-14f, 0x1.ff8p-15f, 1.00390625f, 1.01171875f, 3.3895314e38f}) {
    v.push_back(x);
    v.push_back(-x);
  }
  return v;
}

TEST(FloatCvt, F32ToF16AndBf16RoundToNearestEven) {
  std::vector<uint64_t> a;
  for (float x : conversion_inputs()) a.push_back(f32(x));
  const auto h = run("cvt.rn.f16.f32 %o16, %fa;", Out::B16, a);
  const auto b = run("cvt.rn.bf16.f32 %o16, %fa;", Out::B16, a);
  for (size_t i = 0; i < a.size(); ++i) {
    const float x = as_f32(a[i]);
    ASSERT_EQ(h[i], std::isnan(x) ? kNaN16 : h16(x)) << x;
    ASSERT_EQ(b[i], bf16(x)) << x;
  }
}

TEST(FloatCvt, F32ToF16DirectedModes) {
  // 1 + 2^-11 + 2^-20 lies between 1 and 1 + 2^-10 (0x3c01); 65520 overflows only for rn/rp.
  const std::vector<uint64_t> a = {f32(0x1.0021p0f), f32(-0x1.0021p0f), f32(65520.0f), f32(0x1p-30f),
                                   f32(-0x1p-30f)};
  EXPECT_EQ(run("cvt.rz.f16.f32 %o16, %fa;", Out::B16, a),
            (std::vector<uint64_t>{0x3c00, 0xbc00, 0x7bff, 0x0000, 0x8000}));
  EXPECT_EQ(run("cvt.rm.f16.f32 %o16, %fa;", Out::B16, a),
            (std::vector<uint64_t>{0x3c00, 0xbc01, 0x7bff, 0x0000, 0x8001}));
  EXPECT_EQ(run("cvt.rp.f16.f32 %o16, %fa;", Out::B16, a),
            (std::vector<uint64_t>{0x3c01, 0xbc00, 0x7c00, 0x0001, 0x8000}));
  EXPECT_EQ(run("cvt.rn.f16.f32 %o16, %fa;", Out::B16, a),
            (std::vector<uint64_t>{0x3c01, 0xbc01, 0x7c00, 0x0000, 0x8000}));
  EXPECT_EQ(run("cvt.rz.bf16.f32 %o16, %fa;", Out::B16, {f32(0x1.01fffep0f), f32(NAN)}),
            (std::vector<uint64_t>{0x3f80, kNaN16}));
  EXPECT_EQ(run("cvt.rn.relu.f16.f32 %o16, %fa;", Out::B16, {f32(-2.0f), f32(2.0f), f32(NAN)}),
            (std::vector<uint64_t>{0x0000, 0x4000, kNaN16}));
  EXPECT_EQ(run("cvt.rn.satfinite.f16.f32 %o16, %fa;", Out::B16, {f32(1e6f), f32(-INFINITY)}),
            (std::vector<uint64_t>{0x7bff, 0xfbff}));
}

TEST(FloatCvt, WideningIsExact) {
  std::vector<uint64_t> all;
  for (uint32_t i = 0; i < 0x10000; i += 7) all.push_back(i);
  const auto f = run("cvt.f32.f16 %fo, %a16;", Out::F32, all);
  for (size_t i = 0; i < all.size(); ++i) {
    const float want = static_cast<float>(std::bit_cast<_Float16>(static_cast<uint16_t>(all[i])));
    ASSERT_EQ(f[i], std::isnan(want) ? kNaN32 : f32(want)) << std::hex << all[i];
  }
  EXPECT_EQ(run("cvt.f32.bf16 %fo, %a16;", Out::F32, {0x3f80, 0x0001})[1], 0x00010000u);
  EXPECT_EQ(run("cvt.f64.f32 %do, %fa;", Out::F64, {f32(0x1p-149f), f32(0.1f)}),
            (std::vector<uint64_t>{f64(0x1p-149), f64(static_cast<double>(0.1f))}));
  EXPECT_EQ(run("cvt.ftz.f64.f32 %do, %fa;", Out::F64, {f32(-0x1p-149f)}), (std::vector<uint64_t>{f64(-0.0)}));
  EXPECT_EQ(run("cvt.f64.f16 %do, %a16;", Out::F64, {0x0001}), (std::vector<uint64_t>{f64(0x1p-24)}));
}

TEST(FloatCvt, F64ToF32EveryMode) {
  const double third = 1.0 / 3.0;
  const std::vector<uint64_t> a = {f64(third), f64(-third), f64(1e300), f64(0x1p-160), f64(0x1.8p-149)};
  const float lo = 0x1.555554p-2f, hi = 0x1.555556p-2f;
  EXPECT_EQ(run("cvt.rn.f32.f64 %fo, %da;", Out::F32, a),
            (std::vector<uint64_t>{f32(hi), f32(-hi), f32(INFINITY), f32(0.0f), f32(0x1p-148f)}));
  EXPECT_EQ(run("cvt.rz.f32.f64 %fo, %da;", Out::F32, a),
            (std::vector<uint64_t>{f32(lo), f32(-lo), f32(0x1.fffffep127f), f32(0.0f), f32(0x1p-149f)}));
  EXPECT_EQ(run("cvt.rm.f32.f64 %fo, %da;", Out::F32, a),
            (std::vector<uint64_t>{f32(lo), f32(-hi), f32(0x1.fffffep127f), f32(0.0f), f32(0x1p-149f)}));
  EXPECT_EQ(run("cvt.rp.f32.f64 %fo, %da;", Out::F32, a),
            (std::vector<uint64_t>{f32(hi), f32(-lo), f32(INFINITY), f32(0x1p-149f), f32(0x1p-148f)}));
  EXPECT_EQ(run("cvt.rn.ftz.f32.f64 %fo, %da;", Out::F32, a)[4], f32(0.0f));
  EXPECT_EQ(run("cvt.rn.sat.f32.f64 %fo, %da;", Out::F32, {f64(2.0), f64(-1.0)}),
            (std::vector<uint64_t>{f32(1.0f), f32(0.0f)}));
}

TEST(FloatCvt, IntegralRounding) {
  const std::vector<uint64_t> a = {f32(2.5f), f32(-2.5f), f32(3.5f), f32(-0.4f), f32(0x1p30f), f32(NAN)};
  EXPECT_EQ(run("cvt.rni.f32.f32 %fo, %fa;", Out::F32, a),
            (std::vector<uint64_t>{f32(2.0f), f32(-2.0f), f32(4.0f), f32(-0.0f), f32(0x1p30f), kNaN32}));
  EXPECT_EQ(run("cvt.rzi.f32.f32 %fo, %fa;", Out::F32, a)[3], f32(-0.0f));
  EXPECT_EQ(run("cvt.rmi.f32.f32 %fo, %fa;", Out::F32, a)[1], f32(-3.0f));
  EXPECT_EQ(run("cvt.rpi.f32.f32 %fo, %fa;", Out::F32, a)[0], f32(3.0f));
  EXPECT_EQ(run("cvt.rmi.f64.f64 %do, %da;", Out::F64, {f64(-0.5)}), (std::vector<uint64_t>{f64(-1.0)}));
  EXPECT_EQ(run("cvt.sat.f32.f32 %fo, %fa;", Out::F32, {f32(1.5f), f32(-0.0f), f32(NAN), f32(0.25f)}),
            (std::vector<uint64_t>{f32(1.0f), 0, 0, f32(0.25f)}));
  EXPECT_EQ(run("cvt.ftz.sat.f32.f32 %fo, %fa;", Out::F32, {f32(0x1p-140f)}), (std::vector<uint64_t>{0}));
}

TEST(FloatCvt, FloatToIntegerSaturatesAndNaNIsZero) {
  const std::vector<uint64_t> a = {f32(2.5f), f32(-2.5f), f32(3e9f), f32(-3e9f), f32(NAN),
                                   f32(INFINITY), f32(-0.7f), f32(0x1p-149f)};
  EXPECT_EQ(run("cvt.rni.s32.f32 %o32, %fa;", Out::B32, a),
            (std::vector<uint64_t>{2, 0xfffffffe, 0x7fffffff, 0x80000000, 0, 0x7fffffff, 0xffffffff, 0}));
  EXPECT_EQ(run("cvt.rzi.u32.f32 %o32, %fa;", Out::B32, a),
            (std::vector<uint64_t>{2, 0, 3000000000u, 0, 0, 0xffffffff, 0, 0}));
  EXPECT_EQ(run("cvt.rpi.u32.f32 %o32, %fa;", Out::B32, a)[7], 1u);
  EXPECT_EQ(run("cvt.rpi.ftz.u32.f32 %o32, %fa;", Out::B32, a)[7], 0u);
  EXPECT_EQ(run("cvt.rmi.s64.f32 %o64, %fa;", Out::B64, a),
            (std::vector<uint64_t>{2, static_cast<uint64_t>(-3), 3000000000u,
                                   static_cast<uint64_t>(-3000000000ll), 0, 0x7fffffffffffffff,
                                   static_cast<uint64_t>(-1), 0}));
  EXPECT_EQ(run("cvt.rzi.u64.f64 %o64, %da;", Out::B64, {f64(1e30), f64(-5.0), f64(0x1p63)}),
            (std::vector<uint64_t>{0xffffffffffffffff, 0, 0x8000000000000000}));
  // s8 into a 16-bit register: saturated and sign-extended to the register width.
  EXPECT_EQ(run("cvt.rzi.s8.f32 %o16, %fa;", Out::B16, {f32(-300.0f), f32(300.0f), f32(-5.0f)}),
            (std::vector<uint64_t>{0xff80, 0x007f, 0xfffb}));
  EXPECT_EQ(run("cvt.rni.s32.f16 %o32, %a16;", Out::B32, {0xc100}), (std::vector<uint64_t>{0xfffffffe}));
  EXPECT_EQ(run("cvt.rzi.s32.f64 %o32, %da;", Out::B32, {f64(-1e100)}), (std::vector<uint64_t>{0x80000000}));
}

TEST(FloatCvt, IntegerToFloatEveryMode) {
  const int32_t big = 16777217;  // 2^24 + 1: not representable in f32
  EXPECT_EQ(run("cvt.rn.f32.s32 %fo, %a32;", Out::F32, {static_cast<uint32_t>(big), static_cast<uint32_t>(-big)}),
            (std::vector<uint64_t>{f32(16777216.0f), f32(-16777216.0f)}));
  EXPECT_EQ(run("cvt.rp.f32.s32 %fo, %a32;", Out::F32, {static_cast<uint32_t>(big), static_cast<uint32_t>(-big)}),
            (std::vector<uint64_t>{f32(16777218.0f), f32(-16777216.0f)}));
  EXPECT_EQ(run("cvt.rm.f32.s32 %fo, %a32;", Out::F32, {static_cast<uint32_t>(-big)}),
            (std::vector<uint64_t>{f32(-16777218.0f)}));
  EXPECT_EQ(run("cvt.rz.f32.u32 %fo, %a32;", Out::F32, {0xffffffffu}), (std::vector<uint64_t>{f32(0x1.fffffep31f)}));
  EXPECT_EQ(run("cvt.rn.f32.u32 %fo, %a32;", Out::F32, {0xffffffffu}), (std::vector<uint64_t>{f32(0x1p32f)}));
  // 2^63 + 2^39 + 1 is just above the f32 halfway point 2^63 + 2^39: rounds up only because
  // of the sticky low bit, which a double intermediate would lose.
  const uint64_t tricky = (uint64_t{1} << 63) + (uint64_t{1} << 39) + 1;
  EXPECT_EQ(run("cvt.rn.f32.u64 %fo, %a64;", Out::F32, {tricky}), (std::vector<uint64_t>{f32(0x1.000002p63f)}));
  EXPECT_EQ(run("cvt.rn.f32.s64 %fo, %a64;", Out::F32, {static_cast<uint64_t>(INT64_MIN)}),
            (std::vector<uint64_t>{f32(-0x1p63f)}));
  const uint64_t odd53 = (uint64_t{1} << 53) + 1;
  EXPECT_EQ(run("cvt.rn.f64.u64 %do, %a64;", Out::F64, {odd53}), (std::vector<uint64_t>{f64(0x1p53)}));
  EXPECT_EQ(run("cvt.rp.f64.u64 %do, %a64;", Out::F64, {odd53}), (std::vector<uint64_t>{f64(0x1p53 + 2)}));
  EXPECT_EQ(run("cvt.rm.f64.s64 %do, %a64;", Out::F64, {static_cast<uint64_t>(-static_cast<int64_t>(odd53))}),
            (std::vector<uint64_t>{f64(-0x1p53 - 2)}));
  EXPECT_EQ(run("cvt.rn.f64.s32 %do, %a32;", Out::F64, {0xffffffffu}), (std::vector<uint64_t>{f64(-1.0)}));
  EXPECT_EQ(run("cvt.rn.f16.s32 %o16, %a32;", Out::B16, {2049, 70000, static_cast<uint32_t>(-3)}),
            (std::vector<uint64_t>{0x6800, 0x7c00, 0xc200}));
  EXPECT_EQ(run("cvt.rn.f32.s16 %fo, %a16;", Out::F32, {0xfffe}), (std::vector<uint64_t>{f32(-2.0f)}));
  EXPECT_EQ(run("cvt.rz.bf16.u32 %o16, %a32;", Out::B16, {257}), (std::vector<uint64_t>{0x4380}));
}

TEST(FloatCvt, PackingTf32AndFp8) {
  // cvt.rn.f16x2.f32 d, a, b: a goes to the upper half.
  EXPECT_EQ(run("cvt.rn.f16x2.f32 %o32, %fa, %fb;", Out::B32, {f32(1.0f)}, {f32(-2.0f)}),
            (std::vector<uint64_t>{0x3c00c000}));
  EXPECT_EQ(run("cvt.rn.bf16x2.f32 %o32, %fa, %fb;", Out::B32, {f32(3.0f)}, {f32(0x1.01p0f)}),
            (std::vector<uint64_t>{0x40403f80}));
  EXPECT_EQ(run("cvt.rz.relu.bf16x2.f32 %o32, %fa, %fb;", Out::B32, {f32(-3.0f)}, {f32(0x1.01fffep0f)}),
            (std::vector<uint64_t>{0x00003f80}));
  // tf32 keeps 10 mantissa bits, .rna rounds halfway cases away from zero.
  EXPECT_EQ(run("cvt.rna.tf32.f32 %o32, %fa;", Out::B32,
                {f32(0x1.002p0f), f32(-0x1.002p0f), f32(0x1.001fp0f), f32(NAN), f32(0x1.ffep127f)}),
            (std::vector<uint64_t>{0x3f802000, 0xbf802000, 0x3f800000, kNaN32, 0x7f800000}));
  EXPECT_EQ(run("cvt.rna.satfinite.tf32.f32 %o32, %fa;", Out::B32, {f32(0x1.ffep127f)}),
            (std::vector<uint64_t>{0x7f7fe000}));
  // e4m3: 1.0 = 0x38, 448 max (0x7e), 500 saturates, NaN 0x7f; e5m2: 1.0 = 0x3c, max 57344 (0x7b).
  EXPECT_EQ(run("cvt.rn.satfinite.e4m3x2.f32 %o16, %fa, %fb;", Out::B16,
                {f32(1.0f), f32(500.0f), f32(NAN), f32(0x1p-9f)}, {f32(-448.0f), f32(-0.0f), f32(260.0f), f32(0.1f)}),
            (std::vector<uint64_t>{0x38fe, 0x7e80, 0x7f78, 0x011d}));
  EXPECT_EQ(run("cvt.rn.satfinite.e5m2x2.f32 %o16, %fa, %fb;", Out::B16, {f32(1.0f), f32(INFINITY)},
                {f32(1e6f), f32(NAN)}),
            (std::vector<uint64_t>{0x3c7b, 0x7b7f}));
  EXPECT_EQ(run("cvt.rn.f16x2.e4m3x2 %o32, %a16;", Out::B32, {0x38fe}),
            (std::vector<uint64_t>{0x3c00df00}));
  EXPECT_EQ(run("cvt.rn.satfinite.e4m3x2.f16x2 %o16, %a32;", Out::B16, {0x3c00df00}),
            (std::vector<uint64_t>{0x38fe}));
  EXPECT_EQ(run("cvt.rn.satfinite.relu.e5m2x2.f16x2 %o16, %a32;", Out::B16, {0x7c00bc00}),
            (std::vector<uint64_t>{0x7b00}));
  // A special register is a valid source.
  EXPECT_EQ(run("cvt.rn.f32.u32 %fo, %tid.x;", Out::F32, {0, 0, 0}),
            (std::vector<uint64_t>{f32(0.0f), f32(1.0f), f32(2.0f)}));
}

TEST(FloatCvt, Errors) {
  EXPECT_EQ(load_error("cvt.f16.f32 %o16, %fa;"),
            "unsupported PTX instruction 'cvt.f16.f32' at float_test.ptx:44");
  EXPECT_EQ(load_error("cvt.rn.s32.f32 %o32, %fa;"),
            "unsupported PTX instruction 'cvt.rn.s32.f32' at float_test.ptx:44");
  EXPECT_EQ(load_error("cvt.rn.f16x2.f32 %o32, %fa;"), "expected 3 operands for 'cvt.rn.f16x2.f32', got 2");
}

}  // namespace
}  // namespace lockstep::test::floatops
