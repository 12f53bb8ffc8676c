// 08_histogram: 256-bin histograms with shared-memory atomics merged by global atomicAdd, and
// with global atomics only. Counts are exact whatever order the atomics run in.
#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class Histogram : public KernelProgramTest {};

TEST_P(Histogram, SharedThenGlobalAtomics) {
  ModuleId m = load("08_histogram");
  TestRng rng(801);
  const int n = 20000;
  std::vector<uint8_t> data(n);
  // Skewed: half the bytes land in 8 bins, so many threads hit the same counter.
  for (auto& d : data) d = static_cast<uint8_t>(rng.next_u32() % 2 ? rng.range(0, 7) * 31 : rng.range(0, 255));
  std::vector<uint32_t> expected(256, 0);
  for (uint8_t d : data) ++expected[d];
  DeviceBuffer<uint8_t> ddata(engine_, data);
  DeviceBuffer<uint32_t> dhist(engine_, std::vector<uint32_t>(256, 0));
  launch_ok(engine_, m, "histogram256", {6}, {192}, {ddata.arg(), arg(n), dhist.arg()});
  EXPECT_TRUE(same_bits(dhist.download(), expected));
}

TEST_P(Histogram, GlobalAtomicsAccumulateAcrossLaunches) {
  ModuleId m = load("08_histogram");
  TestRng rng(802);
  const int n = 3001;
  std::vector<uint32_t> words(n);
  for (auto& w : words) w = rng.next_u32() & 0x0FFFFFFFu;  // top byte 0..15 only
  std::vector<uint32_t> expected(256, 0);
  for (uint32_t w : words) expected[w >> 24] += 2;  // launched twice
  DeviceBuffer<uint32_t> dwords(engine_, words);
  DeviceBuffer<uint32_t> dhist(engine_, std::vector<uint32_t>(256, 0));
  for (int launch = 0; launch < 2; ++launch)
    launch_ok(engine_, m, "histogram256_global", {blocks_for(n, 128)}, {128},
              {dwords.arg(), arg(n), dhist.arg()});
  EXPECT_TRUE(same_bits(dhist.download(), expected));
}

INSTANTIATE_TEST_SUITE_P(Arch, Histogram, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)),
                         kernel_case_name);

}  // namespace
}  // namespace lockstep::test
