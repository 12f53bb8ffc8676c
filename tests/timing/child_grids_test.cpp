// Grids launched from device code run beside their parents in timing mode (sim/child_grids.h,
// docs/timing-model.md "Child grids"): a child starts the cycle after the commit of its launch,
// on SMs no grid holds; its stream orders it; its parent completes with it.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "timing/timing_harness.h"

namespace lockstep::test {
namespace {

std::string kernels_ptx() { return std::string(LOCKSTEP_TEST_DATA) + "/timing/kernels/child_grids.ptx"; }

// child_grids.cu's modes.
enum Mode { kOne = 0, kTwoInNullStream = 1, kFireAndForget = 2, kTailAndOne = 3, kFaultingChild = 4 };

// The PTX lines of the parent's `call __cudaCDP2LaunchDeviceV2` instructions, in order.
std::vector<uint32_t> launch_lines() {
  std::ifstream in(kernels_ptx());
  std::vector<uint32_t> lines;
  std::string line;
  uint32_t number = 0, call = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.find("call.uni") != std::string::npos) call = number;
    if (line.find("__cudaCDP2LaunchDeviceV2,") != std::string::npos) lines.push_back(call);
  }
  return lines;
}

// The PTX line where kernel `name` begins.
uint32_t entry_line(const std::string& name) {
  std::ifstream in(kernels_ptx());
  std::string line;
  uint32_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.find(".entry " + name + "(") != std::string::npos) return number;
  }
  ADD_FAILURE() << "no kernel " << name << " in " << kernels_ptx();
  return 0;
}

// The last cycle (of the parent's launch) in which one of the parent's instructions issued.
uint64_t last_parent_issue(const std::vector<TraceEvent>& events) {
  uint64_t last = 0;
  const uint32_t first = entry_line("_Z6parentPiiiii"), next = entry_line("_Z8set_flagPi");
  for (const TraceEvent& e : events)
    if (e.ptx_line > first && e.ptx_line < next) last = std::max(last, e.cycle);
  return last;
}

struct ParentRun {
  LaunchResult result;
  std::vector<TraceEvent> events;
  std::vector<int> out;
};

ParentRun run_parent(Engine& engine, Mode mode, uint32_t parent_blocks, int child_blocks, int child_spin, int spin) {
  const ModuleId m = engine.load_ptx_file(kernels_ptx());
  const uint32_t words = 16384;
  const uint64_t out = engine.malloc(words * 4);
  engine.memset(out, 0, words * 4);
  ParentRun r;
  engine.set_trace([&](const TraceEvent& e) { r.events.push_back(e); });
  r.result = engine.launch(m, "_Z6parentPiiiii", {parent_blocks, 1, 1}, {32, 1, 1}, 0,
                           {KernelArg::of(out), KernelArg::of(static_cast<int>(mode)), KernelArg::of(child_blocks),
                            KernelArg::of(child_spin), KernelArg::of(spin)});
  engine.set_trace(nullptr);
  r.out.resize(words);
  engine.copy_to_host(r.out.data(), out, words * 4);
  return r;
}

// The cycle (of the parent's launch) in which block 0 issued its n-th launch.
uint64_t launch_cycle(const ParentRun& r, size_t n) {
  std::vector<uint64_t> cycles;
  for (uint32_t line : launch_lines())
    for (const TraceEvent& e : r.events)
      if (e.ptx_line == line && e.block == 0) cycles.push_back(e.cycle);
  EXPECT_GT(cycles.size(), n);
  return cycles.size() > n ? cycles[n] : 0;
}

const sim::KernelTiming& child(const ParentRun& r, size_t n) {
  EXPECT_GT(r.result.child_grids.size(), n);
  return *r.result.child_grids.at(n).timing;
}

// What functional mode leaves in the output, which timing mode must match.
std::vector<int> functional_out(Mode mode, uint32_t parent_blocks, int child_blocks, int child_spin, int spin) {
  EngineOptions options;
  Engine engine(options);
  return run_parent(engine, mode, parent_blocks, child_blocks, child_spin, spin).out;
}

auto h100(uint32_t sms) { return timing_gpu("h100", {fmt::format("gpu.sm_count={}", sms)}); }

