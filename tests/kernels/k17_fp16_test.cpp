// 17_fp16: every f16 operation is correctly rounded (PTX add/sub/mul/fma .f16 round to nearest
// even, max/min pick an operand, cvt rounds as named), so the reference computes each result
// exactly and rounds it once (float_formats_ref.h) and the comparison is bit for bit.
// Inputs avoid NaN and zeros of both signs in max/min; conversions do see NaN/Inf/overflow.
#include "kernels/float_formats_ref.h"
#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class Fp16 : public KernelProgramTest {};

constexpr int kN = 1000;       // 8 blocks of 128, the last one partial
constexpr uint32_t kBlock = 128;

// A nonzero finite half with biased exponent in [0, max_biased] (0 = subnormal).
uint16_t random_half(TestRng& rng, int max_biased) {
  uint16_t sign = (rng.next_u32() & 1) ? 0x8000 : 0;
  uint16_t exp = static_cast<uint16_t>(rng.range(0, max_biased));
  uint16_t mant = static_cast<uint16_t>(rng.range(exp == 0 ? 1 : 0, 0x3ff));
  return static_cast<uint16_t>(sign | exp << 10 | mant);
}

uint16_t round_half(const ExactValue& v) { return static_cast<uint16_t>(round_to_format(v, kHalfFormat, Round::kNearestEven)); }

uint16_t pick_max(uint16_t a, uint16_t b) { return half_to_double(a) >= half_to_double(b) ? a : b; }
uint16_t pick_min(uint16_t a, uint16_t b) { return half_to_double(a) <= half_to_double(b) ? a : b; }

// The five vector results of one 16-bit lane: add, sub, mul, fma, max.
std::vector<uint16_t> lane_results(uint16_t x, uint16_t y, uint16_t z) {
  ExactValue a = exact_from_half(x), b = exact_from_half(y), c = exact_from_half(z);
  return {round_half(exact_add(a, b)), round_half(exact_add(a, exact_neg(b))),
          round_half(exact_mul(a, b)), round_half(exact_add(exact_mul(a, b), c)), pick_max(x, y)};
}

TEST_P(Fp16, ScalarArithmetic) {
  ModuleId m = load("17_fp16");
  TestRng rng(1701);
  std::vector<uint16_t> a(kN), b(kN), c(kN), expected(6 * kN);
  for (int i = 0; i < kN; ++i) {
    a[i] = random_half(rng, 22);  // |x| < 256: products may overflow to infinity
    b[i] = random_half(rng, 22);
    c[i] = random_half(rng, 24);
    std::vector<uint16_t> r = lane_results(a[i], b[i], c[i]);
    for (int k = 0; k < 5; ++k) expected[6 * i + k] = r[k];
    expected[6 * i + 5] = pick_min(a[i], b[i]);
  }
  DeviceBuffer<uint16_t> da(engine_, a), db(engine_, b), dc(engine_, c), dout(engine_, 6 * kN);
  launch_ok(engine_, m, "half_scalar_ops", {blocks_for(kN, kBlock)}, {kBlock},
            {da.arg(), db.arg(), dc.arg(), dout.arg(), arg(kN)});
  EXPECT_TRUE(same_bits(dout.download(), expected));
}

TEST_P(Fp16, Half2VectorArithmetic) {
  ModuleId m = load("17_fp16");
  TestRng rng(1702);
  std::vector<uint32_t> a(kN), b(kN), c(kN), expected(5 * kN);
  for (int i = 0; i < kN; ++i) {
    uint16_t al = random_half(rng, 22), ah = random_half(rng, 22), bl = random_half(rng, 22),
             bh = random_half(rng, 22), cl = random_half(rng, 24), ch = random_half(rng, 24);
    a[i] = al | static_cast<uint32_t>(ah) << 16;
    b[i] = bl | static_cast<uint32_t>(bh) << 16;
    c[i] = cl | static_cast<uint32_t>(ch) << 16;
    std::vector<uint16_t> lo = lane_results(al, bl, cl), hi = lane_results(ah, bh, ch);
    for (int k = 0; k < 5; ++k) expected[5 * i + k] = lo[k] | static_cast<uint32_t>(hi[k]) << 16;
  }
  DeviceBuffer<uint32_t> da(engine_, a), db(engine_, b), dc(engine_, c), dout(engine_, 5 * kN);
  launch_ok(engine_, m, "half2_vector_ops", {blocks_for(kN, kBlock)}, {kBlock},
            {da.arg(), db.arg(), dc.arg(), dout.arg(), arg(kN)});
  EXPECT_TRUE(same_bits(dout.download(), expected));
}

