// Seed 001 §3.3.4 part 2, fig 3-19: simultaneous branch interweaving (sbi). Two 4-lane warps,
// W1 = T0..T3 and W2 = T4..T7, branch at I1 (PCdiv): T0/T3 (W1's 1001) and T5..T7 run I2, I3
// and I4, T1/T2 (W1's 0110) and T4 run I5; all meet at I6 (PCrec). Under the SIMT stack a warp
// runs one path after the other; under sbi a secondary scheduler issues the other path (I5)
// beside the primary's (I2, I3) in the same issue, and, as in fig 3-19 (d), stops at I6 until
// the primary arrives there too.
#include <gtest/gtest.h>

#include <iterator>
#include <memory>
#include <map>
#include <string>
#include <vector>

#include "common/harness.h"
#include "config/gpu_config.h"
#include "engine/interweaving_kernels.h"

namespace lockstep {
namespace {

constexpr uint32_t kThreads = 8;
constexpr uint32_t kLanes = 4;
constexpr uint32_t kI2Threads = 1u << 0 | 1u << 3 | 1u << 5 | 1u << 6 | 1u << 7;
// I1's guarded branch runs for the 3 I5 threads: 7*8 + 3 + 4*5 + 2*3 + 6*8.
constexpr uint64_t kThreadInstructions = 133;

struct UnitRun {
  // Per warp, its issues in order: "I2 [T0 - - T3] + I5 [- T1 T2 -]" for a co-issued pair (the
  // primary's block first), a run of equal issues written once with " xN".
  std::vector<std::vector<std::string>> issues;
  LaunchResult result;
};

// timing: on the cycle-level model (the teaching preset with 4-lane warps).
UnitRun run(const std::string& divergence, bool timing = false) {
  EngineOptions options;
  options.warp_size = kLanes;
  options.divergence = divergence;
  if (timing)
    options.timing = std::make_shared<const config::GpuConfig>(
        config::load_gpu_config("teaching", {"sm.warp_size=4", "sm.divergence=" + divergence}));
  Engine engine(options);
  const ModuleId m = engine.load_ptx(test::kFigure3_19, "sbi.ptx");
  const KernelInfo info = engine.kernel_info(m, "sbi");
  std::map<uint32_t, std::string> block_at;
  for (const auto& [label, pc] : info.labels) block_at[pc] = label;
  auto block_of = [&](uint32_t pc) { return std::prev(block_at.upper_bound(pc))->second; };

  // Per warp: (formed warp number, text) of each issue.
  std::vector<std::vector<std::pair<uint64_t, std::string>>> issued(kThreads / kLanes);
  engine.set_trace([&](const TraceEvent& e) {
    std::string part = block_of(e.pc) + " [";
    for (uint32_t l = 0; l < kLanes; ++l)
      part += (l == 0 ? "" : " ") +
              ((e.path_mask >> l & 1) != 0 ? "T" + std::to_string(e.warp * kLanes + l) : "-");
    part += "]";
    auto& mine = issued[e.warp];
    if (!mine.empty() && e.formed_warp != 0 && mine.back().first == e.formed_warp) {
      mine.back().second += " + " + part;
    } else {
      mine.push_back({e.formed_warp, part});
    }
  });
  test::DeviceBuffer<uint32_t> out(engine, kThreads);
  UnitRun r;
  r.result = test::launch_ok(engine, m, "sbi", {1, 1, 1}, {kThreads, 1, 1},
                             {out.arg(), test::arg<uint32_t>(kI2Threads)});
  std::vector<uint32_t> expected(kThreads);
  for (uint32_t t = 0; t < kThreads; ++t) expected[t] = (kI2Threads >> t & 1) != 0 ? 107 : 148;
  EXPECT_EQ(out.download(), expected);
  for (const auto& warp : issued) {
    std::vector<std::string>& lines = r.issues.emplace_back();
    for (size_t i = 0; i < warp.size();) {
      size_t j = i;
      while (j < warp.size() && warp[j].second == warp[i].second) ++j;
      lines.push_back(warp[i].second + (j - i > 1 ? " x" + std::to_string(j - i) : ""));
      i = j;
    }
  }
  return r;
}

// Fig 3-19 (b): the stack runs I2..I4, then I5, one path per issue.
TEST(SeedSbi, StackRunsThePathsOneAfterTheOther) {
  const UnitRun r = run("ipdom-stack");
  EXPECT_EQ(r.issues[0], (std::vector<std::string>{"I1 [T0 T1 T2 T3] x8", "I2 [T0 - - T3]",
                                                   "I3 [T0 - - T3]", "I4 [T0 - - T3] x2",
                                                   "I5 [- T1 T2 -] x2", "I6 [T0 T1 T2 T3] x6"}));
  EXPECT_EQ(r.issues[1], (std::vector<std::string>{"I1 [T4 T5 T6 T7] x8", "I2 [- T5 T6 T7]",
                                                   "I3 [- T5 T6 T7]", "I4 [- T5 T6 T7] x2",
                                                   "I5 [T4 - - -] x2", "I6 [T4 T5 T6 T7] x6"}));
  EXPECT_EQ(r.result.warp_instructions, 2u * (8 + 1 + 1 + 2 + 2 + 6));
  EXPECT_EQ(r.result.thread_instructions, kThreadInstructions);
  EXPECT_EQ(r.result.divergence.formed_warps, 0u);
}

// Fig 3-19 (d): the primary issues I2 and I3 for W1's T0/T3 while the secondary issues I5's two
// instructions for T1/T2; the secondary then waits at I6 (PCrec) while the primary runs I4, and
// the warp runs I6 reconverged. Each pair is one warp instruction.
TEST(SeedSbi, SecondaryIssuesTheElsePathUntilPcRecFigure3_19) {
  const UnitRun r = run("sbi");
  EXPECT_EQ(r.issues[0],
            (std::vector<std::string>{"I1 [T0 T1 T2 T3] x8", "I2 [T0 - - T3] + I5 [- T1 T2 -]",
                                      "I3 [T0 - - T3] + I5 [- T1 T2 -]", "I4 [T0 - - T3] x2",
                                      "I6 [T0 T1 T2 T3] x6"}));
  EXPECT_EQ(r.issues[1],
            (std::vector<std::string>{"I1 [T4 T5 T6 T7] x8", "I2 [- T5 T6 T7] + I5 [T4 - - -]",
                                      "I3 [- T5 T6 T7] + I5 [T4 - - -]", "I4 [- T5 T6 T7] x2",
                                      "I6 [T4 T5 T6 T7] x6"}));
  EXPECT_EQ(r.result.warp_instructions, 2u * (8 + 1 + 1 + 2 + 6));
  EXPECT_EQ(r.result.thread_instructions, kThreadInstructions);
  // Each warp's stack splits once and merges once, as under ipdom-stack.
  EXPECT_EQ(r.result.divergence.divergent_branches, 2u);
  EXPECT_EQ(r.result.divergence.reconvergences, 2u);
  // Two pairs per warp, each carrying the warp's 4 threads.
  EXPECT_EQ(r.result.divergence.formed_warps, 4u);
  EXPECT_EQ(r.result.divergence.formed_threads, 16u);
}

// Timing mode issues each pair in one cycle through the SM's secondary issue path
// (sim/sm_co_issue.cpp) with the pairs functional mode makes: the same issues per warp, counts
// and divergence counters (the cycles: tests/timing/co_issue_test.cpp).
TEST(SeedSbi, TimingModeCoIssuesTheSamePairs) {
  for (const char* unit : {"ipdom-stack", "sbi"}) {
    SCOPED_TRACE(unit);
    const UnitRun functional = run(unit);
    const UnitRun timing = run(unit, true);
    EXPECT_EQ(timing.issues, functional.issues);
    EXPECT_EQ(timing.result.warp_instructions, functional.result.warp_instructions);
    EXPECT_EQ(timing.result.thread_instructions, functional.result.thread_instructions);
    EXPECT_TRUE(timing.result.divergence == functional.result.divergence);  // every counter
  }
  const UnitRun timing = run("sbi", true);
  EXPECT_EQ(timing.result.warp_instructions, 2u * (8 + 1 + 1 + 2 + 6));
  EXPECT_EQ(timing.result.divergence.formed_warps, 4u);
}

}  // namespace
}  // namespace lockstep
