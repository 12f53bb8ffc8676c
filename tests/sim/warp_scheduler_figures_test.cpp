// The warp scheduler policies on the worked examples of seed 001 §3.4.2-3.4.3: fig 3-24 (round
// robin and GTO issue orders) and figs 3-25/3-26 (two-level hides a long latency that round
// robin leaves exposed). A toy driver stands in for the SM: each warp is a list of instructions,
// each with the cycles until the warp's next instruction may issue; one issue per cycle.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "sim/warp_scheduler/warp_scheduler.h"

namespace lockstep::sim {
namespace {

struct ToyInstruction {
  uint32_t latency = 1;       // cycles from this issue until the warp's next instruction is ready
  bool long_latency = false;  // a load far away: reported with on_long_latency / _done
};

struct ToyWarp {
  std::vector<ToyInstruction> program;
  bool never_ready = false;  // fig 3-24's warp 2: its ready bit is never set
};

struct ToyRun {
  std::string trace;    // "cycle:Wwarp.Iinstruction" per issue, in issue order
  uint64_t finish = 0;  // the cycle at which the last instruction's result is available
};

ToyRun run_toy(std::string_view policy, const std::vector<ToyWarp>& warps,
               uint32_t fetch_group = 8) {
  const uint32_t n = static_cast<uint32_t>(warps.size());
  auto scheduler = make_warp_scheduler(policy, {.warp_slots = n, .fetch_group_size = fetch_group});
  for (uint32_t w = 0; w < n; ++w) scheduler->on_warp_added(w, 0);  // one CTA: one age
  std::vector<size_t> next(n, 0);
  std::vector<uint64_t> ready_at(n, 0);
  std::vector<bool> waiting(n, false);
  WarpSet ready(n);
  ToyRun run;
  for (uint64_t cycle = 0; cycle < 100000; ++cycle) {
    bool unfinished = false;
    ready.clear();
    for (uint32_t w = 0; w < n; ++w) {
      if (waiting[w] && ready_at[w] == cycle) {
        scheduler->on_long_latency_done(w);
        waiting[w] = false;
      }
      if (warps[w].never_ready || next[w] == warps[w].program.size()) continue;
      unfinished = true;
      if (ready_at[w] <= cycle) ready.set(w);
    }
    if (!unfinished) break;
    const uint32_t w = scheduler->select(ready);
    if (w == kNoWarp) continue;
    EXPECT_TRUE(ready.test(w)) << policy << " chose warp " << w << " that is not ready";
    const ToyInstruction& inst = warps[w].program[next[w]];
    run.trace += (run.trace.empty() ? "" : " ") + std::to_string(cycle) + ":W" + std::to_string(w) +
                 ".I" + std::to_string(next[w]);
    scheduler->on_issue(w, cycle);
    ready_at[w] = cycle + inst.latency;
    run.finish = std::max(run.finish, ready_at[w]);
    if (inst.long_latency) {
      scheduler->on_long_latency(w);
      waiting[w] = true;
    }
    ++next[w];
  }
  return run;
}

// Fig 3-24 (the figure itself is an image; this is what the text around it states): warps 0, 1,
// 3, 4, 5 are ready, warp 2 never is. Round robin gives the ready warps equal priority and turns:
// every ready warp issues instruction 0, then every one instruction 1, ... GTO runs warp 0's
// first 3 instructions until instruction 3 cannot issue, then warp 1's first 3, and so on. So
// each warp's instructions 0-2 issue back to back (latency 1) and instruction 3 waits on a
// result far away; here instruction 2 is a load whose result comes 20 cycles after it issues.
std::vector<ToyWarp> figure_3_24_warps() {
  const ToyWarp warp{{{1, false}, {1, false}, {20, true}, {1, false}}};
  std::vector<ToyWarp> warps(6, warp);
  warps[2].never_ready = true;
  return warps;
}

TEST(WarpSchedulerFigures, Figure3_24RoundRobinTakesTurnsOverTheReadyWarps) {
  // Instruction 0 of warps 0,1,3,4,5, then instruction 1 of each, then 2; warp w's instruction 2
  // issues at cycle 10 + its turn, so its instruction 3 is ready 20 cycles later: cycles 30-34.
  EXPECT_EQ(run_toy("lrr", figure_3_24_warps()).trace,
            "0:W0.I0 1:W1.I0 2:W3.I0 3:W4.I0 4:W5.I0 "
            "5:W0.I1 6:W1.I1 7:W3.I1 8:W4.I1 9:W5.I1 "
            "10:W0.I2 11:W1.I2 12:W3.I2 13:W4.I2 14:W5.I2 "
            "30:W0.I3 31:W1.I3 32:W3.I3 33:W4.I3 34:W5.I3");
}

TEST(WarpSchedulerFigures, Figure3_24GtoRunsEachWarpUntilItStalls) {
  // Warp 0 issues 0-2 in cycles 0-2 and stalls on instruction 3 (ready at 2 + 20 = 22); the
  // oldest ready warp, 1, takes over for cycles 3-5, then 3, 4, 5. Each instruction 3 issues as
  // soon as it is ready: 22, 25, 28, 31, 34.
  EXPECT_EQ(run_toy("gto", figure_3_24_warps()).trace,
            "0:W0.I0 1:W0.I1 2:W0.I2 3:W1.I0 4:W1.I1 5:W1.I2 6:W3.I0 7:W3.I1 8:W3.I2 "
            "9:W4.I0 10:W4.I1 11:W4.I2 12:W5.I0 13:W5.I1 14:W5.I2 "
            "22:W0.I3 25:W1.I3 28:W3.I3 31:W4.I3 34:W5.I3");
}

TEST(WarpSchedulerFigures, Figure3_24TwoLevelWithOneGroupIsRoundRobin) {
  // Six warps fit in one fetch group of 8: nothing to rank, so the order is round robin's.
  EXPECT_EQ(run_toy("two-level", figure_3_24_warps()).trace,
            run_toy("lrr", figure_3_24_warps()).trace);
}

// Figs 3-25/3-26: 16 warps W0-W15, each k compute instructions I0..I(k-1) (latency 1) and a load
// I_k of L cycles; the figures continue each warp with the compute that uses the loaded value,
// here k more instructions of latency 1 (without it both policies would end when the last load
// returns, issue slots being equal). k = 10, L = 200.
constexpr uint64_t kCompute = 10, kLoadLatency = 200;

std::vector<ToyWarp> figure_3_25_warps() {
  ToyWarp warp;
  for (uint64_t i = 0; i < kCompute; ++i) warp.program.push_back({1, false});
  warp.program.push_back({static_cast<uint32_t>(kLoadLatency), true});
  for (uint64_t i = 0; i < kCompute; ++i) warp.program.push_back({1, false});
  return std::vector<ToyWarp>(16, warp);
}

TEST(WarpSchedulerFigures, Figure3_25RoundRobinLeavesTheLoadLatencyExposed) {
  // Fig 3-25: W w issues I_j at cycle 16j + w, so all 16 loads issue one cycle apart in cycles
  // 16k .. 16k+15 = 160-175 and nothing is left to issue while W0's load is out: the pipeline
  // idles until 16k + L = 360. The second compute phase is again 16k issue cycles, ending with
  // W15's last instruction at 32k + L - 1, its result at 32k + L = 520.
  const ToyRun run = run_toy("lrr", figure_3_25_warps());
  EXPECT_NE(run.trace.find("160:W0.I10 161:W1.I10"), std::string::npos);
  EXPECT_NE(run.trace.find("175:W15.I10 360:W0.I11 361:W1.I11"), std::string::npos);
  EXPECT_EQ(run.finish, 32 * kCompute + kLoadLatency);
  EXPECT_EQ(run.finish, 520u);
}

TEST(WarpSchedulerFigures, Figure3_26TwoLevelOverlapsOneGroupsComputeWithTheOthersLoads) {
  // Fig 3-26, 2 fetch groups of 8. Group 0 (W0-W7) computes in cycles 0 .. 8k-1 and issues its
  // loads in 8k .. 8k+7 = 80-87; then every warp of group 0 waits, the group drops, and group 1
  // computes in 88 .. 167 and loads in 168-175 while group 0's loads are out. Group 0's results
  // come back at 8k + L + w = 280-287; its second phase runs 280-359. Group 1's come back at
  // 168 + L + (w - 8) = 368-375, so after an 8-cycle gap its second phase runs 368-447: the
  // result of the last instruction at 24k + L + 8 = 448.
  const ToyRun run = run_toy("two-level", figure_3_25_warps(), 8);
  EXPECT_NE(run.trace.find("79:W7.I9 80:W0.I10"), std::string::npos);
  EXPECT_NE(run.trace.find("87:W7.I10 88:W8.I0"), std::string::npos);
  EXPECT_NE(run.trace.find("175:W15.I10 280:W0.I11"), std::string::npos);
  EXPECT_NE(run.trace.find("359:W7.I20 368:W8.I11"), std::string::npos);
  EXPECT_EQ(run.finish, 24 * kCompute + kLoadLatency + 8);
  EXPECT_EQ(run.finish, 448u);
  // The seed: "ideally the time saved is about group 1's compute time" (8k = 80 issue cycles);
  // here 8k - 8 = 72, the 8 being the gap while group 1's staggered loads come back.
  // (Group 0 returns after group 1 has issued its loads, so the result does not depend on the
  // demotion itself; warp_scheduler_test.cpp pins that.)
  EXPECT_EQ(run_toy("lrr", figure_3_25_warps()).finish - run.finish, 8 * kCompute - 8);
}

TEST(WarpSchedulerFigures, Figure3_25GtoStaggersTheLoads) {
  // §3.4.3: GTO also improves on round robin here, each warp having run ahead. W w issues its
  // k + 1 first instructions in cycles 11w .. 11w + 10, load last; its result comes back at
  // 11w + 10 + L, after which it runs its last k instructions greedily, one idle cycle apart from
  // the next warp's return. W15: back at 165 + 10 + 200 = 375, done at 385.
  const ToyRun run = run_toy("gto", figure_3_25_warps());
  EXPECT_NE(run.trace.find("175:W15.I10 210:W0.I11"), std::string::npos);
  EXPECT_NE(run.trace.find("219:W0.I20 221:W1.I11"), std::string::npos);
  EXPECT_EQ(run.finish, 385u);
}

TEST(WarpSchedulerFigures, TwoLevelWithOneGroupOfAllWarpsIsRoundRobin) {
  // §3.4.3: a fetch group holding every warp degenerates to the baseline round robin.
  const ToyRun one_group = run_toy("two-level", figure_3_25_warps(), 16);
  EXPECT_EQ(one_group.trace, run_toy("lrr", figure_3_25_warps()).trace);
  EXPECT_EQ(one_group.finish, 520u);
}

}  // namespace
}  // namespace lockstep::sim
