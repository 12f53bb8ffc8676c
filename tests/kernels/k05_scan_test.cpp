// 05_scan: per-block inclusive (Hillis-Steele) and exclusive (Blelloch) prefix sums, with the
// block totals. Integer data, so any summation order gives the same result.
#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class Scan : public KernelProgramTest {};

TEST_P(Scan, InclusiveHillisSteele) {
  ModuleId m = load("05_scan");
  TestRng rng(501);
  const int n = 2000;
  for (uint32_t block_size : {256u, 96u}) {  // 96: not a power of two
    std::vector<int32_t> in = random_ints<int32_t>(rng, n, -1000, 1000);
    const uint32_t blocks = blocks_for(n, block_size);
    std::vector<int32_t> expected(n), sums_expected(blocks);
    for (uint32_t b = 0; b < blocks; ++b) {
      int32_t running = 0;
      for (uint32_t t = 0; t < block_size; ++t) {
        size_t i = size_t{b} * block_size + t;
        if (i < static_cast<size_t>(n)) {
          running += in[i];
          expected[i] = running;
        }
      }
      sums_expected[b] = running;
    }
    DeviceBuffer<int32_t> din(engine_, in), dout(engine_, n), dsums(engine_, blocks);
    launch_ok(engine_, m, "scan_inclusive_hs", {blocks}, {block_size},
              {din.arg(), dout.arg(), dsums.arg(), arg(n)});
    EXPECT_TRUE(same_bits(dout.download(), expected)) << "block size " << block_size;
    EXPECT_TRUE(same_bits(dsums.download(), sums_expected)) << "block size " << block_size;
  }
}

TEST_P(Scan, ExclusiveBlelloch) {
  ModuleId m = load("05_scan");
  TestRng rng(502);
  const int n = 3000;
  for (uint32_t block_size : {512u, 64u}) {
    const uint32_t per_block = 2 * block_size;
    std::vector<uint32_t> in = random_ints<uint32_t>(rng, n, 0, INT32_MAX);  // sums wrap
    const uint32_t blocks = blocks_for(n, per_block);
    std::vector<uint32_t> expected(n), sums_expected(blocks);
    for (uint32_t b = 0; b < blocks; ++b) {
      uint32_t running = 0;
      for (uint32_t t = 0; t < per_block; ++t) {
        size_t i = size_t{b} * per_block + t;
        if (i < static_cast<size_t>(n)) {
          expected[i] = running;
          running += in[i];
        }
      }
      sums_expected[b] = running;
    }
    DeviceBuffer<uint32_t> din(engine_, in), dout(engine_, n), dsums(engine_, blocks);
    launch_ok(engine_, m, "scan_exclusive_blelloch", {blocks}, {block_size},
              {din.arg(), dout.arg(), dsums.arg(), arg(n)});
    EXPECT_TRUE(same_bits(dout.download(), expected)) << "block size " << block_size;
    EXPECT_TRUE(same_bits(dsums.download(), sums_expected)) << "block size " << block_size;
  }
}

INSTANTIATE_TEST_SUITE_P(Arch, Scan, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)),
                         kernel_case_name);

}  // namespace
}  // namespace lockstep::test
