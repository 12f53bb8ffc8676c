// Ctrl-C during a launch (func/interrupt.h): the run loops see the request at their watchdog
// point and fail the launch as "interrupted" with where every resident warp is, in the deadlock
// report's format, in both modes. The request comes from the trace hook, so it lands at the same
// instruction every run; outside a launch a request is refused (the signal keeps its default
// action) and the next launch runs normally.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "common/harness.h"
#include "config/gpu_config.h"
#include "func/interrupt.h"

namespace lockstep {
namespace {

// Every thread waits for a flag nobody sets.
constexpr const char* kWaitForFlag = R"(.version 9.0
.target sm_80
.address_size 64
.visible .entry wait_for_flag(.param .u64 flag)
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [flag];
$L_wait:
  ld.volatile.global.u32 %r1, [%rd1];
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra $L_wait;
  ret;
}
)";

EngineOptions mode_options(bool timing) {
  EngineOptions options;
  if (timing) options.timing = std::make_shared<const config::GpuConfig>(config::load_gpu_config("h100"));
  return options;
}

// Three blocks of 96 threads (three warps each, the last one full) wait; a Ctrl-C arrives after
// `after` traced instructions.
LaunchResult interrupted_launch(Engine& engine, uint64_t after) {
  const ModuleId m = engine.load_ptx(kWaitForFlag, "wait_for_flag.ptx");
  test::DeviceBuffer<uint32_t> flag(engine, std::vector<uint32_t>{0});
  uint64_t seen = 0;
  engine.set_trace([&](const TraceEvent&) {
    if (++seen == after) {
      EXPECT_TRUE(func::request_interrupt());
    }
  });
  LaunchResult r = engine.launch(m, "wait_for_flag", {3, 1, 1}, {96, 1, 1}, 0, {flag.arg()});
  engine.set_trace({});
  return r;
}

TEST(Interrupt, FunctionalLaunchReportsEveryResidentWarp) {
  Engine engine(mode_options(false));
  const LaunchResult r = interrupted_launch(engine, 5000);
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->kind, "interrupted");
  EXPECT_EQ(r.fault->message,
            "interrupted in kernel 'wait_for_flag', block (0,0,0), thread (0,0,0), pc 2 (wait_for_flag.ptx:12): "
            "stopped by SIGINT (Ctrl-C); the resident warps were here\n"
            "  block (0,0,0) warp 0: pc 2 active 0xffffffff running\n"
            "  block (0,0,0) warp 1: pc 2 active 0xffffffff running\n"
            "  block (0,0,0) warp 2: pc 2 active 0xffffffff running\n"
            "  block (1,0,0) warp 0: pc 2 active 0xffffffff running\n"
            "  block (1,0,0) warp 1: pc 2 active 0xffffffff running\n"
            "  block (1,0,0) warp 2: pc 2 active 0xffffffff running\n"
            "  block (2,0,0) warp 0: pc 2 active 0xffffffff running\n"
            "  block (2,0,0) warp 1: pc 2 active 0xffffffff running\n"
            "  block (2,0,0) warp 2: pc 2 active 0xffffffff running");
  EXPECT_GT(r.warp_instructions, 0u);
  EXPECT_FALSE(r.timing.has_value());
}

TEST(Interrupt, TimingLaunchReportsEveryResidentWarp) {
  Engine engine(mode_options(true));
  const LaunchResult r = interrupted_launch(engine, 5000);
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->kind, "interrupted");
  EXPECT_EQ(r.fault->message,
            "interrupted in kernel 'wait_for_flag', block (0,0,0), thread (0,0,0), pc 2 (wait_for_flag.ptx:12): "
            "stopped by SIGINT (Ctrl-C); the resident warps were here\n"
            "  block (0,0,0) warp 0: pc 2 active 0xffffffff running\n"
            "  block (0,0,0) warp 1: pc 1 active 0xffffffff running\n"
            "  block (0,0,0) warp 2: pc 3 active 0xffffffff running\n"
            "  block (1,0,0) warp 0: pc 2 active 0xffffffff running\n"
            "  block (1,0,0) warp 1: pc 3 active 0xffffffff running\n"
            "  block (1,0,0) warp 2: pc 3 active 0xffffffff running\n"
            "  block (2,0,0) warp 0: pc 2 active 0xffffffff running\n"
            "  block (2,0,0) warp 1: pc 3 active 0xffffffff running\n"
            "  block (2,0,0) warp 2: pc 2 active 0xffffffff running");
  EXPECT_GT(r.warp_instructions, 0u);
  // What the cycle-level model measured up to the cycle it stopped in, for --stats-json.
  ASSERT_TRUE(r.timing.has_value());
  EXPECT_GT(r.timing->cycles, 0u);
  EXPECT_EQ(r.timing->end_cycle, r.timing->start_cycle + r.timing->cycles);
  EXPECT_EQ(r.timing->warp_instructions, r.warp_instructions);
}

TEST(Interrupt, OutsideALaunchTheRequestIsRefusedAndForgotten) {
  EXPECT_FALSE(func::launch_running());
  EXPECT_FALSE(func::request_interrupt());
  EXPECT_FALSE(func::interrupt_requested());
  Engine engine;
  const LaunchResult first = interrupted_launch(engine, 100);
  ASSERT_TRUE(first.fault.has_value());
  EXPECT_EQ(first.fault->kind, "interrupted");
  // The request ended with its launch: the next one runs to completion.
  EXPECT_FALSE(func::interrupt_requested());
  const ModuleId m = engine.load_ptx(kWaitForFlag, "wait_for_flag.ptx");
  test::DeviceBuffer<uint32_t> flag(engine, std::vector<uint32_t>{1});
  test::launch_ok(engine, m, "wait_for_flag", {3, 1, 1}, {96, 1, 1}, {flag.arg()});
}

}  // namespace
}  // namespace lockstep
