// 15_local_array: per-thread arrays indexed by data, which live in .local memory.
#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class LocalArray : public KernelProgramTest {};

TEST_P(LocalArray, DataIndexedLookup) {
  ModuleId m = load("15_local_array");
  TestRng rng(1501);
  const int n = 700;
  std::vector<int32_t> sel = random_ints<int32_t>(rng, n, 0, 1023);
  std::vector<int32_t> expected(n);
  for (int i = 0; i < n; ++i) {
    int32_t a[32];
    for (int k = 0; k < 32; ++k) a[k] = k * k + i;
    a[sel[i] & 31] += 7;
    expected[i] = a[(sel[i] >> 5) & 31] - a[0];
  }
  DeviceBuffer<int32_t> dsel(engine_, sel), dout(engine_, n);
  launch_ok(engine_, m, "local_lookup", {blocks_for(n, 128)}, {128}, {dsel.arg(), dout.arg(), arg(n)});
  EXPECT_TRUE(same_bits(dout.download(), expected));
}

TEST_P(LocalArray, NibbleHistogramPerThread) {
  ModuleId m = load("15_local_array");
  TestRng rng(1502);
  const int n = 300;
  std::vector<uint32_t> words(size_t{n} * 8);
  // Few distinct nibbles per thread so ties and clear winners both occur.
  for (auto& w : words) w = rng.next_u32() & (rng.next_u32() % 2 ? 0x33333333u : 0xFFFFFFFFu);
  std::vector<int32_t> best(n), best_count(n);
  for (int i = 0; i < n; ++i) {
    int32_t counts[16] = {};
    for (int w = 0; w < 8; ++w)
      for (int nib = 0; nib < 8; ++nib) ++counts[(words[i * 8 + w] >> (4 * nib)) & 15u];
    int top = 0;
    for (int k = 1; k < 16; ++k)
      if (counts[k] > counts[top]) top = k;
    best[i] = top;
    best_count[i] = counts[top];
  }
  DeviceBuffer<uint32_t> dwords(engine_, words);
  DeviceBuffer<int32_t> dbest(engine_, n), dcount(engine_, n);
  launch_ok(engine_, m, "local_histogram", {blocks_for(n, 64)}, {64},
            {dwords.arg(), dbest.arg(), dcount.arg(), arg(n)});
  EXPECT_TRUE(same_bits(dbest.download(), best));
  EXPECT_TRUE(same_bits(dcount.download(), best_count));
}

INSTANTIATE_TEST_SUITE_P(Arch, LocalArray, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)),
                         kernel_case_name);

}  // namespace
}  // namespace lockstep::test
