// 24_cp_async: staged global->shared copies (cp.async at sm_80/90, plain ld/st at sm_75).
// Integer data, so results are exact; each output mixes elements copied by different threads
// and by different pipeline stages, so a stage read too early or a lost copy shows up.
#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class CpAsync : public KernelProgramTest {};

struct Int4 {
  int x, y, z, w;
};

TEST_P(CpAsync, PipelineDoubleBuffer) {
  ModuleId m = load("24_cp_async");
  constexpr int kTile = 64, kTiles = 10;
  constexpr uint32_t kGrid = 4;   // blocks loop over 3, 3, 2 and 2 tiles
  TestRng rng(2401);
  std::vector<Int4> in(kTile * kTiles);
  for (auto& v : in) v = {rng.range(-1 << 20, 1 << 20), rng.range(-1 << 20, 1 << 20), rng.range(-1 << 20, 1 << 20), rng.range(-1 << 20, 1 << 20)};
  std::vector<int> bias = random_ints<int>(rng, kTile * kTiles, -100000, 100000);
  std::vector<Int4> expected(in.size());
  std::vector<int> bias_expected(bias.size());
  for (int tile = 0; tile < kTiles; ++tile)
    for (int t = 0; t < kTile; ++t) {
      const Int4& mine = in[tile * kTile + t];
      const Int4& other = in[tile * kTile + (t + 1) % kTile];
      int b = bias[tile * kTile + kTile - 1 - t];
      expected[tile * kTile + t] = {mine.x * 3 + other.w, mine.y - other.z, mine.z ^ other.y, mine.w + b};
      bias_expected[tile * kTile + t] = b * 2;
    }
  DeviceBuffer<Int4> din(engine_, in), dout(engine_, in.size());
  DeviceBuffer<int> dbias(engine_, bias), dbias_out(engine_, bias.size());
  launch_ok(engine_, m, "pipeline_double_buffer", {kGrid}, {kTile},
            {din.arg(), dbias.arg(), dout.arg(), dbias_out.arg(), arg(kTiles)});
  std::vector<Int4> got = dout.download();
  std::vector<int> flat_got, flat_expected;
  for (size_t i = 0; i < got.size(); ++i) {
    flat_got.insert(flat_got.end(), {got[i].x, got[i].y, got[i].z, got[i].w});
    flat_expected.insert(flat_expected.end(), {expected[i].x, expected[i].y, expected[i].z, expected[i].w});
  }
  EXPECT_TRUE(same_bits(flat_got, flat_expected));
  EXPECT_TRUE(same_bits(dbias_out.download(), bias_expected));
}

TEST_P(CpAsync, CooperativeGroupsMemcpyAsync) {
  ModuleId m = load("24_cp_async");
  constexpr int kCount = 200;
  constexpr uint32_t kBlocks = 5, kThreads = 96;
  TestRng rng(2402);
  std::vector<int> in = random_ints<int>(rng, kCount * kBlocks, -1000000, 1000000);
  std::vector<int> expected(in.size());
  for (uint32_t b = 0; b < kBlocks; ++b)
    for (int j = 0; j < kCount; ++j) expected[b * kCount + j] = in[b * kCount + kCount - 1 - j] + j;
  DeviceBuffer<int> din(engine_, in), dout(engine_, in.size());
  launch_ok(engine_, m, "cg_memcpy_async_reverse", {kBlocks}, {kThreads},
            {din.arg(), dout.arg(), arg(kCount)}, kCount * sizeof(int));
  EXPECT_TRUE(same_bits(dout.download(), expected));
}

INSTANTIATE_TEST_SUITE_P(Arch, CpAsync, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)), kernel_case_name);

}  // namespace
}  // namespace lockstep::test
