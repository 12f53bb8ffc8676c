// 07_transpose: shared-tile transpose (32x33 tile, 32x8 blocks) and a naive 64-bit transpose.
// A copy is exact, so the check is bit-exact; odd shapes exercise the partial edge tiles.
#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class Transpose : public KernelProgramTest {};

TEST_P(Transpose, TiledFloat) {
  ModuleId m = load("07_transpose");
  TestRng rng(701);
  const int width = 100, height = 75;
  std::vector<float> in = random_floats(rng, size_t{width} * height, -1.0f, 1.0f);
  std::vector<float> expected(in.size());
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) expected[x * height + y] = in[y * width + x];
  DeviceBuffer<float> din(engine_, in), dout(engine_, std::vector<float>(in.size(), -0.0f));
  launch_ok(engine_, m, "transpose_tiled", {blocks_for(width, 32), blocks_for(height, 32)}, {32, 8},
            {din.arg(), dout.arg(), arg(width), arg(height)});
  EXPECT_TRUE(same_bits(dout.download(), expected));
}

TEST_P(Transpose, NaiveU64) {
  ModuleId m = load("07_transpose");
  TestRng rng(702);
  const int width = 33, height = 50;
  std::vector<uint64_t> in(size_t{width} * height), expected(in.size());
  for (auto& v : in) v = rng.next_u64();
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) expected[x * height + y] = in[y * width + x];
  DeviceBuffer<uint64_t> din(engine_, in), dout(engine_, in.size());
  launch_ok(engine_, m, "transpose_naive_u64", {blocks_for(width, 16), blocks_for(height, 16)},
            {16, 16}, {din.arg(), dout.arg(), arg(width), arg(height)});
  EXPECT_TRUE(same_bits(dout.download(), expected));
}

INSTANTIATE_TEST_SUITE_P(Arch, Transpose, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)),
                         kernel_case_name);

}  // namespace
}  // namespace lockstep::test
