// 27_softmax: one warp per row. The row maximum is exact (fmaxf + shfl) and compared bit for
// bit. Sums and outputs involve expf (<= 2 ulp, CUDA Programming Guide) and float additions in
// a fixed but hardware-specific order, so they are compared with a double reference built from
// the same rounded differences x - max: each expf term is within 2^-22 relative, and the sum's
// depth (ceil(cols/32) sequential adds + 5 butterfly levels) adds at most 10 * 2^-24 relative.
// The stated bound, 2e-6 relative, covers both with margin.
#include <cmath>

#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class Softmax : public KernelProgramTest {};

constexpr double kRelBound = 2e-6;

void run_softmax(Engine& engine, ModuleId m, int rows, int cols, uint64_t seed) {
  TestRng rng(seed);
  std::vector<float> x = random_floats(rng, static_cast<size_t>(rows) * cols, -10.0f, 10.0f);
  constexpr uint32_t kBlock = 128;   // 4 rows per block; the last block is partly idle
  DeviceBuffer<float> dx(engine, x), dy(engine, x.size()), dmax(engine, rows), dsum(engine, rows);
  launch_ok(engine, m, "softmax_rows", {blocks_for(rows, kBlock / 32)}, {kBlock},
            {dx.arg(), dy.arg(), dmax.arg(), dsum.arg(), arg(rows), arg(cols)});
  std::vector<float> y = dy.download(), got_max = dmax.download(), got_sum = dsum.download();
  std::vector<float> expected_max(rows);
  int bad = 0;
  for (int r = 0; r < rows; ++r) {
    const float* row = &x[static_cast<size_t>(r) * cols];
    float mx = -INFINITY;
    for (int j = 0; j < cols; ++j) mx = std::fmax(mx, row[j]);
    expected_max[r] = mx;
    double sum = 0;
    for (int j = 0; j < cols; ++j) sum += std::exp(static_cast<double>(row[j] - mx));
    if (std::fabs(got_sum[r] - sum) > kRelBound * sum && bad++ < 5)
      ADD_FAILURE() << "row " << r << " sum " << got_sum[r] << " reference " << sum;
    for (int j = 0; j < cols; ++j) {
      double ref = std::exp(static_cast<double>(row[j] - mx)) / sum;
      float got = y[static_cast<size_t>(r) * cols + j];
      if (!(std::fabs(got - ref) <= kRelBound * ref) && bad++ < 5)
        ADD_FAILURE() << "y[" << r << "][" << j << "] = " << got << " reference " << ref;
    }
  }
  EXPECT_EQ(bad, 0);
  EXPECT_TRUE(same_bits(got_max, expected_max));
}

TEST_P(Softmax, LongRows) { run_softmax(engine_, load("27_softmax"), 37, 100, 2701); }

TEST_P(Softmax, RowsShorterThanAWarp) { run_softmax(engine_, load("27_softmax"), 13, 20, 2702); }

INSTANTIATE_TEST_SUITE_P(Arch, Softmax, ::testing::ValuesIn(kernel_cases(WarpOps::kUsed)), kernel_case_name);

}  // namespace
}  // namespace lockstep::test
