// Timing mode as a whole: identical figures on repeated runs, and faults and barrier deadlocks
// reported as in functional mode.
#include <fstream>
#include <sstream>

#include "common/harness.h"
#include "timing/timing_harness.h"

namespace lockstep::test {
namespace {

// The tiled matrix multiply of tests/kernels: shared memory, barriers, several blocks per SM.
sim::KernelTiming run_matmul(const std::string& preset, std::vector<float>& c) {
  auto engine = timing_engine(timing_gpu(preset));
  const ModuleId m = engine->load_ptx_file(kernel_ptx_path("06_matmul_tiled", 90));
  const int n = 64;
  std::vector<float> a(n * n), b(n * n);
  for (int i = 0; i < n * n; ++i) a[i] = float(i % 7) - 3.0f, b[i] = float(i % 5) * 0.5f;
  DeviceBuffer<float> da(*engine, a), db(*engine, b), dc(*engine, std::vector<float>(n * n, 0.0f));
  const LaunchResult r = launch_ok(*engine, m, "sgemm_tiled", {n / 16, n / 16, 1}, {16, 16, 1},
                                   {da.arg(), db.arg(), dc.arg(), arg(n), arg(n), arg(n)});
  c = dc.download();
  EXPECT_TRUE(r.timing.has_value());
  return r.timing.value_or(sim::KernelTiming{});
}

TEST(TimingRun, RepeatedRunsGiveIdenticalFigures) {
  for (const char* preset : {"h100", "teaching"}) {
    SCOPED_TRACE(preset);
    std::vector<float> c1, c2;
    const sim::KernelTiming first = run_matmul(preset, c1);
    const sim::KernelTiming second = run_matmul(preset, c2);
    EXPECT_EQ(first, second);
    EXPECT_EQ(c1, c2);
    EXPECT_GT(first.cycles, 0u);
  }
}

TEST(TimingRun, BarrierDeadlockIsReported) {
  auto engine = timing_engine(timing_gpu("h100"));
  const ModuleId m = engine->load_ptx(".version 9.0\n.target sm_80\n.address_size 64\n"
                                      ".visible .entry stuck()\n{\n  bar.sync 1, 64;\n  ret;\n}\n",
                                      "stuck.ptx");
  const LaunchResult r = engine->launch(m, "stuck", {1, 1, 1}, {32, 1, 1}, 0, {});
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->kind, "deadlock");
  EXPECT_EQ(r.fault->message,
            "deadlock in kernel 'stuck', block (0,0,0), thread (0,0,0), pc 0 (stuck.ptx:6): every live "
            "warp waits at a barrier that can no longer complete\n"
            "  warp 0: pc 0 active 0xffffffff waiting at barrier 1 (1 of 1 warps arrived)");
  EXPECT_FALSE(r.timing.has_value());
}

TEST(TimingRun, ABlockThatCannotFitIsRefused) {
  // 256 threads at the estimated 32 registers need 8192 registers; this SM has 4096.
  auto engine = timing_engine(timing_gpu("teaching", {"sm.registers=4096", "sm.max_registers_per_block=4096"}));
  const ModuleId m = engine->load_ptx(micro_kernel(""), "micro.ptx");
  const uint64_t out = engine->malloc(256 * 4);
  try {
    engine->launch(m, "k", {1, 1, 1}, {256, 1, 1}, 0, {KernelArg::of(out)});
    FAIL() << "launched";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "a block of 256 threads with 32 registers per thread and 0 bytes of shared memory does not fit "
                 "an SM of the teaching preset (limited by registers)");
  }
}

TEST(TimingRun, ACooperativeGridLargerThanTheGpuIsRefused) {
  // A 256-thread block fills a teaching SM (256 threads): two SMs hold two blocks at once.
  auto engine = timing_engine(timing_gpu("teaching"));
  const ModuleId m = engine->load_ptx(micro_kernel(""), "micro.ptx");
  const uint64_t out = engine->malloc(3 * 256 * 4);
  LaunchOptions cooperative;
  cooperative.cooperative = true;
  try {
    engine->launch(m, "k", {3, 1, 1}, {256, 1, 1}, 0, {KernelArg::of(out)}, cooperative);
    FAIL() << "launched";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "cooperative launch of 3 blocks exceeds the 2 the teaching preset holds at once");
  }
  const LaunchResult r = engine->launch(m, "k", {2, 1, 1}, {256, 1, 1}, 0, {KernelArg::of(out)}, cooperative);
  EXPECT_FALSE(r.fault.has_value());
  EXPECT_TRUE(r.timing.has_value());
}

}  // namespace
}  // namespace lockstep::test
