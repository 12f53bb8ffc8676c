// The warp schedulers and the CTA scheduler in the whole model (seed 001 §3.4 and §3.6).
#include "timing/timing_harness.h"

namespace lockstep::test {
namespace {

// Seed 001 figs 3-25/3-26: every warp computes (k dependent FFMAs), then loads from global
// memory and computes on the result. Under lrr all warps reach their loads together and the
// scheduler idles through one long wait; under two-level the second fetch group computes while
// the first waits, so the kernel ends sooner by about the compute time of one group.
std::string compute_then_load(int k) {
  std::string body = "  mov.f32 %f1, 0f3F800000;\n  mov.f32 %f2, 0f3F800000;\n  mov.f32 %f3, 0f3F800000;\n";
  for (int i = 0; i < k; ++i) body += "  fma.rn.f32 %f1, %f1, %f2, %f3;\n";
  body += "  ld.param.u64 %rd1, [out];\n  ld.global.f32 %f4, [%rd1];\n";
  for (int i = 0; i < k; ++i) body += "  fma.rn.f32 %f1, %f1, %f4, %f3;\n";
  return micro_kernel(body);
}

sim::KernelTiming sixteen_warps(const std::string& scheduler, int k) {
  // One scheduler per SM, so the 16 warps of one block share it as in the figure.
  auto engine = timing_engine(
      timing_gpu("teaching", {"icache.miss_latency=1", "sm.schedulers=1", "timing.warp_scheduler=" + scheduler,
                              "timing.fetch_group_size=8"}));
  return run_timed(*engine, compute_then_load(k), 1, 128);
}

TEST(Scheduling, TwoLevelHidesTheLoadBehindTheOtherGroup) {
  const int k = 16;
  const sim::KernelTiming lrr = sixteen_warps("lrr", k);
  const sim::KernelTiming two_level = sixteen_warps("two-level", k);
  EXPECT_LT(two_level.cycles, lrr.cycles);
  // One group's compute: 8 warps x k FFMAs at one issue per cycle.
  const uint64_t group_compute = 8u * k;
  EXPECT_GE(lrr.cycles - two_level.cycles, group_compute / 2);
  EXPECT_LE(lrr.cycles - two_level.cycles, group_compute * 3 / 2);
}

// Seed 001 fig 3-33: 3 SMs holding 2 blocks each; blocks 0-5 are placed in rounds (0, 1, 2 on
// SMs 0, 1, 2, then 3, 4, 5 again on 0, 1, 2); later blocks go where a block finished first.
// Each block records %smid; the blocks' run time differs by block index so completion order is
// known: block b runs 10 * (6 - b % 6) FFMAs, so among the first six, block 5 ends first (SM 2),
// then block 4 (SM 1), then 3 (SM 0).
TEST(Scheduling, RoundRobinPlacesBlocksAsFigure333) {
  auto engine = timing_engine(timing_gpu(
      "teaching", {"icache.miss_latency=1", "gpu.sm_count=3", "sm.max_blocks=2", "timing.cta_scheduler=round-robin"}));
  const std::string ptx = micro_kernel(R"(  mov.u32 %r1, %ctaid.x;
  rem.u32 %r2, %r1, 6;
  sub.u32 %r3, 6, %r2;
  mul.lo.u32 %r3, %r3, 10;
  mov.f32 %f2, 0f3F800000;
  mov.f32 %f3, 0f00000000;
LOOP:
  fma.rn.f32 %f2, %f2, %f2, %f3;
  sub.u32 %r3, %r3, 1;
  setp.ne.u32 %p1, %r3, 0;
  @%p1 bra LOOP;
  mov.u32 %r4, %smid;
  cvt.rn.f32.u32 %f1, %r4;
)");
  std::vector<float> out;
  run_timed(*engine, ptx, 12, 8, &out);
  std::vector<int> sm_of_block;
  for (int b = 0; b < 12; ++b) sm_of_block.push_back(static_cast<int>(out[b * 8]));
  // Blocks 6, 7, 8 take the slots blocks 5, 4, 3 free (SMs 2, 1, 0), then 9, 10, 11 those of
  // blocks 2, 1, 0 in turn ... as the figure's completion order gives.
  EXPECT_EQ(sm_of_block, (std::vector<int>{0, 1, 2, 0, 1, 2, 2, 1, 0, 2, 1, 0}));
}

}  // namespace
}  // namespace lockstep::test
