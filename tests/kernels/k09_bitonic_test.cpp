// 09_bitonic: bitonic sort of 1024-int segments in shared memory (one block per segment), and a
// whole-array sort in global memory driven by one launch per (k, j) compare-exchange pass.
// The result of a sort is unique, so the check against std::sort is exact.
#include <algorithm>

#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class Bitonic : public KernelProgramTest {};

TEST_P(Bitonic, SharedMemorySegments) {
  ModuleId m = load("09_bitonic");
  TestRng rng(901);
  const int segments = 3, segment = 1024;
  std::vector<int32_t> data = random_ints<int32_t>(rng, size_t{segments} * segment, -5000, 5000);
  std::vector<int32_t> expected = data;
  for (int s = 0; s < segments; ++s)
    std::sort(expected.begin() + s * segment, expected.begin() + (s + 1) * segment);
  DeviceBuffer<int32_t> d(engine_, data);
  launch_ok(engine_, m, "bitonic_sort_shared", {segments}, {512}, {d.arg()});
  EXPECT_TRUE(same_bits(d.download(), expected));
}

TEST_P(Bitonic, GlobalMemoryMultiKernel) {
  ModuleId m = load("09_bitonic");
  TestRng rng(902);
  const int n = 2048;
  std::vector<int32_t> data = random_ints<int32_t>(rng, n, INT32_MIN, INT32_MAX);
  std::vector<int32_t> expected = data;
  std::sort(expected.begin(), expected.end());
  DeviceBuffer<int32_t> d(engine_, data);
  for (int k = 2; k <= n; k <<= 1)
    for (int j = k >> 1; j > 0; j >>= 1)
      launch_ok(engine_, m, "bitonic_step_global", {blocks_for(n, 256)}, {256},
                {d.arg(), arg(n), arg(j), arg(k)});
  EXPECT_TRUE(same_bits(d.download(), expected));
}

INSTANTIATE_TEST_SUITE_P(Arch, Bitonic, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)),
                         kernel_case_name);

}  // namespace
}  // namespace lockstep::test
