// Warp synchronization under branch barriers (data/warp_sync.cu): bar.warp.sync waits for every
// non-exited thread of its membermask, at any PC; shfl.sync and vote.sync wait for membermask's
// threads to run the instruction together; a sync whose members can never arrive is reported as
// a deadlock. Exact outputs, divergence counters and reports, in functional mode (one and three
// host threads) and timing mode (h100). Under ipdom-stack the pre-Volta behaviour stays: the
// syncs see the lanes on the path and wait for nobody.
#include <gtest/gtest.h>

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "common/harness.h"
#include "config/gpu_config.h"

namespace lockstep::func {
// Readable failure messages (defined in divergence_stats_test.cpp, linked into the same binary).
void PrintTo(const DivergenceCounters& c, std::ostream* os);
}  // namespace lockstep::func

namespace lockstep {
namespace {

using func::DivergenceCounters;

struct Mode {
  bool timing = false;
  uint32_t threads = 1;  // functional mode's host threads
};

EngineOptions options_for(const std::string& divergence, const Mode& m) {
  EngineOptions options;
  options.divergence = divergence;
  options.sim_threads = m.threads;
  if (m.timing)
    options.timing = std::make_shared<const config::GpuConfig>(
        config::load_gpu_config("h100", {"sm.divergence=" + divergence}));
  return options;
}

ModuleId load(Engine& engine) { return engine.load_ptx_file(test::data_path("engine/data/warp_sync.ptx")); }

std::vector<int> exchange_expected() {
  std::vector<int> out(32);
  for (int lane = 0; lane < 32; ++lane)
    out[lane] = lane < 16 ? ((lane + 16) * 10 + 2) * 2 : (lane - 16) * 10 + 1 + 1000;
  return out;
}

// Threads 0-15 run 200 iterations of the loop, threads 16-31 one.
std::vector<int> loop_trips() {
  std::vector<int> trips(32);
  for (int lane = 0; lane < 32; ++lane) trips[lane] = lane < 16 ? 200 : 1;
  return trips;
}

std::vector<uint32_t> shfl_after_loop_expected(const std::vector<int>& trips) {
  std::vector<uint32_t> x(32);
  for (uint32_t lane = 0; lane < 32; ++lane) {
    x[lane] = lane;
    for (int i = 0; i < trips[lane]; ++i) x[lane] = x[lane] * 3u + 1u;
  }
  uint32_t odd = 0;
  for (uint32_t lane = 0; lane < 32; ++lane) odd |= (x[lane] & 1u) << lane;
  std::vector<uint32_t> out(64);
  for (uint32_t lane = 0; lane < 32; ++lane) {
    out[lane] = x[(lane + 1) & 31];
    out[32 + lane] = odd;
  }
  return out;
}

class WarpSync : public ::testing::TestWithParam<Mode> {};

// Each half reads what the other half wrote before its __syncwarp(). Counters: `@%p1 bra` splits
// the warp once (1 divergent branch). The fall-through side (threads 16-31, whose `bra.uni`
// jumps to the else block, laid out last) runs first and blocks at its bar.warp.sync (1 barrier
// wait); threads 0-15 run the then block, complete the warp barrier at theirs and, at the lower
// PC, run on to the join, where they wait (1 barrier wait) for threads 16-31: the two groups
// merge there (1 reconvergence). No loop, no yield.
TEST_P(WarpSync, SyncwarpWaitsForTheOtherHalf) {
  Engine engine(options_for("branch-barrier", GetParam()));
  const ModuleId module = load(engine);
  test::DeviceBuffer<int> out(engine, 32);
  const LaunchResult r = test::launch_ok(engine, module, "syncwarp_exchange", {1, 1, 1}, {32, 1, 1}, {out.arg()});
  EXPECT_EQ(out.download(), exchange_expected());
  EXPECT_EQ(r.divergence, (DivergenceCounters{1, 1, 2, 0}));
}

// The long-running threads yield in the loop, which releases the loop's exit for the others;
// the full-mask shfl.sync and vote.sync wait for the yielded threads to finish the loop.
// Counters: the loop's branch splits the warp after the first iteration (1 divergent branch);
// threads 16-31 wait at the loop's exit (1 barrier wait). Threads 0-15 then take 198 uniform
// backward branches while others wait: a yield after every 64 (3 yields). The first yield
// releases the exit for threads 16-31, which run to shfl.sync and wait there (1 barrier wait,
// which wakes threads 0-15). Threads 0-15 pass the exit alone and complete the shfl's barrier:
// no group merged at a convergence barrier (0 reconvergences); shfl and vote then run with all
// 32 threads.
TEST_P(WarpSync, ShflAndBallotWaitForThreadsStillInALoop) {
  Engine engine(options_for("branch-barrier", GetParam()));
  const ModuleId module = load(engine);
  const std::vector<int> trips = loop_trips();
  test::DeviceBuffer<int> trips_buffer(engine, trips);
  test::DeviceBuffer<uint32_t> out(engine, 64);
  const LaunchResult r = test::launch_ok(engine, module, "shfl_after_loop", {1, 1, 1}, {32, 1, 1},
                                         {trips_buffer.arg(), out.arg()});
  EXPECT_EQ(out.download(), shfl_after_loop_expected(trips));
  EXPECT_EQ(r.divergence, (DivergenceCounters{1, 0, 2, 3}));
}

// Threads 16-31 (the fall-through side, first) wait at shfl.sync (pc 11) for threads 0-15, which
// then wait at bar.warp.sync (pc 5) for threads 16-31. The report is at the bar.warp.sync, where
// the last group blocked, names the warp's first thread and both waits.
TEST_P(WarpSync, CrossedSyncsAreADeadlock) {
  Engine engine(options_for("branch-barrier", GetParam()));
  const ModuleId module = load(engine);
  test::DeviceBuffer<int> out(engine, std::vector<int>(32, -7));
  const LaunchResult r = engine.launch(module, "crossed_syncs", {1, 1, 1}, {32, 1, 1}, 0, {out.arg()});
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->kind, "deadlock");
  const std::string lanes_all(32, '1');
  const std::string low_half = std::string(16, '1') + std::string(16, '0');
  const std::string high_half = std::string(16, '0') + std::string(16, '1');
  EXPECT_EQ(r.fault->message,
            "deadlock in kernel 'crossed_syncs', block (0,0,0), thread (0,0,0), pc 5 (" +
                test::data_path("engine/data/warp_sync.ptx") +
                ":129): every thread of the warp waits at a warp-synchronizing instruction whose other "
                "members can never arrive: warp collective at pc 11 waits for threads " + lanes_all +
                ", arrived " + high_half + "; bar.warp.sync at pc 5 waits for threads " + lanes_all +
                ", arrived " + low_half);
  EXPECT_EQ(out.download(), std::vector<int>(32, -7));
}

// ipdom-stack keeps the pre-Volta rule: the syncs wait for nobody. The half that runs first
// reads the other half's slots before they are written (-1, so 999); shfl.sync in crossed_syncs runs
// with threads 16-31 alone and reads thread 0's register as it is (0).
TEST_P(WarpSync, TheSimtStackDoesNotWait) {
  Engine engine(options_for("ipdom-stack", GetParam()));
  const ModuleId module = load(engine);
  test::DeviceBuffer<int> exchanged(engine, 32);
  test::launch_ok(engine, module, "syncwarp_exchange", {1, 1, 1}, {32, 1, 1}, {exchanged.arg()});
  std::vector<int> stale = exchange_expected();
  for (int lane = 16; lane < 32; ++lane) stale[lane] = -1 + 1000;  // the fall-through side runs first
  EXPECT_EQ(exchanged.download(), stale);
  test::DeviceBuffer<int> crossed(engine, 32);
  test::launch_ok(engine, module, "crossed_syncs", {1, 1, 1}, {32, 1, 1}, {crossed.arg()});
  std::vector<int> expected(32, 0);
  for (int lane = 0; lane < 16; ++lane) expected[lane] = lane;
  EXPECT_EQ(crossed.download(), expected);
}

std::string mode_name(const ::testing::TestParamInfo<Mode>& p) {
  return p.param.timing ? std::string("timing_h100") : "functional_" + std::to_string(p.param.threads) + "_threads";
}

INSTANTIATE_TEST_SUITE_P(Modes, WarpSync, ::testing::Values(Mode{false, 1}, Mode{false, 3}, Mode{true, 1}),
                         mode_name);

}  // namespace
}  // namespace lockstep