// Floats that exercise conversion: raw bit patterns (NaN, Inf, huge, tiny), values inside the
// half range, exact ties between two halves, and values near the overflow threshold.
std::vector<float> conversion_inputs(TestRng& rng, int n) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) {
    switch (i % 4) {
      case 0: v[i] = std::bit_cast<float>(rng.next_u32()); break;
      case 1: v[i] = std::ldexp(rng.uniform(1.0f, 2.0f), rng.range(-27, 16)) * ((i & 4) ? -1.0f : 1.0f); break;
      case 2: {  // a half value plus exactly half a unit of its last place
        uint16_t h = random_half(rng, 29);
        ExactValue e = exact_from_half(h);
        float base = static_cast<float>(half_to_double(h));
        float tie = base + std::copysign(std::ldexp(1.0f, e.exponent - 1), base);
        v[i] = tie;
        break;
      }
      default: v[i] = static_cast<float>(rng.range(-70000, 70000)) + 0.5f * static_cast<float>(rng.range(0, 1)); break;
    }
  }
  v[0] = 65520.0f;   // rounds to infinity at nearest, to 65504 toward zero
  v[1] = -65519.0f;  // stays finite at nearest
  v[2] = 2.9802322e-08f;  // 2^-25: a tie between 0 and the smallest subnormal
  return v;
}

TEST_P(Fp16, FloatToHalfEveryRounding) {
  ModuleId m = load("17_fp16");
  TestRng rng(1703);
  std::vector<float> in = conversion_inputs(rng, kN);
  std::vector<uint16_t> rn(kN), rz(kN), rd(kN), ru(kN);
  std::vector<float> back(kN);
  for (int i = 0; i < kN; ++i) {
    rn[i] = float_to_half(in[i], Round::kNearestEven);
    rz[i] = float_to_half(in[i], Round::kTowardZero);
    rd[i] = float_to_half(in[i], Round::kDown);
    ru[i] = float_to_half(in[i], Round::kUp);
    back[i] = static_cast<float>(half_to_double(rn[i]));
  }
  DeviceBuffer<float> din(engine_, in), dback(engine_, kN);
  DeviceBuffer<uint16_t> drn(engine_, kN), drz(engine_, kN), drd(engine_, kN), dru(engine_, kN);
  launch_ok(engine_, m, "half_conversions", {blocks_for(kN, kBlock)}, {kBlock},
            {din.arg(), drn.arg(), drz.arg(), drd.arg(), dru.arg(), dback.arg(), arg(kN)});
  EXPECT_TRUE(same_words_any_nan(drn.download(), rn, half_is_nan)) << "rn";
  EXPECT_TRUE(same_words_any_nan(drz.download(), rz, half_is_nan)) << "rz";
  EXPECT_TRUE(same_words_any_nan(drd.download(), rd, half_is_nan)) << "rd";
  EXPECT_TRUE(same_words_any_nan(dru.download(), ru, half_is_nan)) << "ru";
  std::vector<uint32_t> back_bits(kN), got_bits(kN);
  std::vector<float> got = dback.download();
  for (int i = 0; i < kN; ++i) {
    back_bits[i] = std::bit_cast<uint32_t>(back[i]);
    got_bits[i] = std::bit_cast<uint32_t>(got[i]);
  }
  EXPECT_TRUE(same_words_any_nan(got_bits, back_bits, f32_bits_is_nan)) << "half->float";
}

TEST_P(Fp16, PackTwoFloats) {
  ModuleId m = load("17_fp16");
  TestRng rng(1704);
  std::vector<float> flat = conversion_inputs(rng, 2 * kN);
  std::vector<uint32_t> packed(kN), back(2 * kN);
  for (int i = 0; i < kN; ++i) {
    uint16_t lo = float_to_half(flat[2 * i], Round::kNearestEven);
    uint16_t hi = float_to_half(flat[2 * i + 1], Round::kNearestEven);
    packed[i] = lo | static_cast<uint32_t>(hi) << 16;
    back[2 * i] = std::bit_cast<uint32_t>(static_cast<float>(half_to_double(lo)));
    back[2 * i + 1] = std::bit_cast<uint32_t>(static_cast<float>(half_to_double(hi)));
  }
  DeviceBuffer<float> din(engine_, flat);
  DeviceBuffer<uint32_t> dpacked(engine_, kN), dback(engine_, 2 * kN);
  launch_ok(engine_, m, "half2_pack", {blocks_for(kN, kBlock)}, {kBlock},
            {din.arg(), dpacked.arg(), dback.arg(), arg(kN)});
  auto pair_nan = [](uint32_t w) { return half_is_nan(static_cast<uint16_t>(w)) || half_is_nan(static_cast<uint16_t>(w >> 16)); };
  EXPECT_TRUE(same_words_any_nan(dpacked.download(), packed, pair_nan));
  EXPECT_TRUE(same_words_any_nan(dback.download(), back, f32_bits_is_nan));
}

INSTANTIATE_TEST_SUITE_P(Arch, Fp16, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)), kernel_case_name);

}  // namespace
}  // namespace lockstep::test
