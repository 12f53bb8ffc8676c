// 02_saxpy: y = a*x + y. nvcc contracts the plain form to fma.rn.f32 (see the PTX), so the
// reference uses fmaf; the _unfused form rounds the product and the sum separately.
#include <cmath>

#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class Saxpy : public KernelProgramTest {};

constexpr int kN = 2500;

TEST_P(Saxpy, FusedMultiplyAdd) {
  ModuleId m = load("02_saxpy");
  TestRng rng(201);
  const float a = 1.7320508f;
  std::vector<float> x = random_floats(rng, kN, -10.0f, 10.0f);
  std::vector<float> y = random_floats(rng, kN, -10.0f, 10.0f);
  std::vector<float> expected(kN);
  for (int i = 0; i < kN; ++i) expected[i] = std::fmaf(a, x[i], y[i]);
  DeviceBuffer<float> dx(engine_, x), dy(engine_, y);
  launch_ok(engine_, m, "saxpy", {blocks_for(kN, 256)}, {256}, {arg(kN), arg(a), dx.arg(), dy.arg()});
  EXPECT_TRUE(same_bits(dy.download(), expected));
}

TEST_P(Saxpy, UnfusedRoundsTwice) {
  ModuleId m = load("02_saxpy");
  TestRng rng(202);
  const float a = 1.7320508f;
  std::vector<float> x = random_floats(rng, kN, -10.0f, 10.0f);
  std::vector<float> y = random_floats(rng, kN, -10.0f, 10.0f);
  std::vector<float> expected(kN);
  size_t differs_from_fma = 0;
  for (int i = 0; i < kN; ++i) {
    expected[i] = mul_rn(a, x[i]) + y[i];
    if (bits_of(expected[i]) != bits_of(std::fmaf(a, x[i], y[i]))) ++differs_from_fma;
  }
  ASSERT_GT(differs_from_fma, 0u) << "inputs do not tell fused from unfused";
  DeviceBuffer<float> dx(engine_, x), dy(engine_, y);
  launch_ok(engine_, m, "saxpy_unfused", {blocks_for(kN, 128)}, {128},
            {arg(kN), arg(a), dx.arg(), dy.arg()});
  EXPECT_TRUE(same_bits(dy.download(), expected));
}

TEST_P(Saxpy, DoublePrecision) {
  ModuleId m = load("02_saxpy");
  TestRng rng(203);
  const double a = -0.3183098861837907;
  std::vector<double> x(kN), y(kN), expected(kN);
  for (int i = 0; i < kN; ++i) {
    x[i] = static_cast<double>(rng.next_u32()) / 4096.0 - 5.0e5;
    y[i] = static_cast<double>(rng.next_u32()) / 65536.0;
    expected[i] = std::fma(a, x[i], y[i]);
  }
  DeviceBuffer<double> dx(engine_, x), dy(engine_, y);
  launch_ok(engine_, m, "daxpy", {blocks_for(kN, 192)}, {192}, {arg(kN), arg(a), dx.arg(), dy.arg()});
  EXPECT_TRUE(same_bits(dy.download(), expected));
}

INSTANTIATE_TEST_SUITE_P(Arch, Saxpy, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)),
                         kernel_case_name);

}  // namespace
}  // namespace lockstep::test
