// 29_coop_groups: thread_block_tile<32> and <16> (shfl_down tree reductions, tile ballot,
// thread_rank/meta_group_rank) and tile.sync() ordering a shared-memory exchange. Integer
// data: exact results. Warp-level operations, so warp size 32 only.
#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class CoopGroups : public KernelProgramTest {};

constexpr int kN = 1000;
constexpr uint32_t kBlock = 128;
constexpr uint32_t kGrid = (kN + kBlock - 1) / kBlock;

TEST_P(CoopGroups, TileReductionsAndBallot) {
  ModuleId m = load("29_coop_groups");
  TestRng rng(2901);
  std::vector<int> in = random_ints<int>(rng, kN, -100000, 100000);
  auto value = [&](uint32_t g) { return g < static_cast<uint32_t>(kN) ? in[g] : 0; };
  std::vector<int> sum32(kGrid * 4), sum16(kGrid * 8);
  for (uint32_t t = 0; t < kGrid * 4; ++t)
    for (uint32_t l = 0; l < 32; ++l) sum32[t] += value(t * 32 + l);
  for (uint32_t t = 0; t < kGrid * 8; ++t)
    for (uint32_t l = 0; l < 16; ++l) sum16[t] += value(t * 16 + l);
  std::vector<uint32_t> info(3 * kN);
  for (int i = 0; i < kN; ++i) {
    uint32_t t = static_cast<uint32_t>(i) % kBlock, tile_base = static_cast<uint32_t>(i) & ~15u;
    uint32_t ballot = 0;
    for (uint32_t l = 0; l < 16; ++l) ballot |= (value(tile_base + l) & 1 ? 1u : 0u) << l;
    info[3 * i + 0] = t % 16;
    info[3 * i + 1] = t / 16;
    info[3 * i + 2] = ballot;
  }
  DeviceBuffer<int> din(engine_, in), d32(engine_, sum32.size()), d16(engine_, sum16.size());
  DeviceBuffer<uint32_t> dinfo(engine_, info.size());
  launch_ok(engine_, m, "tile_reduce", {kGrid}, {kBlock},
            {din.arg(), d32.arg(), d16.arg(), dinfo.arg(), arg(kN)});
  EXPECT_TRUE(same_bits(d32.download(), sum32)) << "tile<32> sums";
  EXPECT_TRUE(same_bits(d16.download(), sum16)) << "tile<16> sums";
  EXPECT_TRUE(same_bits(dinfo.download(), info)) << "tile<16> rank / meta rank / ballot";
}

TEST_P(CoopGroups, TileSyncMirror) {
  ModuleId m = load("29_coop_groups");
  TestRng rng(2902);
  std::vector<int> in = random_ints<int>(rng, kN, -100000, 100000), expected(kN);
  for (int i = 0; i < kN; ++i) {
    int mirrored = i ^ 15;
    expected[i] = mirrored < kN ? in[mirrored] : 0;
  }
  DeviceBuffer<int> din(engine_, in), dout(engine_, kN);
  launch_ok(engine_, m, "tile_sync_mirror", {kGrid}, {kBlock}, {din.arg(), dout.arg(), arg(kN)});
  EXPECT_TRUE(same_bits(dout.download(), expected));
}

INSTANTIATE_TEST_SUITE_P(Arch, CoopGroups, ::testing::ValuesIn(kernel_cases(WarpOps::kUsed)), kernel_case_name);

}  // namespace
}  // namespace lockstep::test