TEST(ChildGrids, AChildStartsTheCycleAfterItsLaunchBesideItsParent) {
  auto engine = timing_engine(h100(4));
  const ParentRun r = run_parent(*engine, kOne, 1, 2, 50, 400);
  ASSERT_FALSE(r.result.fault.has_value()) << r.result.fault->message;
  ASSERT_EQ(r.result.child_grids.size(), 1u);
  const sim::KernelTiming& parent = *r.result.timing;
  const sim::KernelTiming& c = child(r, 0);
  EXPECT_EQ(c.start_cycle, parent.start_cycle + launch_cycle(r, 0) + 1);
  EXPECT_LT(c.end_cycle, parent.end_cycle);  // done while the parent still spins
  EXPECT_EQ(c.cycles, c.end_cycle - c.start_cycle);
  EXPECT_EQ(r.result.child_grids[0].warp_instructions, c.warp_instructions);
  EXPECT_GT(c.warp_instructions, 0u);
  EXPECT_EQ(r.out, functional_out(kOne, 1, 2, 50, 400));
  EXPECT_EQ(r.out[0], 1);
  EXPECT_EQ(r.out[63], 1);
}

TEST(ChildGrids, AParentCompletesWithItsLastChild) {
  auto engine = timing_engine(h100(4));
  const ParentRun r = run_parent(*engine, kOne, 1, 2, 3000, 0);
  ASSERT_FALSE(r.result.fault.has_value());
  EXPECT_EQ(r.result.timing->end_cycle, child(r, 0).end_cycle);
  EXPECT_EQ(r.result.timing->cycles, r.result.timing->end_cycle - r.result.timing->start_cycle);
}

TEST(ChildGrids, LaunchesOfOneBlockIntoTheNullStreamRunOneAfterAnother) {
  auto engine = timing_engine(h100(4));
  const ParentRun r = run_parent(*engine, kTwoInNullStream, 1, 2, 3000, 0);
  ASSERT_FALSE(r.result.fault.has_value());
  const sim::KernelTiming& first = child(r, 0);
  const sim::KernelTiming& second = child(r, 1);
  ASSERT_GT(first.end_cycle, r.result.timing->start_cycle + launch_cycle(r, 1) + 1);  // it outlasts the launch
  EXPECT_EQ(second.start_cycle, first.end_cycle);
  EXPECT_EQ(r.out, functional_out(kTwoInNullStream, 1, 2, 3000, 0));
  EXPECT_EQ(r.out[0], 3);
}

TEST(ChildGrids, FireAndForgetLaunchesRunAtOnce) {
  auto engine = timing_engine(h100(4));
  const ParentRun r = run_parent(*engine, kFireAndForget, 1, 1, 3000, 0);
  ASSERT_FALSE(r.result.fault.has_value());
  const sim::KernelTiming& first = child(r, 0);
  const sim::KernelTiming& second = child(r, 1);
  EXPECT_EQ(second.start_cycle, r.result.timing->start_cycle + launch_cycle(r, 1) + 1);
  EXPECT_LT(second.start_cycle, first.end_cycle);
  EXPECT_EQ(r.out, functional_out(kFireAndForget, 1, 1, 3000, 0));
}

TEST(ChildGrids, ATailLaunchStartsOnceItsParentsOtherChildrenAreComplete) {
  auto engine = timing_engine(h100(4));
  const ParentRun r = run_parent(*engine, kTailAndOne, 1, 2, 3000, 0);
  ASSERT_FALSE(r.result.fault.has_value());
  // Launched first, it runs after the child launched after it, which outlasts the parent's blocks.
  const sim::KernelTiming& tail = child(r, 0);
  const sim::KernelTiming& other = child(r, 1);
  EXPECT_EQ(tail.start_cycle, other.end_cycle);
  EXPECT_EQ(r.result.timing->end_cycle, tail.end_cycle);
  EXPECT_EQ(r.out, functional_out(kTailAndOne, 1, 2, 3000, 0));
  EXPECT_EQ(r.out[0], 11);  // the tail's += 10 after the other child's += 1
}

