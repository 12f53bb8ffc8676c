// 33_select_minmax: selections and conversions whose results the PTX ISA fixes exactly:
// min/max return the non-NaN operand, abs/neg/copysign touch only the sign, cvt.sat clamps
// (NaN -> 0), float->int cvt rounds as named and saturates (NaN -> 0), int/double->float cvt
// rounds as named. Compared bit for bit (float_formats_ref.h), except that where the
// reference is NaN any NaN is accepted, and min/max of +0/-0 and saturate(-0) may give
// either zero (the ISA does not order the two zeros there).
#include <bit>
#include <cmath>

#include "kernels/float_formats_ref.h"
#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class SelectMinMax : public KernelProgramTest {};

constexpr int kN = 800;
constexpr uint32_t kBlock = 128;

// Floats for conversion and selection: raw bits, specials, integers and exact .5 ties,
// values near the 32/64-bit integer limits.
std::vector<float> interesting_floats(TestRng& rng, int n) {
  std::vector<float> v(n);
  const float specials[] = {0.0f, -0.0f, NAN, -NAN, INFINITY, -INFINITY, 0.5f, -0.5f, 1.5f, -2.5f,
                            2147483520.0f, 2147483648.0f, -2147483648.0f, -2147483904.0f,
                            4294967040.0f, 4294967296.0f, 9.2233715e18f, 9.223372e18f,
                            1.8446743e19f, 1.8446744e19f, -1.0f, 1e-40f};
  for (int i = 0; i < n; ++i) {
    switch (i % 5) {
      case 0: v[i] = std::bit_cast<float>(rng.next_u32()); break;
      case 1: v[i] = specials[rng.range(0, sizeof(specials) / sizeof(specials[0]) - 1)]; break;
      case 2: v[i] = static_cast<float>(rng.range(-100000, 100000)) * 0.5f; break;
      case 3: v[i] = std::ldexp(rng.uniform(1.0f, 2.0f), rng.range(-3, 66)) * ((i & 8) ? -1.0f : 1.0f); break;
      default: v[i] = rng.uniform(-3.0f, 3.0f); break;
    }
  }
  return v;
}

bool is_zero_bits(uint32_t b) { return (b & 0x7fffffffu) == 0; }

TEST_P(SelectMinMax, SelectionsOnFloats) {
  ModuleId m = load("33_select_minmax");
  TestRng rng(3301);
  std::vector<float> a = interesting_floats(rng, kN), b = interesting_floats(rng, kN);
  std::vector<int> k = random_ints<int>(rng, kN, INT32_MIN, INT32_MAX);
  k[0] = INT32_MIN;
  k[1] = 0;
  k[2] = -7;
  DeviceBuffer<float> da(engine_, a), db(engine_, b), dout(engine_, 7 * kN);
  DeviceBuffer<int> dk(engine_, k), diout(engine_, 2 * kN);
  launch_ok(engine_, m, "float_select", {blocks_for(kN, kBlock)}, {kBlock},
            {da.arg(), db.arg(), dk.arg(), dout.arg(), diout.arg(), arg(kN)});
  std::vector<float> out = dout.download();
  const char* names[7] = {"fminf", "fmaxf", "fabsf", "copysignf", "__saturatef", "neg", "x > y ? x : y"};
  int bad = 0;
  for (int i = 0; i < kN; ++i) {
    float x = a[i], y = b[i];
    uint32_t xb = std::bit_cast<uint32_t>(x), yb = std::bit_cast<uint32_t>(y);
    float mn = std::isnan(x) ? y : std::isnan(y) ? x : (y < x ? y : x);
    float mx = std::isnan(x) ? y : std::isnan(y) ? x : (y > x ? y : x);
    bool zero_pair = is_zero_bits(xb) && is_zero_bits(yb);
    float sat = std::isnan(x) ? 0.0f : std::fmin(std::fmax(x, 0.0f), 1.0f);
    uint32_t expected[7] = {std::bit_cast<uint32_t>(mn), std::bit_cast<uint32_t>(mx), xb & 0x7fffffffu,
                            (xb & 0x7fffffffu) | (yb & 0x80000000u), std::bit_cast<uint32_t>(sat),
                            xb ^ 0x80000000u, x > y ? xb : yb};
    bool either_zero[7] = {zero_pair, zero_pair, false, false, is_zero_bits(xb), false, false};
    for (int c = 0; c < 7; ++c) {
      uint32_t got = std::bit_cast<uint32_t>(out[7 * i + c]);
      bool ok = f32_bits_is_nan(expected[c]) ? f32_bits_is_nan(got)
                : either_zero[c] && is_zero_bits(expected[c]) ? is_zero_bits(got)
                : got == expected[c];
      if (!ok && bad++ < 8)
        ADD_FAILURE() << names[c] << "(" << x << ", " << y << ") = 0x" << std::hex << got << " expected 0x" << expected[c];
    }
  }
  EXPECT_EQ(bad, 0);
  std::vector<int> iexpected(2 * kN);
  for (int i = 0; i < kN; ++i) {
    iexpected[2 * i] = k[i] == INT32_MIN ? INT32_MIN : std::abs(k[i]);
    iexpected[2 * i + 1] = std::max(k[i], -(k[i] / 2));
  }
  EXPECT_TRUE(same_bits(diout.download(), iexpected)) << "abs / max";
}

