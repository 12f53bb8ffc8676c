// Seed 001 fig 3-7 / code 3-2: the intra-warp lock (data/intra_warp_lock.cu). Under
// branch-barrier (the default of the cc 7.0+ presets) every thread gets the lock in turn and the
// counter ends at the number of threads, in both modes, for one warp and for many warps and
// blocks. Under ipdom-stack the winner waits at the loop's reconvergence point for threads that
// can never leave the loop: the launch is reported as a deadlock with the stuck warps, never hangs.
// Under thread-frontier the spinning losers sit at the lowest PC and starve the winner: the same.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "common/harness.h"
#include "config/gpu_config.h"

namespace lockstep {
namespace {

// `yield_after` 0: the preset's (64).
EngineOptions lock_options(const std::string& divergence, bool timing, uint32_t yield_after) {
  EngineOptions options;
  options.divergence = divergence;
  std::vector<std::string> overrides = {"sm.divergence=" + divergence};
  if (yield_after != 0) {
    options.yield_after = yield_after;
    overrides.push_back("sm.yield_after=" + std::to_string(yield_after));
  }
  if (timing) options.timing = std::make_shared<const config::GpuConfig>(config::load_gpu_config("h100", overrides));
  return options;
}

LaunchResult run_lock(Engine& engine, Dim3 grid, Dim3 block, std::vector<int>* counter_out) {
  const ModuleId m = engine.load_ptx_file(test::data_path("engine/data/intra_warp_lock.ptx"));
  test::DeviceBuffer<int> mutex(engine, std::vector<int>{0});
  test::DeviceBuffer<int> counter(engine, std::vector<int>{0});
  LaunchResult r = engine.launch(m, "intra_warp_lock", grid, block, 0, {mutex.arg(), counter.arg()});
  *counter_out = counter.download();
  return r;
}

struct LockCase {
  bool timing;
  Dim3 grid;
  Dim3 block;
  // Every hand-over of the lock inside a warp waits for the losers' yield: yield_after spins,
  // each an atomic's round trip to L2 in timing mode. The many-warp timing case yields sooner to
  // keep the test short (288 hand-overs); the others run the preset's 64.
  uint32_t yield_after = 0;
};

class IntraWarpLock : public ::testing::TestWithParam<LockCase> {};

TEST_P(IntraWarpLock, CompletesUnderBranchBarriers) {
  const LockCase c = GetParam();
  Engine engine(lock_options("branch-barrier", c.timing, c.yield_after));
  std::vector<int> counter;
  const LaunchResult r = run_lock(engine, c.grid, c.block, &counter);
  ASSERT_FALSE(r.fault.has_value()) << r.fault->message;
  EXPECT_EQ(counter, (std::vector<int>{static_cast<int>(c.grid.x * c.block.x)}));
}

TEST_P(IntraWarpLock, IsReportedAsADeadlockUnderTheSimtStack) {
  const LockCase c = GetParam();
  Engine engine(lock_options("ipdom-stack", c.timing, c.yield_after));
  std::vector<int> counter;
  const LaunchResult r = run_lock(engine, c.grid, c.block, &counter);
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->kind, "deadlock");
  const std::string& text = r.fault->message;
  EXPECT_NE(text.find("no thread block of the launch can make progress"), std::string::npos) << text;
  EXPECT_NE(text.find("device memory included"), std::string::npos) << text;
  // The warp that holds the lock waits at the reconvergence point (the load after the loop),
  // below the spinning path on the stack.
  EXPECT_NE(text.find("warp 0: pc"), std::string::npos) << text;
  EXPECT_NE(text.find("divergence: [pc"), std::string::npos) << text;
  EXPECT_EQ(counter, (std::vector<int>{0}));
}

// Under thread-frontier the lowest PC runs first: the losers branch back to the loop head, below
// the winner's critical section, and spin there for ever; the winner waits in the frontier at
// the load after the loop. Reported as a deadlock, like the stack.
TEST_P(IntraWarpLock, IsReportedAsADeadlockUnderThreadFrontiers) {
  const LockCase c = GetParam();
  Engine engine(lock_options("thread-frontier", c.timing, c.yield_after));
  std::vector<int> counter;
  const LaunchResult r = run_lock(engine, c.grid, c.block, &counter);
  ASSERT_TRUE(r.fault.has_value());
  EXPECT_EQ(r.fault->kind, "deadlock");
  const std::string& text = r.fault->message;
  EXPECT_NE(text.find("no thread block of the launch can make progress"), std::string::npos) << text;
  EXPECT_NE(text.find("warp 0: pc"), std::string::npos) << text;
  // The spinning group runs; the winner (one thread) waits at the PC after the loop.
  EXPECT_NE(text.find("divergence: [running 0111"), std::string::npos) << text;
  EXPECT_NE(text.find("] [waiting at pc"), std::string::npos) << text;
  EXPECT_EQ(counter, (std::vector<int>{0}));
}

std::string lock_case_name(const ::testing::TestParamInfo<LockCase>& p) {
  return std::string(p.param.timing ? "timing" : "functional") + "_" + std::to_string(p.param.grid.x) + "x" +
         std::to_string(p.param.block.x);
}

INSTANTIATE_TEST_SUITE_P(Modes, IntraWarpLock,
                         ::testing::Values(LockCase{false, {1, 1, 1}, {32, 1, 1}},
                                           LockCase{false, {3, 1, 1}, {96, 1, 1}},
                                           LockCase{true, {1, 1, 1}, {32, 1, 1}},
                                           LockCase{true, {3, 1, 1}, {96, 1, 1}, 4}),
                         lock_case_name);

TEST(IntraWarpLock, BadUnitNameNamesTheKeyAndTheChoices) {
  EngineOptions options;
  options.divergence = "stack";
  try {
    Engine engine(options);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "bad divergence unit 'stack' (sm.divergence): expected one of ipdom-stack, "
              "branch-barrier, thread-frontier, dwf, tbc, large-warp, sbi, swi");
  }
}

}  // namespace
}  // namespace lockstep