TEST(ChildGrids, ATailLaunchWaitsForItsParentsBlocks) {
  auto engine = timing_engine(h100(4));
  const ParentRun r = run_parent(*engine, kTailAndOne, 1, 2, 0, 3000);
  ASSERT_FALSE(r.result.fault.has_value());
  const sim::KernelTiming& tail = child(r, 0);
  const sim::KernelTiming& other = child(r, 1);
  EXPECT_GT(tail.start_cycle, other.end_cycle);
  EXPECT_GT(tail.start_cycle, r.result.timing->start_cycle + last_parent_issue(r.events));
  EXPECT_EQ(r.result.timing->end_cycle, tail.end_cycle);
  EXPECT_EQ(r.out, functional_out(kTailAndOne, 1, 2, 0, 3000));
}

// An SM runs one grid's blocks at a time: with the parent's block on the only SM, the child
// starts when that block has left it.
TEST(ChildGrids, AChildWaitsForAnSmItsParentHolds) {
  auto engine = timing_engine(h100(1));
  const ParentRun r = run_parent(*engine, kOne, 1, 2, 50, 400);
  ASSERT_FALSE(r.result.fault.has_value());
  const sim::KernelTiming& c = child(r, 0);
  EXPECT_GT(c.start_cycle, r.result.timing->start_cycle + last_parent_issue(r.events));
  EXPECT_EQ(r.result.timing->end_cycle, c.end_cycle);
  EXPECT_EQ(r.out, functional_out(kOne, 1, 2, 50, 400));
}

// A parent that spins until its child has run: CUDA does not promise it ends, but with an SM
// free for the child, the child runs beside it and it does. With the parent on the only SM, the
// child never starts, and the watchdog reports the parent's spin.
TEST(ChildGrids, AParentWaitingForItsChildEndsWhenTheChildHasAnSm) {
  for (uint32_t sms : {2u, 1u}) {
    SCOPED_TRACE(sms);
    auto engine = timing_engine(h100(sms));
    const ModuleId m = engine->load_ptx_file(kernels_ptx());
    const uint64_t flag = engine->malloc(4);
    engine->memset(flag, 0, 4);
    const LaunchResult r = engine->launch(m, "_Z14waiting_parentPi", {1, 1, 1}, {1, 1, 1}, 0, {KernelArg::of(flag)});
    if (sms == 2) {
      EXPECT_FALSE(r.fault.has_value()) << r.fault->message;
      ASSERT_EQ(r.child_grids.size(), 1u);
      EXPECT_LT(r.child_grids[0].timing->end_cycle, r.timing->end_cycle);
    } else {
      ASSERT_TRUE(r.fault.has_value());
      EXPECT_EQ(r.fault->kind, "deadlock");
      EXPECT_EQ(r.fault->kernel, "_Z14waiting_parentPi");
    }
  }
}

TEST(ChildGrids, SameFiguresOnAnyNumberOfThreads) {
  std::vector<LaunchResult> results;
  for (uint32_t threads : {1u, 3u}) {
    auto engine = timing_engine(h100(4), threads);
    results.push_back(run_parent(*engine, kTwoInNullStream, 6, 3, 200, 300).result);
  }
  ASSERT_EQ(results[0].child_grids.size(), 2u);
  ASSERT_EQ(results[1].child_grids.size(), 2u);
  EXPECT_EQ(*results[0].timing, *results[1].timing);
  for (size_t i = 0; i < 2; ++i) EXPECT_EQ(*results[0].child_grids[i].timing, *results[1].child_grids[i].timing);
}

TEST(ChildGrids, AFaultInAChildIsReportedAgainstTheChild) {
  auto engine = timing_engine(h100(4));
  const ParentRun r = run_parent(*engine, kFaultingChild, 1, 1, 0, 0);
  ASSERT_TRUE(r.result.fault.has_value());
  EXPECT_EQ(r.result.fault->kernel, "_Z5childPiii");
  EXPECT_EQ(r.result.fault->kind, "out-of-bounds access");
  ASSERT_EQ(r.result.child_grids.size(), 1u);
  EXPECT_EQ(r.result.child_grids[0].fault, r.result.fault->message);
}

}  // namespace
}  // namespace lockstep::test
