// 04_reduce_shfl: warp-shuffle reductions (warp size 32 only: the kernels hard-code 32 lanes).
// The reference replays the kernel's exact order: each thread's grid-stride sum, then the
// shfl.down tree in which a lane whose source is out of range reads its own value.
#include <algorithm>

#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class ReduceShfl : public KernelProgramTest {};

template <class T>
T warp_fold_down(std::vector<T> lanes) {  // lanes.size() == 32
  for (int offset = 16; offset > 0; offset >>= 1) {
    std::vector<T> next(32);
    for (int l = 0; l < 32; ++l) next[l] = lanes[l] + (l + offset < 32 ? lanes[l + offset] : lanes[l]);
    lanes = next;
  }
  return lanes[0];
}

template <class T>
std::vector<T> shfl_reference(const std::vector<T>& in, uint32_t blocks, uint32_t block_size) {
  const size_t n = in.size();
  const size_t stride = size_t{blocks} * block_size;
  std::vector<T> out(blocks);
  for (uint32_t b = 0; b < blocks; ++b) {
    std::vector<T> warp_sums;
    for (uint32_t w = 0; w < block_size / 32; ++w) {
      std::vector<T> lanes(32);
      for (uint32_t l = 0; l < 32; ++l) {
        T sum = 0;
        for (size_t i = size_t{b} * block_size + w * 32 + l; i < n; i += stride) sum += in[i];
        lanes[l] = sum;
      }
      warp_sums.push_back(warp_fold_down(lanes));
    }
    std::vector<T> lanes(32, T{0});
    std::copy(warp_sums.begin(), warp_sums.end(), lanes.begin());
    out[b] = warp_fold_down(lanes);
  }
  return out;
}

constexpr uint32_t kBlocks = 7, kBlockSize = 160;  // 5 warps per block

TEST_P(ReduceShfl, IntSumPerBlock) {
  ModuleId m = load("04_reduce_shfl");
  TestRng rng(401);
  const int n = 10007;
  std::vector<int32_t> in = random_ints<int32_t>(rng, n, -100000, 100000);
  DeviceBuffer<int32_t> din(engine_, in), dout(engine_, kBlocks);
  launch_ok(engine_, m, "reduce_shfl_i32", {kBlocks}, {kBlockSize}, {din.arg(), dout.arg(), arg(n)});
  EXPECT_TRUE(same_bits(dout.download(), shfl_reference(in, kBlocks, kBlockSize)));
}

TEST_P(ReduceShfl, FloatSumInShuffleOrder) {
  ModuleId m = load("04_reduce_shfl");
  TestRng rng(402);
  const int n = 9001;
  std::vector<float> in = random_floats(rng, n, -50.0f, 50.0f);
  DeviceBuffer<float> din(engine_, in), dout(engine_, kBlocks);
  launch_ok(engine_, m, "reduce_shfl_f32", {kBlocks}, {kBlockSize}, {din.arg(), dout.arg(), arg(n)});
  EXPECT_TRUE(same_bits(dout.download(), shfl_reference(in, kBlocks, kBlockSize)));
}

TEST_P(ReduceShfl, ButterflyMaxAndBroadcast) {
  ModuleId m = load("04_reduce_shfl");
  TestRng rng(403);
  const uint32_t blocks = 4, block_size = 96, n = blocks * block_size;
  std::vector<int32_t> in = random_ints<int32_t>(rng, n, INT32_MIN, INT32_MAX);
  std::vector<int32_t> max_expected(n), first_expected(n);
  for (uint32_t w = 0; w < n / 32; ++w) {
    int32_t mx = *std::max_element(in.begin() + w * 32, in.begin() + w * 32 + 32);
    for (uint32_t l = 0; l < 32; ++l) {
      max_expected[w * 32 + l] = mx;
      first_expected[w * 32 + l] = in[w * 32];
    }
  }
  DeviceBuffer<int32_t> din(engine_, in), dmax(engine_, n), dfirst(engine_, n);
  launch_ok(engine_, m, "warp_max_broadcast", {blocks}, {block_size},
            {din.arg(), dmax.arg(), dfirst.arg()});
  EXPECT_TRUE(same_bits(dmax.download(), max_expected));
  EXPECT_TRUE(same_bits(dfirst.download(), first_expected));
}

INSTANTIATE_TEST_SUITE_P(Arch, ReduceShfl, ::testing::ValuesIn(kernel_cases(WarpOps::kUsed)),
                         kernel_case_name);

}  // namespace
}  // namespace lockstep::test