TEST_P(SelectMinMax, FloatToIntegerEveryRounding) {
  ModuleId m = load("33_select_minmax");
  TestRng rng(3302);
  std::vector<float> a = interesting_floats(rng, kN);
  std::vector<uint64_t> expected(12 * kN);
  const Round modes[4] = {Round::kNearestEven, Round::kTowardZero, Round::kUp, Round::kDown};
  for (int i = 0; i < kN; ++i) {
    double x = a[i];
    uint64_t* o = &expected[12 * i];
    for (int r = 0; r < 4; ++r) {
      o[r] = static_cast<uint32_t>(float_to_int_sat<int32_t>(x, modes[r]));
      o[4 + r] = float_to_int_sat<uint32_t>(x, modes[r]);
    }
    o[8] = static_cast<uint64_t>(float_to_int_sat<int64_t>(x, Round::kNearestEven));
    o[9] = static_cast<uint64_t>(float_to_int_sat<int64_t>(x, Round::kTowardZero));
    o[10] = float_to_int_sat<uint64_t>(x, Round::kNearestEven);
    o[11] = float_to_int_sat<uint64_t>(x, Round::kUp);
  }
  DeviceBuffer<float> da(engine_, a);
  DeviceBuffer<uint64_t> dout(engine_, 12 * kN);
  launch_ok(engine_, m, "float_to_int", {blocks_for(kN, kBlock)}, {kBlock}, {da.arg(), dout.arg(), arg(kN)});
  EXPECT_TRUE(same_bits(dout.download(), expected));
}

TEST_P(SelectMinMax, IntegerToFloatEveryRounding) {
  ModuleId m = load("33_select_minmax");
  TestRng rng(3303);
  std::vector<uint64_t> a(kN);
  for (int i = 0; i < kN; ++i) a[i] = rng.next_u64() >> rng.range(0, 63);
  a[0] = 0x8000000000000000ull;
  a[1] = ~0ull;
  a[2] = 0x00000000ffffff80ull;  // low word -128, a tie-free exact case
  a[3] = 0x0000000001000001ull;  // 2^24 + 1: needs rounding in every mode
  std::vector<uint32_t> expected(16 * kN);
  std::vector<uint64_t> dexpected(2 * kN);
  const Round modes[4] = {Round::kNearestEven, Round::kTowardZero, Round::kUp, Round::kDown};
  for (int i = 0; i < kN; ++i) {
    uint64_t u = a[i];
    int32_t s32 = static_cast<int32_t>(static_cast<uint32_t>(u));
    uint32_t u32 = static_cast<uint32_t>(u >> 16);
    int64_t s64 = static_cast<int64_t>(u);
    uint32_t* o = &expected[16 * i];
    for (int r = 0; r < 4; ++r) {
      o[r] = int_to_float_bits(s32, modes[r]);
      o[4 + r] = uint_to_float_bits(u32, modes[r]);
      o[8 + r] = int_to_float_bits(s64, modes[r]);
    }
    o[12] = uint_to_float_bits(u, Round::kNearestEven);
    o[13] = uint_to_float_bits(u, Round::kDown);
    o[14] = uint_to_float_bits(u, Round::kUp);
    o[15] = uint_to_float_bits(u, Round::kTowardZero);
    dexpected[2 * i] = std::bit_cast<uint64_t>(static_cast<double>(s64));
    int extra = std::max(0, static_cast<int>(std::bit_width(u)) - 53);
    dexpected[2 * i + 1] = std::bit_cast<uint64_t>(static_cast<double>((u >> extra) << extra));
  }
  DeviceBuffer<uint64_t> da(engine_, a), ddout(engine_, 2 * kN);
  DeviceBuffer<uint32_t> dout(engine_, 16 * kN);
  launch_ok(engine_, m, "int_to_float", {blocks_for(kN, kBlock)}, {kBlock}, {da.arg(), dout.arg(), ddout.arg(), arg(kN)});
  EXPECT_TRUE(same_bits(dout.download(), expected));
  EXPECT_TRUE(same_bits(ddout.download(), dexpected));
}

