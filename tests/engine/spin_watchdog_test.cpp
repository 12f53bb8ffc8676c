// A spin whose state never repeats: every thread counts its iterations while it waits for a flag
// nobody sets, so the repeated-state watchdog never fires. The hard limit (run.watchdog_limit_*)
// reports it as a deadlock with every stuck warp, in both modes; with the limit 0 it runs on
// until something else stops it (here a Ctrl-C, func/interrupt.h).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "common/harness.h"
#include "config/gpu_config.h"
#include "func/interrupt.h"

namespace lockstep {
namespace {

constexpr const char* kCountingSpin = R"(.version 9.0
.target sm_80
.address_size 64
.visible .entry counting_spin(.param .u64 flag, .param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [flag];
  ld.param.u64 %rd2, [out];
  mov.u32 %r2, 0;
$L_spin:
  add.u32 %r2, %r2, 1;
  ld.volatile.global.u32 %r1, [%rd1];
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra $L_spin;
  st.global.u32 [%rd2], %r2;
  ret;
}
)";

EngineOptions functional_options(uint64_t limit) {
  EngineOptions options;
  options.watchdog.watchdog_limit_instructions = limit;
  return options;
}

EngineOptions timing_options(uint64_t limit) {
  EngineOptions options;
  options.timing = std::make_shared<const config::GpuConfig>(
      config::load_gpu_config("h100", {"run.watchdog_limit_cycles=" + std::to_string(limit)}));
  return options;
}

// Two blocks of two warps spin on a flag that stays 0.
LaunchResult run_spin(Engine& engine) {
  const ModuleId m = engine.load_ptx(kCountingSpin, "counting_spin.ptx");
  test::DeviceBuffer<uint32_t> flag(engine, std::vector<uint32_t>{0});
  test::DeviceBuffer<uint32_t> out(engine, std::vector<uint32_t>{0});
  return engine.launch(m, "counting_spin", {2, 1, 1}, {64, 1, 1}, 0, {flag.arg(), out.arg()});
}

TEST(SpinWatchdog, FunctionalLimitReportsEveryStuckWarp) {
  Engine engine(functional_options(10000));
  const LaunchResult r = run_spin(engine);
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->kind, "deadlock");
  EXPECT_EQ(r.fault->message,
            "deadlock in kernel 'counting_spin', block (0,0,0), thread (0,0,0), pc 5 (counting_spin.ptx:15): no "
            "thread block of the launch finished within 10000 warp instructions (run.watchdog_limit_instructions): "
            "a spin that never ends, or raise the limit\n"
            "  block (0,0,0) warp 0: pc 5 active 0xffffffff running\n"
            "  block (0,0,0) warp 1: pc 5 active 0xffffffff running\n"
            "  block (1,0,0) warp 0: pc 5 active 0xffffffff running\n"
            "  block (1,0,0) warp 1: pc 5 active 0xffffffff running");
}

TEST(SpinWatchdog, TimingLimitReportsEveryStuckWarp) {
  Engine engine(timing_options(20000));
  const LaunchResult r = run_spin(engine);
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->kind, "deadlock");
  EXPECT_EQ(r.fault->message,
            "deadlock in kernel 'counting_spin', block (0,0,0), thread (0,0,0), pc 6 (counting_spin.ptx:16): no "
            "thread block of the launch finished within 20000 cycles (run.watchdog_limit_cycles): a spin that "
            "never ends, or raise the limit\n"
            "  block (0,0,0) warp 0: pc 6 active 0xffffffff running\n"
            "  block (0,0,0) warp 1: pc 6 active 0xffffffff running\n"
            "  block (1,0,0) warp 0: pc 6 active 0xffffffff running\n"
            "  block (1,0,0) warp 1: pc 6 active 0xffffffff running");
}

// A cooperative launch (every block resident, blocks taking turns) counts the same way.
TEST(SpinWatchdog, CooperativeLaunchCountsTheSameWay) {
  Engine engine(functional_options(10000));
  const ModuleId m = engine.load_ptx(kCountingSpin, "counting_spin.ptx");
  test::DeviceBuffer<uint32_t> flag(engine, std::vector<uint32_t>{0});
  test::DeviceBuffer<uint32_t> out(engine, std::vector<uint32_t>{0});
  LaunchOptions cooperative;
  cooperative.cooperative = true;
  const LaunchResult r =
      engine.launch(m, "counting_spin", {2, 1, 1}, {64, 1, 1}, 0, {flag.arg(), out.arg()}, cooperative);
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->kind, "deadlock");
  EXPECT_EQ(r.fault->message,
            "deadlock in kernel 'counting_spin', block (0,0,0), thread (0,0,0), pc 5 (counting_spin.ptx:15): no "
            "thread block of the launch finished within 10000 warp instructions (run.watchdog_limit_instructions): "
            "a spin that never ends, or raise the limit\n"
            "  block (0,0,0) warp 0: pc 5 active 0xffffffff running\n"
            "  block (0,0,0) warp 1: pc 5 active 0xffffffff running\n"
            "  block (1,0,0) warp 0: pc 5 active 0xffffffff running\n"
            "  block (1,0,0) warp 1: pc 5 active 0xffffffff running");
}

// With the limit 0 the spin runs on; a Ctrl-C after 20000 traced instructions stops it, and the
// report is the interrupted one, not the limit's.
TEST(SpinWatchdog, LimitZeroNeverFires) {
  for (const bool timing : {false, true}) {
    SCOPED_TRACE(timing ? "timing" : "functional");
    Engine engine(timing ? timing_options(0) : functional_options(0));
    uint64_t seen = 0;
    engine.set_trace([&](const TraceEvent&) {
      if (++seen == 20000) {
        EXPECT_TRUE(func::request_interrupt());
      }
    });
    const LaunchResult r = run_spin(engine);
    ASSERT_TRUE(r.fault.has_value());
    EXPECT_EQ(r.fault->kind, "interrupted");
    EXPECT_GE(seen, 20000u);
  }
}

}  // namespace
}  // namespace lockstep
