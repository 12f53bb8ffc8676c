// 19_double: add/sub/mul/div/sqrt/fma on f64 are IEEE correctly rounded both in PTX
// (add.f64, div.rn.f64, sqrt.rn.f64, fma.rn.f64) and on the host, so results match bit for bit.
// The host reference uses std::fma exactly where the PTX has fma.rn.f64 (Horner and the
// contracted 1 + v*v in double_horner).
#include <cmath>

#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class Double : public KernelProgramTest {};

constexpr int kN = 777;
constexpr uint32_t kBlock = 96;

double random_double(TestRng& rng, int min_exp, int max_exp) {
  double mant = 1.0 + static_cast<double>(rng.next_u64() >> 12) * 0x1p-52;
  double v = std::ldexp(mant, rng.range(min_exp, max_exp));
  return (rng.next_u32() & 1) ? -v : v;
}

TEST_P(Double, Arithmetic) {
  ModuleId m = load("19_double");
  TestRng rng(1901);
  std::vector<double> a(kN), b(kN), c(kN), expected(7 * kN);
  for (int i = 0; i < kN; ++i) {
    a[i] = random_double(rng, -1030, 1000);  // includes subnormal products and quotients
    b[i] = random_double(rng, -60, 60);
    c[i] = random_double(rng, -100, 100);
    if (i % 50 == 0) b[i] = 0.0;  // division by zero -> infinity
    expected[7 * i + 0] = a[i] + b[i];
    expected[7 * i + 1] = a[i] - b[i];
    expected[7 * i + 2] = a[i] * b[i];
    expected[7 * i + 3] = std::fma(a[i], b[i], c[i]);
    expected[7 * i + 4] = a[i] / b[i];
    expected[7 * i + 5] = std::sqrt(std::fabs(a[i]));
    expected[7 * i + 6] = -a[i];
  }
  DeviceBuffer<double> da(engine_, a), db(engine_, b), dc(engine_, c), dout(engine_, 7 * kN);
  launch_ok(engine_, m, "double_arith", {blocks_for(kN, kBlock)}, {kBlock},
            {da.arg(), db.arg(), dc.arg(), dout.arg(), arg(kN)});
  EXPECT_TRUE(same_bits(dout.download(), expected));
}

TEST_P(Double, Conversions) {
  ModuleId m = load("19_double");
  TestRng rng(1902);
  std::vector<int> ints(kN);
  std::vector<unsigned long long> u64s(kN);
  std::vector<double> ds(kN), from_int(kN), from_u64(kN);
  std::vector<int> to_int(kN);
  std::vector<long long> to_s64(kN);
  for (int i = 0; i < kN; ++i) {
    ints[i] = static_cast<int>(rng.next_u32());
    u64s[i] = rng.next_u64() >> (i % 64);   // every magnitude; most need rounding to 53 bits
    ds[i] = static_cast<double>(static_cast<int64_t>(rng.next_u64()) >> 34) + 0.25 * (i % 4) - 0.5;
    from_int[i] = static_cast<double>(ints[i]);
    from_u64[i] = static_cast<double>(u64s[i]);
    to_int[i] = static_cast<int>(ds[i]);
    to_s64[i] = static_cast<long long>(ds[i] * 1024.0);
  }
  DeviceBuffer<int> dints(engine_, ints), dto_int(engine_, kN);
  DeviceBuffer<unsigned long long> du64(engine_, u64s);
  DeviceBuffer<double> dds(engine_, ds), dfrom_int(engine_, kN), dfrom_u64(engine_, kN);
  DeviceBuffer<long long> dto_s64(engine_, kN);
  launch_ok(engine_, m, "double_convert", {blocks_for(kN, kBlock)}, {kBlock},
            {dints.arg(), du64.arg(), dds.arg(), dfrom_int.arg(), dfrom_u64.arg(), dto_int.arg(),
             dto_s64.arg(), arg(kN)});
  EXPECT_TRUE(same_bits(dfrom_int.download(), from_int));
  EXPECT_TRUE(same_bits(dfrom_u64.download(), from_u64));
  EXPECT_TRUE(same_bits(dto_int.download(), to_int));
  EXPECT_TRUE(same_bits(dto_s64.download(), to_s64));
}

TEST_P(Double, HornerLoopWithDivision) {
  ModuleId m = load("19_double");
  TestRng rng(1903);
  std::vector<double> coeffs(8), x(kN), expected(kN);
  for (auto& c : coeffs) c = random_double(rng, -4, 4);
  for (int i = 0; i < kN; ++i) {
    x[i] = random_double(rng, -8, 3);
    double acc = coeffs[7];
    for (int k = 6; k >= 0; --k) acc = std::fma(acc, x[i], coeffs[k]);
    expected[i] = acc / std::fma(x[i], x[i], 1.0);
  }
  DeviceBuffer<double> dx(engine_, x), dc(engine_, coeffs), dout(engine_, kN);
  launch_ok(engine_, m, "double_horner", {blocks_for(kN, kBlock)}, {kBlock},
            {dx.arg(), dc.arg(), dout.arg(), arg(kN)});
  EXPECT_TRUE(same_bits(dout.download(), expected));
}

INSTANTIATE_TEST_SUITE_P(Arch, Double, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)), kernel_case_name);

}  // namespace
}  // namespace lockstep::test
