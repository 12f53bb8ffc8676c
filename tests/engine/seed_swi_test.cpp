// Seed 001 §3.3.4 part 2, fig 3-21: simultaneous warp interweaving (swi). An if without an else
// leaves sbi nothing to pair: two 4-lane warps, W0 = T0..T3 and W1 = T4..T7, branch at I1; T0/T3
// (W0's 1001) and T5/T6 (W1's 0110) run I2, I3 and I4, the others go straight to I5, where all
// meet. The two warps' paths use disjoint lanes, so swi's secondary scheduler issues one warp's
// path beside the other's at another PC, as in the figure: W1's I2 with W0's I3, then W0's I4
// with W1's I3 (W0 and W1 at I2 together are at one PC: merging those is dwf's, not swi's).
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
constexpr uint32_t kIfThreads = 1u << 0 | 1u << 3 | 1u << 5 | 1u << 6;
// I1's guarded branch runs for the 4 threads that skip the if: 7*8 + 4 + 3*4 + 6*8.
constexpr uint64_t kThreadInstructions = 120;

struct UnitRun {
  // The issues that paired two warps' paths, in order: "W1 I2 [- T5 T6 -] + W0 I3 [T0 - - T3]"
  // (the primary first).
  std::vector<std::string> pairs;
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
  const ModuleId m = engine.load_ptx(test::kIfWithoutElse, "swi.ptx");
  const KernelInfo info = engine.kernel_info(m, "swi");
  std::map<uint32_t, std::string> block_at;
  for (const auto& [label, pc] : info.labels) block_at[pc] = label;
  auto block_of = [&](uint32_t pc) { return std::prev(block_at.upper_bound(pc))->second; };

  std::vector<std::pair<uint64_t, std::string>> issued;  // (formed warp number, text)
  engine.set_trace([&](const TraceEvent& e) {
    std::string part = "W" + std::to_string(e.warp) + " " + block_of(e.pc) + " [";
    for (uint32_t l = 0; l < kLanes; ++l)
      part += (l == 0 ? "" : " ") +
              ((e.path_mask >> l & 1) != 0 ? "T" + std::to_string(e.warp * kLanes + l) : "-");
    part += "]";
    if (!issued.empty() && e.formed_warp != 0 && issued.back().first == e.formed_warp) {
      issued.back().second += " + " + part;
    } else {
      issued.push_back({e.formed_warp, part});
    }
  });
  test::DeviceBuffer<uint32_t> out(engine, kThreads);
  UnitRun r;
  r.result = test::launch_ok(engine, m, "swi", {1, 1, 1}, {kThreads, 1, 1},
                             {out.arg(), test::arg<uint32_t>(kIfThreads)});
  std::vector<uint32_t> expected(kThreads);
  for (uint32_t t = 0; t < kThreads; ++t) expected[t] = (kIfThreads >> t & 1) != 0 ? 107 : 100;
  EXPECT_EQ(out.download(), expected);
  for (const auto& [formed, text] : issued)
    if (text.find(" + ") != std::string::npos) r.pairs.push_back(text);
  return r;
}

// Per warp: I1 (8), I2..I4 (3), I5 (6).
constexpr uint64_t kStackWarpInstructions = 2 * (8 + 3 + 6);

TEST(SeedSwi, StackAndSbiRunEachWarpsPathAlone) {
  for (const char* unit : {"ipdom-stack", "sbi"}) {
    SCOPED_TRACE(unit);
    const UnitRun r = run(unit);
    EXPECT_TRUE(r.pairs.empty());
    EXPECT_EQ(r.result.warp_instructions, kStackWarpInstructions);
    EXPECT_EQ(r.result.thread_instructions, kThreadInstructions);
    EXPECT_EQ(r.result.divergence.formed_warps, 0u);
  }
}

// The warps take turns (W0, W1, ...). W0's and W1's branches split them; W0 issues I2 alone (W1
// waits at I2 too: the same PC); W1's I2 takes W0's I3 along, W0's I4 takes W1's I3; then W0's
// I5 needs every lane, and W1's I4 issues alone. Two issues saved.
TEST(SeedSwi, AnotherWarpFillsTheIdleLanesFigure3_21) {
  const UnitRun r = run("swi");
  EXPECT_EQ(r.pairs, (std::vector<std::string>{"W1 I2 [- T5 T6 -] + W0 I3 [T0 - - T3]",
                                               "W0 I4 [T0 - - T3] + W1 I3 [- T5 T6 -]"}));
  EXPECT_EQ(r.result.warp_instructions, kStackWarpInstructions - 2);
  EXPECT_EQ(r.result.thread_instructions, kThreadInstructions);
  EXPECT_EQ(r.result.divergence.divergent_branches, 2u);
  EXPECT_EQ(r.result.divergence.formed_warps, 2u);
  EXPECT_EQ(r.result.divergence.formed_threads, 8u);
}

// Timing mode interweaves the same warps' paths in one cycle each (sim/sm_co_issue.cpp): the
// same pairs, counts and divergence counters as functional mode (the cycles:
// tests/timing/co_issue_test.cpp).
TEST(SeedSwi, TimingModeInterweavesTheSamePairs) {
  for (const char* unit : {"sbi", "swi"}) {
    SCOPED_TRACE(unit);
    const UnitRun functional = run(unit);
    const UnitRun timing = run(unit, true);
    EXPECT_EQ(timing.pairs, functional.pairs);
    EXPECT_EQ(timing.result.warp_instructions, functional.result.warp_instructions);
    EXPECT_EQ(timing.result.thread_instructions, functional.result.thread_instructions);
    EXPECT_TRUE(timing.result.divergence == functional.result.divergence);  // every counter
  }
  const UnitRun timing = run("swi", true);
  EXPECT_EQ(timing.pairs.size(), 2u);
  EXPECT_EQ(timing.result.warp_instructions, kStackWarpInstructions - 2);
}

}  // namespace
}  // namespace lockstep
