// 10_stencil: stencils with coefficients in __constant__ memory, written by the host through
// symbol_address. The PTX contracts the sums into fma.rn.f32 in a specific shape, and the
// reference repeats it exactly:
//   stencil1d: p = c1*(t[-1]+t[+1]); s = fma(c0, t[0], p); s = fma(c2, t[-2]+t[+2], s);
//              s = fma(c3, t[-3]+t[+3], s)
//   stencil2d: v = fma(c0, centre, c1*left); v = fma(c2, right, v); v = fma(c3, up, v);
//              v = fma(c4, down, v)
#include <algorithm>
#include <cmath>

#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class Stencil : public KernelProgramTest {};

TEST_P(Stencil, OneDimensionalWithHalo) {
  ModuleId m = load("10_stencil");
  const std::vector<float> coef = {0.5f, 0.2f, -0.125f, 0.0625f};
  ASSERT_EQ(engine_.symbol_size(m, "coef1d"), coef.size() * sizeof(float));
  engine_.copy_to_device(engine_.symbol_address(m, "coef1d"), coef.data(), coef.size() * sizeof(float));
  TestRng rng(1001);
  const int n = 1000;  // 128-thread blocks: the last one is partial
  std::vector<float> in = random_floats(rng, n, -4.0f, 4.0f);
  auto at = [&](int i) { return i >= 0 && i < n ? in[i] : 0.0f; };
  std::vector<float> expected(n);
  for (int i = 0; i < n; ++i) {
    float s = std::fmaf(coef[0], in[i], mul_rn(coef[1], at(i - 1) + at(i + 1)));
    s = std::fmaf(coef[2], at(i - 2) + at(i + 2), s);
    s = std::fmaf(coef[3], at(i - 3) + at(i + 3), s);
    expected[i] = s;
  }
  DeviceBuffer<float> din(engine_, in), dout(engine_, n);
  launch_ok(engine_, m, "stencil1d", {blocks_for(n, 128)}, {128}, {din.arg(), dout.arg(), arg(n)});
  EXPECT_TRUE(same_bits(dout.download(), expected));
}

TEST_P(Stencil, TwoDimensionalClampedEdges) {
  ModuleId m = load("10_stencil");
  const std::vector<float> coef = {-1.0f, 0.3f, 0.3f, 0.2f, 0.2f};
  engine_.copy_to_device(engine_.symbol_address(m, "coef2d"), coef.data(), coef.size() * sizeof(float));
  TestRng rng(1002);
  const int width = 45, height = 30;
  std::vector<float> in = random_floats(rng, size_t{width} * height, 0.0f, 10.0f);
  std::vector<float> expected(in.size());
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      int xl = std::max(x - 1, 0), xr = std::min(x + 1, width - 1);
      int yu = std::max(y - 1, 0), yd = std::min(y + 1, height - 1);
      float v = std::fmaf(coef[0], in[y * width + x], mul_rn(coef[1], in[y * width + xl]));
      v = std::fmaf(coef[2], in[y * width + xr], v);
      v = std::fmaf(coef[3], in[yu * width + x], v);
      v = std::fmaf(coef[4], in[yd * width + x], v);
      expected[y * width + x] = v;
    }
  DeviceBuffer<float> din(engine_, in), dout(engine_, in.size());
  launch_ok(engine_, m, "stencil2d", {blocks_for(width, 16), blocks_for(height, 8)}, {16, 8},
            {din.arg(), dout.arg(), arg(width), arg(height)});
  EXPECT_TRUE(same_bits(dout.download(), expected));
}

INSTANTIATE_TEST_SUITE_P(Arch, Stencil, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)),
                         kernel_case_name);

}  // namespace
}  // namespace lockstep::test