TEST_P(SelectMinMax, DoubleNarrowing) {
  ModuleId m = load("33_select_minmax");
  TestRng rng(3304);
  std::vector<double> a(kN);
  for (int i = 0; i < kN; ++i) {
    switch (i % 4) {
      case 0: a[i] = std::bit_cast<double>(rng.next_u64()); break;
      case 1: a[i] = std::ldexp(1.0 + static_cast<double>(rng.next_u64() >> 12) * 0x1p-52, rng.range(-160, 130)); break;
      case 2: {  // ties halfway between two floats
        float f = std::ldexp(rng.uniform(1.0f, 2.0f), rng.range(-140, 120));
        a[i] = static_cast<double>(f) + std::ldexp(1.0, std::ilogb(f) - 24);
        break;
      }
      default: a[i] = static_cast<double>(rng.range(-80000, 80000)) + 0.5 * rng.range(0, 1); break;
    }
    if (i & 16) a[i] = -a[i];
  }
  std::vector<uint32_t> expected(8 * kN);
  for (int i = 0; i < kN; ++i) {
    double x = a[i];
    uint32_t* o = &expected[8 * i];
    o[0] = double_to_float_bits(x, Round::kNearestEven);
    o[1] = double_to_float_bits(x, Round::kTowardZero);
    o[2] = double_to_float_bits(x, Round::kUp);
    o[3] = double_to_float_bits(x, Round::kDown);
    o[4] = static_cast<uint32_t>(float_to_int_sat<int32_t>(x, Round::kNearestEven));
    o[5] = float_to_int_sat<uint32_t>(x, Round::kDown);
    o[6] = double_to_half(x, Round::kNearestEven);
    o[7] = float_to_half(std::bit_cast<float>(o[0]), Round::kNearestEven);
  }
  DeviceBuffer<double> da(engine_, a);
  DeviceBuffer<uint32_t> dout(engine_, 8 * kN);
  launch_ok(engine_, m, "double_narrow", {blocks_for(kN, kBlock)}, {kBlock}, {da.arg(), dout.arg(), arg(kN)});
  std::vector<uint32_t> got = dout.download();
  const char* names[8] = {"double2float_rn", "double2float_rz", "double2float_ru", "double2float_rd",
                          "double2int_rn", "double2uint_rd", "double2half", "float2half(double2float)"};
  for (int c = 0; c < 8; ++c) {
    std::vector<uint32_t> g(kN), e(kN);
    for (int i = 0; i < kN; ++i) {
      g[i] = got[8 * i + c];
      e[i] = expected[8 * i + c];
    }
    if (c < 4) {
      EXPECT_TRUE(same_words_any_nan(g, e, f32_bits_is_nan)) << names[c];
    } else if (c >= 6) {
      EXPECT_TRUE(same_words_any_nan(g, e, [](uint32_t w) { return half_is_nan(static_cast<uint16_t>(w)); })) << names[c];
    } else {
      EXPECT_TRUE(same_bits(g, e)) << names[c];
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Arch, SelectMinMax, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)), kernel_case_name);

}  // namespace
}  // namespace lockstep::test
