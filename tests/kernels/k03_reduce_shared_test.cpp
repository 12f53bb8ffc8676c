// 03_reduce_shared: shared-memory tree reduction, one partial sum per block, for block sizes
// 64..512. Integer sums are exact in any order; the float reference replays the kernel's tree
// order exactly (pairwise first load, then halving strides), so it is bit-exact too.
#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class ReduceShared : public KernelProgramTest {};

template <class T>
std::vector<T> tree_reference(const std::vector<T>& in, uint32_t block_size) {
  const size_t n = in.size();
  const uint32_t blocks = blocks_for(n, block_size * 2);
  std::vector<T> out(blocks);
  std::vector<T> partial(block_size);
  for (uint32_t b = 0; b < blocks; ++b) {
    for (uint32_t t = 0; t < block_size; ++t) {
      size_t i = size_t{b} * block_size * 2 + t;
      T v = 0;
      if (i < n) v = in[i];
      if (i + block_size < n) v += in[i + block_size];
      partial[t] = v;
    }
    for (uint32_t s = block_size / 2; s > 0; s >>= 1)
      for (uint32_t t = 0; t < s; ++t) partial[t] += partial[t + s];
    out[b] = partial[0];
  }
  return out;
}

template <class T>
void run_reduce(Engine& engine, ModuleId m, const std::string& kernel, uint32_t block_size,
                const std::vector<T>& in) {
  const uint32_t n = static_cast<uint32_t>(in.size());
  const uint32_t blocks = blocks_for(n, block_size * 2);
  DeviceBuffer<T> din(engine, in), dout(engine, blocks);
  launch_ok(engine, m, kernel, {blocks}, {block_size}, {din.arg(), dout.arg(), arg(n)});
  EXPECT_TRUE(same_bits(dout.download(), tree_reference(in, block_size))) << kernel;
}

TEST_P(ReduceShared, UnsignedAllBlockSizes) {
  ModuleId m = load("03_reduce_shared");
  TestRng rng(301);
  // Values up to 2^31 so the 32-bit sums wrap.
  std::vector<uint32_t> in = random_ints<uint32_t>(rng, 5000, 0, INT32_MAX);
  for (uint32_t bs : {64u, 128u, 256u, 512u})
    run_reduce(engine_, m, "reduce_u32_bs" + std::to_string(bs), bs, in);
}

TEST_P(ReduceShared, FloatTreeOrder) {
  ModuleId m = load("03_reduce_shared");
  TestRng rng(302);
  std::vector<float> in = random_floats(rng, 3333, -1000.0f, 1000.0f);
  run_reduce(engine_, m, "reduce_f32_bs128", 128, in);
  run_reduce(engine_, m, "reduce_f32_bs256", 256, in);
}

INSTANTIATE_TEST_SUITE_P(Arch, ReduceShared, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)),
                         kernel_case_name);

}  // namespace
}  // namespace lockstep::test
