// The report of a launch that cannot finish (func/grid_progress.h): up to 16 stuck warps are
// listed one by one; more are grouped by state, the rarest first, so the warp that is somewhere
// else stands out among thousands that wait for it.
#include <gtest/gtest.h>

#include <vector>

#include "func/grid_progress.h"

namespace lockstep::func {
namespace {

Warp running(uint32_t id, ir::Pc pc) {
  Warp w;
  w.warp_id = id;
  w.pc = pc;
  w.active = 0xffffffffu;
  return w;
}

Warp at_barrier(uint32_t id, ir::Pc pc) {
  Warp w = running(id, pc + 1);
  w.status = Warp::Status::AtBarrier;
  w.barrier_pc = pc;
  return w;
}

LaunchFault report(const CtaState& cta, const std::vector<Warp>& warps, size_t* located) {
  return stuck_report("stuck", {StuckBlock{&cta, &warps}}, located);
}

TEST(StuckReport, ListsUpToSixteenWarpsOneByOne) {
  CtaState cta;
  cta.ctaid[0] = 2;
  std::vector<Warp> warps = {running(0, 5), at_barrier(1, 7), running(2, 5)};
  warps[1].active = 0xffu;
  Warp done = running(3, 9);
  done.status = Warp::Status::Exited;
  warps.push_back(done);
  size_t located = 9;
  const LaunchFault f = report(cta, warps, &located);
  EXPECT_EQ(located, 0u);
  EXPECT_EQ(f.warp, 0u);
  EXPECT_EQ(f.pc, 5u);
  EXPECT_EQ(f.warp_states, (std::vector<std::string>{"block (2,0,0) warp 0: pc 5 active 0xffffffff running",
                                                     "block (2,0,0) warp 1: pc 7 active 0xff waiting at barrier 0",
                                                     "block (2,0,0) warp 2: pc 5 active 0xffffffff running"}));
}

TEST(StuckReport, GroupsManyWarpsByStateTheRarestFirst) {
  CtaState cta;
  cta.ctaid[0] = 2;
  std::vector<Warp> warps;
  for (uint32_t i = 0; i < 30; ++i) warps.push_back(running(i, 5));
  for (uint32_t i = 30; i < 38; ++i) warps.push_back(at_barrier(i, 7));
  warps.push_back(running(38, 3));  // the one that never arrives
  size_t located = 9;
  const LaunchFault f = report(cta, warps, &located);
  EXPECT_EQ(f.warp, 0u);
  EXPECT_EQ(f.pc, 5u);
  EXPECT_EQ(f.warp_states,
            (std::vector<std::string>{
                "block (2,0,0) warp 38: pc 3 active 0xffffffff running",
                "block (2,0,0) warp 30: pc 7 active 0xffffffff waiting at barrier 0 (and 7 more warps alike)",
                "block (2,0,0) warp 0: pc 5 active 0xffffffff running (and 29 more warps alike)"}));
}

TEST(StuckReport, ListsSixteenStatesThenCountsTheRest) {
  CtaState cta;
  std::vector<Warp> warps;
  for (uint32_t i = 0; i < 5; ++i) warps.push_back(running(i, 100));
  for (uint32_t i = 5; i < 25; ++i) warps.push_back(running(i, i));  // 20 states of one warp each
  size_t located = 9;
  const LaunchFault f = report(cta, warps, &located);
  ASSERT_EQ(f.warp_states.size(), 17u);
  EXPECT_EQ(f.warp_states[0], "block (0,0,0) warp 5: pc 5 active 0xffffffff running");
  EXPECT_EQ(f.warp_states[15], "block (0,0,0) warp 20: pc 20 active 0xffffffff running");
  EXPECT_EQ(f.warp_states[16], "... and 9 more warps in 5 other states");
}

}  // namespace
}  // namespace lockstep::func
