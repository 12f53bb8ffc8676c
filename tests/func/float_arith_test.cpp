// add/sub/mul/fma/mad on f32, f64, f16, bf16 and their x2 forms, compared bit-exactly with
// references computed on the host (directed modes through the host FPU's rounding modes).
#include <cfenv>
#include <cmath>

#include "func/float_test_util.h"

namespace lockstep::test::floatops {
namespace {

// Host f32 arithmetic in a rounding mode, kept opaque to the optimiser with volatiles.
float host_in_mode(int mode, char op, float x, float y, float z = 0.0f) {
  volatile float vx = x, vy = y, vz = z;
  volatile float r;
  const int saved = std::fegetround();
  std::fesetround(mode);
  switch (op) {
    case '+': r = vx + vy; break;
    case '-': r = vx - vy; break;
    case '*': r = vx * vy; break;
    default: r = std::fma(static_cast<float>(vx), static_cast<float>(vy), static_cast<float>(vz));
  }
  std::fesetround(saved);
  return r;
}

uint64_t canon(float r) { return std::isnan(r) ? kNaN32 : f32(r); }

struct Pairs {
  std::vector<uint64_t> a, b, c;
};
Pairs all_pairs() {
  Pairs p;
  const auto v = tricky_f32();
  for (float x : v) {
    for (float y : v) {
      p.a.push_back(f32(x));
      p.b.push_back(f32(y));
      p.c.push_back(f32(-x * 0.75f));
    }
  }
  return p;
}

struct ModeCase {
  const char* name;
  int host;
};
constexpr ModeCase kModes[] = {{"rn", FE_TONEAREST}, {"rz", FE_TOWARDZERO}, {"rm", FE_DOWNWARD},
                               {"rp", FE_UPWARD}};

TEST(FloatArith, F32AddSubMulEveryModeMatchesHost) {
  const Pairs p = all_pairs();
  for (const ModeCase& m : kModes) {
    for (char op : {'+', '-', '*'}) {
      const std::string opcode = op == '+' ? "add" : op == '-' ? "sub" : "mul";
      const auto got = run(opcode + "." + m.name + ".f32 %fo, %fa, %fb;", Out::F32, p.a, p.b);
      for (size_t i = 0; i < got.size(); ++i) {
        const uint64_t want = canon(host_in_mode(m.host, op, as_f32(p.a[i]), as_f32(p.b[i])));
        ASSERT_EQ(got[i], want) << opcode << "." << m.name << " " << as_f32(p.a[i]) << ", "
                                << as_f32(p.b[i]);
      }
    }
  }
}

TEST(FloatArith, F32FmaEveryModeMatchesHost) {
  const Pairs p = all_pairs();
  for (const ModeCase& m : kModes) {
    const auto got = run(std::string("fma.") + m.name + ".f32 %fo, %fa, %fb, %fc;", Out::F32, p.a,
                         p.b, p.c);
    for (size_t i = 0; i < got.size(); ++i) {
      const uint64_t want =
          canon(host_in_mode(m.host, 'f', as_f32(p.a[i]), as_f32(p.b[i]), as_f32(p.c[i])));
      ASSERT_EQ(got[i], want) << m.name << " " << as_f32(p.a[i]) << " " << as_f32(p.b[i]) << " "
                              << as_f32(p.c[i]);
    }
  }
}

TEST(FloatArith, F32DirectedRoundingKnownValues) {
  const std::vector<uint64_t> a = {f32(1.0f), f32(1.0f), f32(-1.0f), f32(5.0f)};
  const std::vector<uint64_t> b = {f32(0x1p-30f), f32(0x1p-30f), f32(-0x1p-30f), f32(-5.0f)};
  EXPECT_EQ(run("add.rz.f32 %fo, %fa, %fb;", Out::F32, a, b),
            (std::vector<uint64_t>{f32(1.0f), f32(1.0f), f32(-1.0f), f32(0.0f)}));
  EXPECT_EQ(run("add.rp.f32 %fo, %fa, %fb;", Out::F32, a, b),
            (std::vector<uint64_t>{f32(0x1.000002p0f), f32(0x1.000002p0f), f32(-1.0f), f32(0.0f)}));
  // Rounding down: an exact zero sum of non-zero operands is -0.
  EXPECT_EQ(run("add.rm.f32 %fo, %fa, %fb;", Out::F32, a, b),
            (std::vector<uint64_t>{f32(1.0f), f32(1.0f), f32(-0x1.000002p0f), f32(-0.0f)}));
  // mad.f32 is fma.rn: no intermediate rounding of the product.
  const float x = 0x1.000002p0f;
  EXPECT_EQ(run("mad.f32 %fo, %fa, %fa, %fb;", Out::F32, {f32(x)}, {f32(-1.0f)}),
            (std::vector<uint64_t>{f32(std::fma(x, x, -1.0f))}));
  EXPECT_EQ(run("mad.rn.f32 %fo, %fa, %fa, %fb;", Out::F32, {f32(x)}, {f32(-1.0f)}),
            (std::vector<uint64_t>{f32(0x1p-22f + 0x1p-46f)}));
}

TEST(FloatArith, F32FtzAndSat) {
  const std::vector<uint64_t> a = {f32(0x1p-140f), f32(0x1p-125f), f32(2.0f), f32(-3.0f), kNaN32,
                                   f32(0.25f)};
  const std::vector<uint64_t> b = {f32(0.0f), f32(-0x1.fp-126f), f32(0.5f), f32(1.0f), f32(1.0f),
                                   f32(0.5f)};
  // Subnormal input flushed to +0; 2^-125 - 1.9375*2^-126 = 2^-130 (subnormal) flushed to +0.
  EXPECT_EQ(run("add.ftz.f32 %fo, %fa, %fb;", Out::F32, a, b),
            (std::vector<uint64_t>{f32(0.0f), f32(0.0f), f32(2.5f), f32(-2.0f), kNaN32, f32(0.75f)}));
  EXPECT_EQ(run("add.f32 %fo, %fa, %fb;", Out::F32, a, b)[1], f32(0x1p-130f));
  EXPECT_EQ(run("add.sat.f32 %fo, %fa, %fb;", Out::F32, a, b),
            (std::vector<uint64_t>{f32(0x1p-140f), f32(0x1p-130f), f32(1.0f), f32(0.0f), 0,
                                   f32(0.75f)}));
  EXPECT_EQ(run("mul.rn.ftz.sat.f32 %fo, %fa, %fb;", Out::F32, {f32(-0x1p-140f), f32(0.5f)},
                {f32(1.0f), f32(3.0f)}),
            (std::vector<uint64_t>{0, f32(1.0f)}));
  EXPECT_EQ(run("mul.ftz.f32 %fo, %fa, %fb;", Out::F32, {f32(0x1p-100f)}, {f32(-0x1p-30f)}),
            (std::vector<uint64_t>{f32(-0.0f)}));
}

TEST(FloatArith, F32NaNResultIsCanonical) {
  const std::vector<uint64_t> a = {0xffc00001, f32(INFINITY), f32(0.0f)};
  const std::vector<uint64_t> b = {f32(1.0f), f32(-INFINITY), f32(INFINITY)};
  EXPECT_EQ(run("add.f32 %fo, %fa, %fb;", Out::F32, a, b),
            (std::vector<uint64_t>{kNaN32, kNaN32, f32(INFINITY)}));
  EXPECT_EQ(run("mul.f32 %fo, %fa, %fb;", Out::F32, a, b),
            (std::vector<uint64_t>{kNaN32, f32(-INFINITY), kNaN32}));
}

TEST(FloatArith, F64AllModes) {
  const double tiny = 0x1p-60;
  const std::vector<uint64_t> a = {f64(1.0), f64(-1.0), f64(0x1p-1074), f64(3.0)};
  const std::vector<uint64_t> b = {f64(tiny), f64(-tiny), f64(0.5), f64(-3.0)};
  const auto rn = run("add.f64 %do, %da, %db;", Out::F64, a, b);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(rn[i], f64(as_f64(a[i]) + as_f64(b[i])));
  EXPECT_EQ(run("add.rp.f64 %do, %da, %db;", Out::F64, a, b),
            (std::vector<uint64_t>{f64(0x1.0000000000001p0), f64(-1.0), f64(0x1.0000000000001p-1), f64(0.0)}));
  EXPECT_EQ(run("add.rm.f64 %do, %da, %db;", Out::F64, a, b),
            (std::vector<uint64_t>{f64(1.0), f64(-0x1.0000000000001p0), f64(0.5), f64(-0.0)}));
  EXPECT_EQ(run("mul.rz.f64 %do, %da, %db;", Out::F64, a, b),
            (std::vector<uint64_t>{f64(tiny), f64(tiny), f64(0.0), f64(-9.0)}));
  // fma.rn.f64 keeps the exact product: (1+2^-52)^2 - 1 = 2^-51 + 2^-104.
  const double x = 0x1.0000000000001p0;
  EXPECT_EQ(run("fma.rn.f64 %do, %da, %da, %db;", Out::F64, {f64(x)}, {f64(-1.0)}),
            (std::vector<uint64_t>{f64(0x1p-51 + 0x1p-104)}));
  EXPECT_EQ(run("fma.rm.f64 %do, %da, %db, %dc;", Out::F64, {f64(1.0)}, {f64(1.0)}, {f64(-tiny)}),
            (std::vector<uint64_t>{f64(0x1.fffffffffffffp-1)}));
  EXPECT_EQ(run("sub.rz.f64 %do, %da, %db;", Out::F64, {f64(1.0)}, {f64(tiny)}),
            (std::vector<uint64_t>{f64(0x1.fffffffffffffp-1)}));
}

// ---- half formats ------------------------------------------------------------------------
uint16_t h16(float v) { return std::bit_cast<uint16_t>(static_cast<_Float16>(v)); }
float from_h16(uint16_t h) { return static_cast<float>(std::bit_cast<_Float16>(h)); }
uint16_t canon16(float v) { return std::isnan(v) ? 0x7fff : h16(v); }
uint16_t canon16d(double v) {
  return std::isnan(v) ? 0x7fff : std::bit_cast<uint16_t>(static_cast<_Float16>(v));
}

// bf16 round-to-nearest-even of a float (the usual bias trick), NaN canonical.
uint16_t bf16(float v) {
  if (std::isnan(v)) return 0x7fff;
  const uint32_t b = std::bit_cast<uint32_t>(v);
  return static_cast<uint16_t>((b + 0x7fff + (b >> 16 & 1)) >> 16);
}
float from_bf16(uint16_t h) { return std::bit_cast<float>(static_cast<uint32_t>(h) << 16); }

std::vector<uint16_t> tricky_f16() {
  return {0x0000, 0x8000, 0x3c00, 0xbc00, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff,
          0x7c00, 0xfc00, 0x7e00, 0x3c01, 0x1000, 0x3555, 0xc200, 0x5640, 0x0200, 0x3800};
}

TEST(FloatArith, F16AddMulFmaMatchFloat16Reference) {
  std::vector<uint64_t> a, b, c;
  for (uint16_t x : tricky_f16()) {
    for (uint16_t y : tricky_f16()) {
      a.push_back(x);
      b.push_back(y);
      c.push_back(0x3c00);
    }
  }
  const auto add = run("add.f16 %o16, %a16, %b16;", Out::B16, a, b);
  const auto sub = run("sub.rn.f16 %o16, %a16, %b16;", Out::B16, a, b);
  const auto mul = run("mul.f16 %o16, %a16, %b16;", Out::B16, a, b);
  const auto fma = run("fma.rn.f16 %o16, %a16, %b16, %c16;", Out::B16, a, b, c);
  for (size_t i = 0; i < a.size(); ++i) {
    const float x = from_h16(static_cast<uint16_t>(a[i])), y = from_h16(static_cast<uint16_t>(b[i]));
    ASSERT_EQ(add[i], canon16(x + y)) << x << " + " << y;
    ASSERT_EQ(sub[i], canon16(x - y)) << x << " - " << y;
    ASSERT_EQ(mul[i], canon16(x * y)) << x << " * " << y;
    // x*y is exact in float and x*y + 1 exact in double for these inputs.
    ASSERT_EQ(fma[i], canon16d(static_cast<double>(x * y) + 1.0))
        << x << " * " << y << " + 1";
  }
}

TEST(FloatArith, F16HalfwayCasesRoundToEven) {
  // 1 + 2^-11 is a tie between 1 and 1+2^-10: even is 1.0. 1 + 3*2^-11 ties up to 1+2^-9.
  EXPECT_EQ(run("add.rn.f16 %o16, %a16, %b16;", Out::B16, {0x3c00, 0x3c00}, {0x1000, 0x1600}),
            (std::vector<uint64_t>{0x3c00, 0x3c02}));
  // fma.rn.f16 rounds once: 1.5*2^-11*... a product that is a tie only after double rounding.
  EXPECT_EQ(run("fma.rn.f16 %o16, %a16, %b16, %c16;", Out::B16, {0x3c01}, {0x3c01}, {0xbc00}),
            (std::vector<uint64_t>{h16(static_cast<float>((1 + 0x1p-10) * (1 + 0x1p-10) - 1))}));
  // Overflow to infinity, subnormal results kept, .ftz flushes them, .sat clamps.
  EXPECT_EQ(run("add.f16 %o16, %a16, %b16;", Out::B16, {0x7bff, 0x0200}, {0x7bff, 0x8001}),
            (std::vector<uint64_t>{0x7c00, 0x01ff}));
  EXPECT_EQ(run("add.ftz.f16 %o16, %a16, %b16;", Out::B16, {0x0200, 0x0400}, {0x8001, 0x8000}),
            (std::vector<uint64_t>{0x0000, 0x0400}));
  EXPECT_EQ(run("mul.sat.f16 %o16, %a16, %b16;", Out::B16, {0x4000, 0xbc00, 0x7e00}, {0x3c00, 0x3c00, 0x3c00}),
            (std::vector<uint64_t>{0x3c00, 0x0000, 0x0000}));
}

TEST(FloatArith, F16x2AndReluAndBf16) {
  // Lower half 1+1, upper half 2*? as packed pairs.
  EXPECT_EQ(run("add.f16x2 %o32, %a32, %b32;", Out::B32, {0x40003c00}, {0xc4003c00}),
            (std::vector<uint64_t>{0xc0004000}));
  EXPECT_EQ(run("fma.rn.relu.f16x2 %o32, %a32, %b32, %c32;", Out::B32, {0x3c003c00}, {0xbc004000},
                {0x00003c00}),
            (std::vector<uint64_t>{0x00004200}));
  EXPECT_EQ(run("fma.rn.relu.f16 %o16, %a16, %b16, %c16;", Out::B16, {0x7e00, 0x3c00}, {0x3c00, 0x3c00},
                {0x3c00, 0x8000}),
            (std::vector<uint64_t>{0x7fff, 0x3c00}));
  std::vector<uint64_t> a, b;
  for (float x : tricky_f32()) {
    for (float y : {1.0f, -0.0f, 0x1p-130f, 3.0e38f, 0.3f, 2.0f}) {
      a.push_back(bf16(x));
      b.push_back(bf16(y));
    }
  }
  const auto add = run("add.rn.bf16 %o16, %a16, %b16;", Out::B16, a, b);
  const auto mul = run("mul.rn.bf16 %o16, %a16, %b16;", Out::B16, a, b);
  const auto fma = run("fma.rn.bf16 %o16, %a16, %b16, %a16;", Out::B16, a, b);
  for (size_t i = 0; i < a.size(); ++i) {
    const float x = from_bf16(static_cast<uint16_t>(a[i])), y = from_bf16(static_cast<uint16_t>(b[i]));
    ASSERT_EQ(add[i], bf16(x + y)) << x << " + " << y;
    ASSERT_EQ(mul[i], bf16(x * y)) << x << " * " << y;  // bf16 products are exact in float
    const double exact = static_cast<double>(x) * y + x;  // exact in double for these inputs
    if (std::isinf(static_cast<float>(exact)) || static_cast<double>(static_cast<float>(exact)) == exact) {
      ASSERT_EQ(fma[i], bf16(static_cast<float>(exact))) << x << " fma " << y;
    }
  }
  EXPECT_EQ(run("mul.rn.bf16x2 %o32, %a32, %b32;", Out::B32, {0x40003f80}, {0xc0004040}),
            (std::vector<uint64_t>{0xc0804040}));
}

TEST(FloatArith, ErrorsAreLocatedAndExact) {
  EXPECT_EQ(load_error("add.rna.f32 %fo, %fa, %fb;"),
            "unsupported PTX instruction 'add.rna.f32' at float_test.ptx:44");
  EXPECT_EQ(load_error("add.f32 %fo, %fa;"), "expected 3 operands for 'add.f32', got 2");
  EXPECT_EQ(load_error("fma.f32 %fo, %fa, %fb, %fc;"),
            "unsupported PTX instruction 'fma.f32' at float_test.ptx:44");
  EXPECT_EQ(load_error("add.rz.f16 %o16, %a16, %b16;"),
            "unsupported PTX instruction 'add.rz.f16' at float_test.ptx:44");
}

}  // namespace
}  // namespace lockstep::test::floatops
