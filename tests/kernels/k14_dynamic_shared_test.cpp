// 14_dynamic_shared: extern __shared__ arrays whose size is given at launch.
#include <algorithm>

#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class DynamicShared : public KernelProgramTest {};

TEST_P(DynamicShared, ReverseSegmentsPartialLastBlock) {
  ModuleId m = load("14_dynamic_shared");
  TestRng rng(1401);
  const int n = 1000;
  for (uint32_t block : {128u, 200u}) {
    std::vector<int32_t> in = random_ints<int32_t>(rng, n, -1000000, 1000000);
    std::vector<int32_t> expected(n);
    for (int base = 0; base < n; base += static_cast<int>(block)) {
      int count = std::min(static_cast<int>(block), n - base);
      for (int t = 0; t < count; ++t) expected[base + t] = in[base + count - 1 - t];
    }
    DeviceBuffer<int32_t> din(engine_, in), dout(engine_, n);
    launch_ok(engine_, m, "dyn_reverse", {blocks_for(n, block)}, {block},
              {din.arg(), dout.arg(), arg(n)}, block * static_cast<uint32_t>(sizeof(int32_t)));
    EXPECT_TRUE(same_bits(dout.download(), expected)) << "block " << block;
  }
}

TEST_P(DynamicShared, TwoArraysInOneAllocation) {
  ModuleId m = load("14_dynamic_shared");
  TestRng rng(1402);
  const uint32_t block = 96, blocks = 5, n = block * blocks;
  std::vector<int32_t> counts = random_ints<int32_t>(rng, n, -300, 300);
  std::vector<float> vals = random_floats(rng, n, -2.0f, 2.0f);
  std::vector<float> expected(n);
  for (uint32_t b = 0; b < blocks; ++b)
    for (uint32_t t = 0; t < block; ++t)
      expected[b * block + t] =
          vals[b * block + (t + 1) % block] * static_cast<float>(counts[b * block + block - 1 - t]);
  DeviceBuffer<int32_t> dcounts(engine_, counts);
  DeviceBuffer<float> dvals(engine_, vals), dout(engine_, n);
  launch_ok(engine_, m, "dyn_two_arrays", {blocks}, {block}, {dcounts.arg(), dvals.arg(), dout.arg()},
            block * 8);
  EXPECT_TRUE(same_bits(dout.download(), expected));
}

INSTANTIATE_TEST_SUITE_P(Arch, DynamicShared, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)),
                         kernel_case_name);

}  // namespace
}  // namespace lockstep::test
