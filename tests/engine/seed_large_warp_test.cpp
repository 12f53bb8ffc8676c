// Seed 001 §3.3.4 part 2, fig 3-17: large warps. A large warp is sm.large_warp_size consecutive
// warps of a block run by one SIMT stack; its active masks form a matrix (rows: its warps,
// columns: lanes), and each issue takes one active thread from every column to form a sub-warp
// until the matrix is empty. Eight 4-lane warps in two large warps of four run an if/else whose
// B threads are, by rows:
//   LW0: W0 [T0 - T2 -]  W1 [T4 T5 - -]  W2 [- T9 - T11]  W3 [T12 - - T15]
//   LW1: W4 [- - T18 -]  W5 [- - T22 -]  W6, W7: none
// and whose C threads are the others; all meet at D. A sub-warp is written by lane, "-" for an
// empty lane.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/harness.h"
#include "config/gpu_config.h"
#include "engine/masked_if_else.h"

namespace lockstep {
namespace {

using test::kMaskedIfElse;

constexpr uint32_t kThreads = 32;
constexpr uint32_t kLanes = 4;
constexpr uint32_t kBThreads = 1u << 0 | 1u << 2 | 1u << 4 | 1u << 5 | 1u << 9 | 1u << 11 |
                               1u << 12 | 1u << 15 | 1u << 18 | 1u << 22;
// A's guarded branch runs for the 22 C threads only: 7*32 + 22 + 2*10 + 1*22 + 6*32.
constexpr uint64_t kThreadInstructions = 480;

struct UnitRun {
  // Per group of `group` consecutive home warps (a large warp; the whole block for the other
  // units): its issue steps, the warps issued at one PC one after another, consecutive repeats
  // dropped.
  std::vector<std::vector<std::string>> steps;
  LaunchResult result;
};

// One issued warp, formed or not: its PC, formed warp number (0: issued alone), thread per lane.
struct Issued {
  uint32_t pc;
  uint64_t formed;
  uint32_t group;
  std::vector<std::string> lanes;
};

UnitRun run(const std::string& divergence, uint32_t group) {
  EngineOptions options;
  options.warp_size = kLanes;
  options.divergence = divergence;
  options.large_warp_size = 4;
  Engine engine(options);
  const ModuleId m = engine.load_ptx(kMaskedIfElse, "ifelse.ptx");
  const KernelInfo info = engine.kernel_info(m, "ifelse");
  std::map<uint32_t, std::string> block_at;
  for (const auto& [label, pc] : info.labels) block_at[pc] = label;

  std::vector<Issued> issued;
  engine.set_trace([&](const TraceEvent& e) {
    if (issued.empty() || e.formed_warp == 0 || issued.back().formed != e.formed_warp)
      issued.push_back(
          {e.pc, e.formed_warp, e.warp / group, std::vector<std::string>(kLanes, "-")});
    for (uint32_t l = 0; l < kLanes; ++l)
      if ((e.path_mask >> l & 1) != 0)
        issued.back().lanes[l] = "T" + std::to_string(e.warp * kLanes + l);
  });
  test::DeviceBuffer<uint32_t> out(engine, kThreads);
  UnitRun r;
  r.result = test::launch_ok(engine, m, "ifelse", {1, 1, 1}, {kThreads, 1, 1},
                             {out.arg(), test::arg<uint32_t>(kBThreads)});
  std::vector<uint32_t> expected(kThreads);
  for (uint32_t t = 0; t < kThreads; ++t) expected[t] = (kBThreads >> t & 1) != 0 ? 101 : 110;
  EXPECT_EQ(out.download(), expected);

  r.steps.resize(kThreads / kLanes / group);
  for (uint32_t g = 0; g < r.steps.size(); ++g) {
    std::vector<std::string>& steps = r.steps[g];
    std::string label, step;
    uint32_t step_pc = ~0u;
    auto flush = [&] {
      if (!step.empty() && (steps.empty() || steps.back() != step)) steps.push_back(step);
    };
    for (const Issued& i : issued) {
      if (i.group != g) continue;
      if (auto it = block_at.find(i.pc); it != block_at.end()) label = it->second;
      std::string warp = "[";
      for (uint32_t l = 0; l < kLanes; ++l) warp += (l == 0 ? "" : " ") + i.lanes[l];
      warp += "]";
      if (i.formed != 0 && i.pc == step_pc) {
        step += " " + warp;
      } else {
        flush();
        step = label + ": " + warp;
      }
      step_pc = i.formed != 0 ? i.pc : ~0u;
    }
    flush();
  }
  return r;
}

const char* const kA0 = "A: [T0 T1 T2 T3] [T4 T5 T6 T7] [T8 T9 T10 T11] [T12 T13 T14 T15]";
const char* const kD0 = "D: [T0 T1 T2 T3] [T4 T5 T6 T7] [T8 T9 T10 T11] [T12 T13 T14 T15]";
const char* const kA1 =
    "A: [T16 T17 T18 T19] [T20 T21 T22 T23] [T24 T25 T26 T27] [T28 T29 T30 T31]";
const char* const kD1 =
    "D: [T16 T17 T18 T19] [T20 T21 T22 T23] [T24 T25 T26 T27] [T28 T29 T30 T31]";

// Fig 3-17 (b): each large warp issues B, then C, as sub-warps that take one thread per column
// of its mask matrix, the k-th thread of a column in the k-th sub-warp: LW0's B column 0 holds
// T0, T4 and T12, so B needs three sub-warps for its eight threads; LW1's B threads share column
// 2, so they issue one by one. The two large warps never mix threads.
TEST(SeedLargeWarp, SubWarpsTakeOneThreadPerColumnFigure3_17) {
  const UnitRun r = run("large-warp", 4);
  EXPECT_EQ(r.steps[0],
            (std::vector<std::string>{kA0, "B: [T0 T5 T2 T11] [T4 T9 - T15] [T12 - - -]",
                                      "C: [T8 T1 T6 T3] [- T13 T10 T7] [- - T14 -]", kD0}));
  EXPECT_EQ(r.steps[1],
            (std::vector<std::string>{
                kA1, "B: [- - T18 -] [- - T22 -]",
                "C: [T16 T17 T26 T19] [T20 T21 T30 T23] [T24 T25 - T27] [T28 T29 - T31]", kD1}));
  // A: 8 warps * 8; B: (3 + 2) sub-warps * 2; C: (3 + 4) * 1; D: 8 * 6.
  EXPECT_EQ(r.result.warp_instructions, 8u * 8 + 5u * 2 + 7u * 1 + 8u * 6);
  EXPECT_EQ(r.result.thread_instructions, kThreadInstructions);
  // Each large warp's stack splits once and merges once.
  EXPECT_EQ(r.result.divergence.divergent_branches, 2u);
  EXPECT_EQ(r.result.divergence.reconvergences, 2u);
  // Sub-warps with threads of more than one home warp, per instruction: LW0's first two B
  // sub-warps (4 + 3 threads, 2 instructions), LW0's first two C sub-warps (4 + 3 threads) and
  // LW1's first two C sub-warps (4 + 4 threads).
  EXPECT_EQ(r.result.divergence.formed_warps, 2u * 2 + 2u + 2u);
  EXPECT_EQ(r.result.divergence.formed_threads, 7u * 2 + 7u + 8u);
}

// tbc compacts the whole block's columns (one stack for the block): fewer formed warps than two
// large warps (B: the fullest column holds 3 threads; C: 6), but every warp waits for the
// block's slowest path.
TEST(SeedLargeWarp, ThreadBlockCompactionCompactsTheWholeBlock) {
  const UnitRun r = run("tbc", 8);
  EXPECT_EQ(
      r.steps[0],
      (std::vector<std::string>{
          std::string(kA0) + " " + (kA1 + 3), "B: [T0 T5 T2 T11] [T4 T9 T18 T15] [T12 - T22 -]",
          "C: [T8 T1 T6 T3] [T16 T13 T10 T7] [T20 T17 T14 T19] [T24 T21 T26 T23] [T28 T25 T30 T27] "
          "[- T29 - T31]",
          std::string(kD0) + " " + (kD1 + 3)}));
  EXPECT_EQ(r.result.warp_instructions, 8u * 8 + 3u * 2 + 6u * 1 + 8u * 6);
  EXPECT_EQ(r.result.thread_instructions, kThreadInstructions);
  EXPECT_EQ(r.result.divergence.divergent_branches, 1u);
  EXPECT_EQ(r.result.divergence.reconvergences, 1u);
}

// The SIMT stack runs B and C per warp: 6 warps have B threads, all 8 have C threads.
TEST(SeedLargeWarp, StackRunsEveryWarpsPathsAlone) {
  const UnitRun r = run("ipdom-stack", 8);
  EXPECT_EQ(r.result.warp_instructions, 8u * 8 + 6u * 2 + 8u * 1 + 8u * 6);
  EXPECT_EQ(r.result.thread_instructions, kThreadInstructions);
  EXPECT_EQ(r.result.divergence.divergent_branches, 6u);
  EXPECT_EQ(r.result.divergence.reconvergences, 6u);
  EXPECT_EQ(r.result.divergence.formed_warps, 0u);
  EXPECT_EQ(r.result.divergence.formed_threads, 0u);
}

// A large warp of one warp is the SIMT stack: the same warp instructions, nothing formed.
TEST(SeedLargeWarp, OneWarpLargeWarpsIssueAsTheStack) {
  EngineOptions options;
  options.warp_size = kLanes;
  options.divergence = "large-warp";
  options.large_warp_size = 1;
  Engine engine(options);
  const ModuleId m = engine.load_ptx(kMaskedIfElse, "ifelse.ptx");
  test::DeviceBuffer<uint32_t> out(engine, kThreads);
  const LaunchResult r = test::launch_ok(engine, m, "ifelse", {1, 1, 1}, {kThreads, 1, 1},
                                         {out.arg(), test::arg<uint32_t>(kBThreads)});
  EXPECT_EQ(r.warp_instructions, 8u * 8 + 6u * 2 + 8u * 1 + 8u * 6);
  EXPECT_EQ(r.divergence.divergent_branches, 6u);
  EXPECT_EQ(r.divergence.formed_warps, 0u);
}

TEST(SeedLargeWarp, ZeroLargeWarpSizeIsRefused) {
  EngineOptions options;
  options.divergence = "large-warp";
  options.large_warp_size = 0;
  try {
    Engine engine(options);
    ADD_FAILURE() << "accepted sm.large_warp_size 0";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "sm.large_warp_size must be at least 1");
  }
}

}  // namespace
}  // namespace lockstep
