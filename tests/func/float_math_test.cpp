// div, rcp, sqrt (correctly rounded in every mode) and the .approx functions (within the PTX
// ISA's error bounds), against host references.
#include <cfenv>
#include <cmath>

#include "func/float_test_util.h"

namespace lockstep::test::floatops {
namespace {

template <class T>
T host_div(int mode, T x, T y) {
  volatile T vx = x, vy = y;
  volatile T r;
  const int saved = std::fegetround();
  std::fesetround(mode);
  r = vx / vy;
  std::fesetround(saved);
  return r;
}
template <class T>
T host_sqrt(int mode, T x) {
  volatile T vx = x;
  volatile T r;
  const int saved = std::fegetround();
  std::fesetround(mode);
  r = std::sqrt(static_cast<T>(vx));
  std::fesetround(saved);
  return r;
}

constexpr struct {
  const char* name;
  int host;
} kModes[] = {{"rn", FE_TONEAREST}, {"rz", FE_TOWARDZERO}, {"rm", FE_DOWNWARD}, {"rp", FE_UPWARD}};

uint64_t canon(float r) { return std::isnan(r) ? kNaN32 : f32(r); }

// Distance in ulps between two finite floats of the same sign.
int64_t ulps(float a, float b) {
  const auto key = [](float v) {
    const int32_t i = std::bit_cast<int32_t>(v);
    return i < 0 ? static_cast<int64_t>(INT32_MIN) - i : static_cast<int64_t>(i);
  };
  return std::llabs(key(a) - key(b));
}

TEST(FloatMath, DivSqrtRcpF32EveryModeMatchesHost) {
  std::vector<uint64_t> a, b;
  for (float x : tricky_f32()) {
    for (float y : tricky_f32()) {
      a.push_back(f32(x));
      b.push_back(f32(y));
    }
  }
  for (const auto& m : kModes) {
    const auto div = run(std::string("div.") + m.name + ".f32 %fo, %fa, %fb;", Out::F32, a, b);
    const auto sq = run(std::string("sqrt.") + m.name + ".f32 %fo, %fa;", Out::F32, a);
    const auto rcp = run(std::string("rcp.") + m.name + ".f32 %fo, %fa;", Out::F32, a);
    for (size_t i = 0; i < a.size(); ++i) {
      const float x = as_f32(a[i]), y = as_f32(b[i]);
      ASSERT_EQ(div[i], canon(host_div(m.host, x, y))) << m.name << " " << x << " / " << y;
      ASSERT_EQ(sq[i], canon(host_sqrt(m.host, x))) << m.name << " sqrt " << x;
      ASSERT_EQ(rcp[i], canon(host_div(m.host, 1.0f, x))) << m.name << " rcp " << x;
    }
  }
}

TEST(FloatMath, DivSqrtRcpF64EveryMode) {
  const std::vector<double> v = {1.0, 3.0, -7.0, 0x1p-1074, 0x1p-1022, 0x1.fffffffffffffp1023,
                                 0.0, -0.0, INFINITY, 10.0, 0.1, 2.0};
  std::vector<uint64_t> a, b;
  for (double x : v) {
    for (double y : v) {
      a.push_back(f64(x));
      b.push_back(f64(y));
    }
  }
  for (const auto& m : kModes) {
    const auto div = run(std::string("div.") + m.name + ".f64 %do, %da, %db;", Out::F64, a, b);
    const auto sq = run(std::string("sqrt.") + m.name + ".f64 %do, %da;", Out::F64, a);
    const auto rcp = run(std::string("rcp.") + m.name + ".f64 %do, %da;", Out::F64, a);
    for (size_t i = 0; i < a.size(); ++i) {
      const double x = as_f64(a[i]), y = as_f64(b[i]);
      const double q = host_div(m.host, x, y), s = host_sqrt(m.host, x), r = host_div(m.host, 1.0, x);
      if (std::isnan(q)) {
        ASSERT_TRUE(std::isnan(as_f64(div[i])));
      } else {
        ASSERT_EQ(div[i], f64(q)) << m.name << " " << x << " / " << y;
      }
      if (!std::isnan(s)) {
        ASSERT_EQ(sq[i], f64(s)) << m.name << " sqrt " << x;
      }
      ASSERT_EQ(rcp[i], f64(r)) << m.name << " rcp " << x;
    }
  }
  // 1/3 rounded up and down differ by one ulp.
  EXPECT_EQ(run("div.rp.f64 %do, %da, %db;", Out::F64, {f64(1.0)}, {f64(3.0)})[0],
            f64(1.0 / 3.0) + 1);
  EXPECT_EQ(run("div.rz.f64 %do, %da, %db;", Out::F64, {f64(1.0)}, {f64(3.0)})[0], f64(1.0 / 3.0));
}

TEST(FloatMath, DivApproxAndFullWithinBounds) {
  std::vector<uint64_t> a, b;
  for (float x : {1.0f, 3.0f, -7.25f, 1e20f, 0x1p-120f, 123.456f}) {
    for (float y : {3.0f, -0.1f, 7.0f, 1e-20f, 0x1.8p100f, 0x1p-125f}) {
      a.push_back(f32(x));
      b.push_back(f32(y));
    }
  }
  const auto approx = run("div.approx.f32 %fo, %fa, %fb;", Out::F32, a, b);
  const auto full = run("div.full.f32 %fo, %fa, %fb;", Out::F32, a, b);
  for (size_t i = 0; i < a.size(); ++i) {
    const float want = as_f32(a[i]) / as_f32(b[i]);
    if (std::fpclassify(want) != FP_NORMAL) continue;  // the bounds are stated for normal results
    EXPECT_LE(ulps(as_f32(approx[i]), want), 2) << as_f32(a[i]) << " / " << as_f32(b[i]);
    EXPECT_LE(ulps(as_f32(full[i]), want), 2) << as_f32(a[i]) << " / " << as_f32(b[i]);
  }
  // For 2^126 < |b| < 2^128 the approximation gives 0, or NaN for an infinite dividend.
  EXPECT_EQ(run("div.approx.f32 %fo, %fa, %fb;", Out::F32, {f32(1e30f), f32(INFINITY), f32(-2.0f)},
                {f32(0x1p127f), f32(0x1p127f), f32(0x1p127f)}),
            (std::vector<uint64_t>{f32(0.0f), kNaN32, f32(-0.0f)}));
  EXPECT_EQ(run("div.approx.ftz.f32 %fo, %fa, %fb;", Out::F32, {f32(0x1p-140f)}, {f32(1.0f)}),
            (std::vector<uint64_t>{f32(0.0f)}));
}

TEST(FloatMath, RcpApproxFtzF64UsesUpperHalf) {
  // 1/3: the operand's low word is ignored and the result's low word is zero.
  const uint64_t three_ish = f64(3.0) | 0x12345678u;
  const uint64_t want = f64(1.0 / 3.0) & 0xffffffff00000000ull;
  EXPECT_EQ(run("rcp.approx.ftz.f64 %do, %da;", Out::F64,
                {three_ish, f64(0.0), f64(-INFINITY), f64(0x1p-1050), f64(2.0)}),
            (std::vector<uint64_t>{want, f64(INFINITY), f64(-0.0), f64(INFINITY), f64(0.5)}));
  EXPECT_EQ(run("rcp.approx.ftz.f64 %do, %da;", Out::F64, {0xfff8000000000001ull}),
            (std::vector<uint64_t>{0x7fffffff00000000ull}));
}

TEST(FloatMath, ApproxTranscendentalsWithinIsaBounds) {
  std::vector<uint64_t> a;
  for (int i = -400; i <= 400; ++i) a.push_back(f32(static_cast<float>(i) * 0.0078125f + 0.001f));
  const auto ex2 = run("ex2.approx.f32 %fo, %fa;", Out::F32, a);
  const auto ex2f = run("ex2.approx.ftz.f32 %fo, %fa;", Out::F32, a);
  const auto sinr = run("sin.approx.f32 %fo, %fa;", Out::F32, a);
  const auto cosr = run("cos.approx.ftz.f32 %fo, %fa;", Out::F32, a);
  const auto rsq = run("rsqrt.approx.f32 %fo, %fa;", Out::F32, a);
  const auto lg2 = run("lg2.approx.f32 %fo, %fa;", Out::F32, a);
  const auto th = run("tanh.approx.f32 %fo, %fa;", Out::F32, a);
  const auto rcp = run("rcp.approx.f32 %fo, %fa;", Out::F32, a);
  for (size_t i = 0; i < a.size(); ++i) {
    const double x = as_f32(a[i]);
    EXPECT_LE(ulps(as_f32(ex2[i]), static_cast<float>(std::exp2(x))), 2) << x;
    EXPECT_LE(ulps(as_f32(ex2f[i]), static_cast<float>(std::exp2(x))), 2) << x;
    EXPECT_LE(ulps(as_f32(rcp[i]), static_cast<float>(1.0 / x)), 1) << x;
    if (std::fabs(x) <= M_PI) {
      EXPECT_LE(std::fabs(as_f32(sinr[i]) - std::sin(x)), std::exp2(-20.9)) << x;
      EXPECT_LE(std::fabs(as_f32(cosr[i]) - std::cos(x)), std::exp2(-20.9)) << x;
    }
    EXPECT_LE(std::fabs(as_f32(th[i]) - std::tanh(x)), std::exp2(-11) * std::fabs(std::tanh(x))) << x;
    if (x > 0) {
      EXPECT_LE(std::fabs(as_f32(rsq[i]) - 1 / std::sqrt(x)), std::exp2(-22.9) / std::sqrt(x)) << x;
      if (x >= 0.5 && x <= 2) {
        EXPECT_LE(std::fabs(as_f32(lg2[i]) - std::log2(x)), std::exp2(-22.6)) << x;
      } else {
        EXPECT_LE(ulps(as_f32(lg2[i]), static_cast<float>(std::log2(x))), 4) << x;
      }
    } else {
      EXPECT_EQ(lg2[i], kNaN32) << x;
      EXPECT_EQ(rsq[i], kNaN32) << x;
    }
  }
  // Special values.
  const std::vector<uint64_t> s = {f32(-INFINITY), f32(INFINITY), f32(0.0f), f32(-0.0f), kNaN32};
  EXPECT_EQ(run("ex2.approx.ftz.f32 %fo, %fa;", Out::F32, s),
            (std::vector<uint64_t>{f32(0.0f), f32(INFINITY), f32(1.0f), f32(1.0f), kNaN32}));
  EXPECT_EQ(run("lg2.approx.ftz.f32 %fo, %fa;", Out::F32, s),
            (std::vector<uint64_t>{kNaN32, f32(INFINITY), f32(-INFINITY), f32(-INFINITY), kNaN32}));
  EXPECT_EQ(run("rsqrt.approx.ftz.f32 %fo, %fa;", Out::F32, s),
            (std::vector<uint64_t>{kNaN32, f32(0.0f), f32(INFINITY), f32(-INFINITY), kNaN32}));
  EXPECT_EQ(run("sin.approx.f32 %fo, %fa;", Out::F32, s),
            (std::vector<uint64_t>{kNaN32, kNaN32, f32(0.0f), f32(-0.0f), kNaN32}));
  // ex2 of a large negative argument gives a subnormal without .ftz and zero with it.
  EXPECT_EQ(run("ex2.approx.f32 %fo, %fa;", Out::F32, {f32(-140.0f)})[0], f32(0x1p-140f));
  EXPECT_EQ(run("ex2.approx.ftz.f32 %fo, %fa;", Out::F32, {f32(-140.0f)})[0], f32(0.0f));
}

TEST(FloatMath, HalfApproximations) {
  // ex2(1) = 2, ex2(-1) = 0.5, tanh(0) = 0; bf16: ex2(2) = 4.
  EXPECT_EQ(run("ex2.approx.f16 %o16, %a16;", Out::B16, {0x3c00, 0xbc00, 0x7c00, 0xfc00}),
            (std::vector<uint64_t>{0x4000, 0x3800, 0x7c00, 0x0000}));
  EXPECT_EQ(run("ex2.approx.f16x2 %o32, %a32;", Out::B32, {0xbc003c00}),
            (std::vector<uint64_t>{0x38004000}));
  EXPECT_EQ(run("ex2.approx.ftz.bf16 %o16, %a16;", Out::B16, {0x4000}), (std::vector<uint64_t>{0x4080}));
  EXPECT_EQ(run("tanh.approx.f16 %o16, %a16;", Out::B16, {0x0000, 0x7c00, 0x7e00}),
            (std::vector<uint64_t>{0x0000, 0x3c00, kNaN16}));
  EXPECT_EQ(run("tanh.approx.bf16x2 %o32, %a32;", Out::B32, {0xff800000}),
            (std::vector<uint64_t>{0xbf800000}));
}

TEST(FloatMath, UnsupportedForms) {
  EXPECT_EQ(load_error("lg2.approx.f16 %o16, %a16;"),
            "unsupported PTX instruction 'lg2.approx.f16' at float_test.ptx:44");
  EXPECT_EQ(load_error("div.f32 %fo, %fa, %fb;"),
            "unsupported PTX instruction 'div.f32' at float_test.ptx:44");
  EXPECT_EQ(load_error("sqrt.rn.f32 %fo, %fa, %fb;"), "expected 2 operands for 'sqrt.rn.f32', got 3");
}

}  // namespace
}  // namespace lockstep::test::floatops
