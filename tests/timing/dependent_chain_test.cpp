// Issue 5 acceptance, on the teaching preset: a dependent chain of k FFMAs takes k x the FP32
// latency (4 cycles) on top of a fixed overhead, and every cycle of the chain is charged to the
// right stall reason.
#include "timing/timing_harness.h"

namespace lockstep::test {
namespace {

std::string ffma_chain(int k) {
  std::string body = "  mov.f32 %f1, 0f3F800000;\n  mov.f32 %f2, 0f3F800000;\n  mov.f32 %f3, 0f3F800000;\n";
  for (int i = 0; i < k; ++i) body += "  fma.rn.f32 %f1, %f1, %f2, %f3;\n";
  return micro_kernel(body);
}

// One instruction-cache miss costs one cycle here, so that the chain, not instruction fetch,
// sets the pace (the preset's 200-cycle misses would add one miss per 8 instructions).
std::shared_ptr<const config::GpuConfig> fast_fetch_teaching() {
  return timing_gpu("teaching", {"icache.miss_latency=1"});
}

uint64_t stall(const sim::KernelTiming& t, sim::StallReason r) { return t.warp_stalls[static_cast<size_t>(r)]; }

TEST(DependentChain, EachFfmaAddsTheFp32Latency) {
  auto engine = timing_engine(fast_fetch_teaching());
  std::vector<float> out;
  const sim::KernelTiming base = run_timed(*engine, ffma_chain(0), 1, 8, &out);
  // The fixed overhead: 12 prologue and epilogue instructions issue by cycle 23 (cold I-cache
  // lines, the address arithmetic's dependences), then the block waits for its global store
  // (400 cycles) before it retires; cycles count from 0 to that last cycle.
  EXPECT_EQ(base.cycles, 424u);
  for (int k : {1, 2, 8, 32}) {
    SCOPED_TRACE(k);
    const sim::KernelTiming t = run_timed(*engine, ffma_chain(k), 1, 8, &out);
    EXPECT_EQ(t.cycles, base.cycles + 4u * k);
    EXPECT_EQ(out[0], 1.0f + k);  // the chain really ran: 1 + 1*1 repeated k times
    EXPECT_EQ(t.warp_instructions, base.warp_instructions + k);
    // Each FFMA issues once and waits 3 cycles for the one before it.
    EXPECT_EQ(stall(t, sim::StallReason::kIssued), stall(base, sim::StallReason::kIssued) + k);
    EXPECT_EQ(stall(t, sim::StallReason::kExecutionDependency),
              stall(base, sim::StallReason::kExecutionDependency) + 3u * k);
  }
}

TEST(DependentChain, StallCountsAddUpToResidentWarpCycles) {
  auto engine = timing_engine(fast_fetch_teaching());
  const sim::KernelTiming t = run_timed(*engine, ffma_chain(8), 3, 24);  // 3 blocks of 3 warps on 2 SMs
  uint64_t warp_cycles = 0, scheduler_cycles = 0;
  for (uint64_t n : t.warp_stalls) warp_cycles += n;
  for (uint64_t n : t.scheduler_stalls) scheduler_cycles += n;
  EXPECT_EQ(warp_cycles, t.resident_warp_cycles);
  EXPECT_EQ(scheduler_cycles, t.cycles * t.sm_count * t.schedulers_per_sm);
  EXPECT_EQ(stall(t, sim::StallReason::kIssued), t.warp_instructions);
  // One issue slot per scheduler: a scheduler-cycle that issued is one warp instruction.
  ASSERT_EQ(t.issue_width, 1u);
  EXPECT_EQ(t.scheduler_stalls[static_cast<size_t>(sim::StallReason::kIssued)], t.warp_instructions);
  EXPECT_EQ(t.thread_instructions, t.warp_instructions * 8);
}

// A block whose last warp's `ret` has nothing in flight ends in the cycle it issues: that
// scheduler-cycle still counts as issued, not as one without a warp.
TEST(DependentChain, ABlockEndingAtItsLastIssueCountsAsIssued) {
  auto engine = timing_engine(fast_fetch_teaching());
  const sim::KernelTiming t = run_timed(*engine, R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out) {
  ret;
}
)",
                                        3, 24);
  EXPECT_GE(t.warp_instructions, 9u);  // 3 blocks of 3 warps
  EXPECT_EQ(t.scheduler_stalls[static_cast<size_t>(sim::StallReason::kIssued)], t.warp_instructions);
  uint64_t scheduler_cycles = 0;
  for (uint64_t n : t.scheduler_stalls) scheduler_cycles += n;
  EXPECT_EQ(scheduler_cycles, t.cycles * t.sm_count * t.schedulers_per_sm);
}

}  // namespace
}  // namespace lockstep::test

namespace lockstep::test {
namespace {

// The issue cycle of every instruction, worked out by hand ("cycle:PTX line"): the first fetch
// misses (cycle 0, line there at 1), decode fills the I-buffer at 1, the three movs issue at
// 2, 3, 4; the first FFMA waits for %f3 (4 + 4 = 8), the second for the first (12); the
// index movs issue back to back (13-15), mad waits for %r13 (15 + 4 = 19), ld.param issues
// at 20, mul.wide waits for mad (23), add for mul.wide (27), st for add (31), then ret and the
// function's exit. The store's 400 cycles end the block at 431: 432 cycles.
TEST(DependentChain, IssueCyclesOfTheWholeKernel) {
  auto engine = timing_engine(fast_fetch_teaching());
  EXPECT_EQ(issue_trace(*engine, ffma_chain(2), 1, 8),
            "2:10 3:11 4:12 8:13 12:14 13:16 14:17 15:18 19:19 20:20 23:21 27:22 31:23 32:24 33:24 ");
  EXPECT_EQ(run_timed(*engine, ffma_chain(2), 1, 8).cycles, 432u);
}

}  // namespace
}  // namespace lockstep::test
