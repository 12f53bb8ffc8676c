// 18_bf16 (sm_80 and sm_90 only): bf16 add/sub/mul/fma are correctly rounded (sm_80 builds them
// from fma.rn.bf16 with 1.0 / -0.0, sm_90 has add/sub/mul.bf16), so the reference rounds the
// exact result once. Arithmetic inputs stay within 2^-20..2^21 so every exact intermediate
// fits the 128-bit reference; conversions see the whole float range, NaN and infinities.
#include "kernels/float_formats_ref.h"
#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class Bf16 : public KernelProgramTest {};

constexpr int kN = 900;
constexpr uint32_t kBlock = 128;

uint16_t random_bf16(TestRng& rng) {
  uint16_t sign = (rng.next_u32() & 1) ? 0x8000 : 0;
  uint16_t exp = static_cast<uint16_t>(127 + rng.range(-20, 20));
  uint16_t mant = static_cast<uint16_t>(rng.range(0, 0x7f));
  return static_cast<uint16_t>(sign | exp << 7 | mant);
}

uint16_t round_bf16(const ExactValue& v) {
  return static_cast<uint16_t>(round_to_format(v, kBf16Format, Round::kNearestEven));
}

TEST_P(Bf16, ScalarArithmetic) {
  ModuleId m = load("18_bf16");
  TestRng rng(1801);
  std::vector<uint16_t> a(kN), b(kN), c(kN), expected(6 * kN);
  for (int i = 0; i < kN; ++i) {
    a[i] = random_bf16(rng);
    b[i] = random_bf16(rng);
    c[i] = random_bf16(rng);
    ExactValue x = exact_from_bf16(a[i]), y = exact_from_bf16(b[i]), z = exact_from_bf16(c[i]);
    expected[6 * i + 0] = round_bf16(exact_add(x, y));
    expected[6 * i + 1] = round_bf16(exact_add(x, exact_neg(y)));
    expected[6 * i + 2] = round_bf16(exact_mul(x, y));
    expected[6 * i + 3] = round_bf16(exact_add(exact_mul(x, y), z));
    bool a_larger = bf16_to_float(a[i]) >= bf16_to_float(b[i]);
    expected[6 * i + 4] = a_larger ? a[i] : b[i];
    expected[6 * i + 5] = a_larger ? b[i] : a[i];
  }
  DeviceBuffer<uint16_t> da(engine_, a), db(engine_, b), dc(engine_, c), dout(engine_, 6 * kN);
  launch_ok(engine_, m, "bf16_scalar_ops", {blocks_for(kN, kBlock)}, {kBlock},
            {da.arg(), db.arg(), dc.arg(), dout.arg(), arg(kN)});
  EXPECT_TRUE(same_bits(dout.download(), expected));
}

TEST_P(Bf16, Bf162VectorArithmetic) {
  ModuleId m = load("18_bf16");
  TestRng rng(1802);
  std::vector<uint32_t> a(kN), b(kN), c(kN), expected(3 * kN);
  for (int i = 0; i < kN; ++i) {
    uint16_t x[2], y[2], z[2], r[3][2];
    for (int lane = 0; lane < 2; ++lane) {
      x[lane] = random_bf16(rng);
      y[lane] = random_bf16(rng);
      z[lane] = random_bf16(rng);
      ExactValue ex = exact_from_bf16(x[lane]), ey = exact_from_bf16(y[lane]), ez = exact_from_bf16(z[lane]);
      r[0][lane] = round_bf16(exact_add(ex, ey));
      r[1][lane] = round_bf16(exact_mul(ex, ey));
      r[2][lane] = round_bf16(exact_add(exact_mul(ex, ey), ez));
    }
    a[i] = x[0] | static_cast<uint32_t>(x[1]) << 16;
    b[i] = y[0] | static_cast<uint32_t>(y[1]) << 16;
    c[i] = z[0] | static_cast<uint32_t>(z[1]) << 16;
    for (int k = 0; k < 3; ++k) expected[3 * i + k] = r[k][0] | static_cast<uint32_t>(r[k][1]) << 16;
  }
  DeviceBuffer<uint32_t> da(engine_, a), db(engine_, b), dc(engine_, c), dout(engine_, 3 * kN);
  launch_ok(engine_, m, "bf162_vector_ops", {blocks_for(kN, kBlock)}, {kBlock},
            {da.arg(), db.arg(), dc.arg(), dout.arg(), arg(kN)});
  EXPECT_TRUE(same_bits(dout.download(), expected));
}

TEST_P(Bf16, FloatToBf16EveryRounding) {
  ModuleId m = load("18_bf16");
  TestRng rng(1803);
  std::vector<float> in(kN);
  for (int i = 0; i < kN; ++i) {
    uint32_t bits = rng.next_u32();
    if (i % 3 == 1) bits = (bits & 0xffff0000u) | 0x8000u;  // exact ties between two bf16 values
    if (i % 3 == 2) bits &= 0x807fffffu;                    // subnormals
    in[i] = std::bit_cast<float>(bits);
  }
  in[0] = 3.3961514e+38f;   // above the largest bf16: rounds to infinity at nearest
  in[1] = -INFINITY;
  std::vector<uint16_t> rn(kN), rz(kN), rd(kN), ru(kN);
  std::vector<uint32_t> back(kN);
  for (int i = 0; i < kN; ++i) {
    rn[i] = float_to_bf16(in[i], Round::kNearestEven);
    rz[i] = float_to_bf16(in[i], Round::kTowardZero);
    rd[i] = float_to_bf16(in[i], Round::kDown);
    ru[i] = float_to_bf16(in[i], Round::kUp);
    back[i] = static_cast<uint32_t>(rn[i]) << 16;
  }
  DeviceBuffer<float> din(engine_, in);
  DeviceBuffer<uint16_t> drn(engine_, kN), drz(engine_, kN), drd(engine_, kN), dru(engine_, kN);
  DeviceBuffer<uint32_t> dback(engine_, kN);
  launch_ok(engine_, m, "bf16_conversions", {blocks_for(kN, kBlock)}, {kBlock},
            {din.arg(), drn.arg(), drz.arg(), drd.arg(), dru.arg(), dback.arg(), arg(kN)});
  EXPECT_TRUE(same_words_any_nan(drn.download(), rn, bf16_is_nan)) << "rn";
  EXPECT_TRUE(same_words_any_nan(drz.download(), rz, bf16_is_nan)) << "rz";
  EXPECT_TRUE(same_words_any_nan(drd.download(), rd, bf16_is_nan)) << "rd";
  EXPECT_TRUE(same_words_any_nan(dru.download(), ru, bf16_is_nan)) << "ru";
  EXPECT_TRUE(same_words_any_nan(dback.download(), back, f32_bits_is_nan)) << "bf16->float";
}

INSTANTIATE_TEST_SUITE_P(Arch, Bf16, ::testing::ValuesIn(kernel_cases(WarpOps::kNone, {80, 90})),
                         kernel_case_name);

}  // namespace
}  // namespace lockstep::test
