// Seed 001 §3.3.4 part 2, figs 3-14 and 3-16: warps formed across the warps of a block. Two
// 4-lane warps, W0 = T0..T3 and W1 = T4..T7, run an if/else: T0, T6 and T7 fall through to B,
// T1..T5 branch to C, and all meet at D. Every thread keeps its home lane (tid % 4), so a
// formed warp is written by lane, "-" for an empty lane: B's merged warp is [T0 - T6 T7].
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/harness.h"
#include "config/gpu_config.h"
#include "engine/masked_if_else.h"

namespace lockstep {
namespace {

using test::kMaskedIfElse;

// out[tid] = 101 for the B threads, 110 for the C threads. No memory access before the store,
// so a per-warp unit runs each warp through A..D in one turn.
constexpr const char* kIfElse = R"(
.version 9.0
.target sm_75
.address_size 64

.visible .entry ifelse(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
A:
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
  setp.eq.u32 %p1, %r1, 0;
  setp.ge.u32 %p2, %r1, 6;
  or.pred %p3, %p1, %p2;
  @!%p3 bra C;
B:
  add.u32 %r2, %r2, 1;
  bra D;
C:
  add.u32 %r2, %r2, 10;
D:
  add.u32 %r2, %r2, 100;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
)";

struct FormationRun {
  // One entry per issue step (the warps issued at one PC one after another), consecutive
  // repeats dropped: "B: [T0 - T6 T7]" lists the step's warps, formed or not, by lane.
  std::vector<std::string> steps;
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  uint64_t divergent_branches = 0;
  uint64_t reconvergences = 0;
};

// One issued warp, formed or not, in trace order: its PC, its formed warp number (0: it issued
// alone) and, per lane, the thread there.
struct Issued {
  uint32_t pc;
  uint64_t formed;
  std::vector<std::string> lanes;
};

FormationRun summarize(const LaunchResult& r, const std::vector<Issued>& issued,
                       const std::map<uint32_t, std::string>& block_at) {
  FormationRun run{{}, r.warp_instructions, r.thread_instructions, r.divergence.divergent_branches,
                   r.divergence.reconvergences};
  std::string label, step;
  uint32_t step_pc = ~0u;
  auto flush = [&] {
    if (!step.empty() && (run.steps.empty() || run.steps.back() != step)) run.steps.push_back(step);
  };
  for (const Issued& i : issued) {
    if (auto it = block_at.find(i.pc); it != block_at.end()) label = it->second;
    std::string warp = "[";
    for (uint32_t l = 0; l < 4; ++l) warp += (l == 0 ? "" : " ") + i.lanes[l];
    warp += "]";
    // Formed warps at one PC make one step; a warp issued alone is a step of its own.
    if (i.formed != 0 && i.pc == step_pc) {
      step += " " + warp;
    } else {
      flush();
      step = label + ": " + warp;
    }
    step_pc = i.formed != 0 ? i.pc : ~0u;
  }
  flush();
  return run;
}

// Runs the figure's kernel (b_threads == 0) or kMaskedIfElse on `threads` threads; `timing`:
// on the cycle-level model (the teaching preset at 4 lanes).
FormationRun run_if_else(const std::string& divergence, uint32_t threads = 8, uint32_t b_threads = 0,
                         bool timing = false) {
  EngineOptions options;
  options.warp_size = 4;
  options.divergence = divergence;
  if (timing)
    options.timing = std::make_shared<const config::GpuConfig>(
        config::load_gpu_config("teaching", {"sm.warp_size=4", "sm.divergence=" + divergence}));
  Engine engine(options);
  const ModuleId m = engine.load_ptx(b_threads == 0 ? kIfElse : kMaskedIfElse, "ifelse.ptx");
  const KernelInfo info = engine.kernel_info(m, "ifelse");
  std::map<uint32_t, std::string> block_at;
  for (const auto& [label, pc] : info.labels) block_at[pc] = label;

  std::vector<Issued> issued;
  engine.set_trace([&](const TraceEvent& e) {
    if (issued.empty() || e.formed_warp == 0 || issued.back().formed != e.formed_warp)
      issued.push_back({e.pc, e.formed_warp, std::vector<std::string>(4, "-")});
    for (uint32_t l = 0; l < 4; ++l)
      if ((e.path_mask >> l & 1) != 0) issued.back().lanes[l] = "T" + std::to_string(e.warp * 4 + l);
  });
  test::DeviceBuffer<uint32_t> out(engine, threads);
  if (b_threads == 0) {
    const LaunchResult r = test::launch_ok(engine, m, "ifelse", {1, 1, 1}, {threads, 1, 1}, {out.arg()});
    EXPECT_EQ(out.download(), (std::vector<uint32_t>{101, 110, 110, 110, 110, 110, 101, 101}));
    return summarize(r, issued, block_at);
  }
  const LaunchResult r = test::launch_ok(engine, m, "ifelse", {1, 1, 1}, {threads, 1, 1},
                                         {out.arg(), test::arg<uint32_t>(b_threads)});
  std::vector<uint32_t> expected(threads);
  for (uint32_t t = 0; t < threads; ++t) expected[t] = (b_threads >> t & 1) != 0 ? 101 : 110;
  EXPECT_EQ(out.download(), expected);
  return summarize(r, issued, block_at);
}

// A: 7 instructions, B: 2, C: 1, D: 6 (add, mul, add, st, ret and the function's synthetic exit
// it branches to). Threads: A's guarded branch runs for the 5 C threads only, so
// 6*8 + 5 + 2*3 + 1*5 + 6*8.
constexpr uint64_t kThreadInstructions = 112;

// Under the SIMT stack each warp runs B and C on its own (the warps run in turn: a warp's turn
// ends after its store, so W0 and W1 each run A..D's store, then their rets).
TEST(SeedWarpFormation, StackRunsBAndCPerWarp) {
  const FormationRun run = run_if_else("ipdom-stack");
  const std::vector<std::string> expected = {
      "A: [T0 T1 T2 T3]", "B: [T0 - - -]",   "C: [- T1 T2 T3]",   "D: [T0 T1 T2 T3]",
      "A: [T4 T5 T6 T7]", "B: [- - T6 T7]",  "C: [T4 T5 - -]",    "D: [T4 T5 T6 T7]",
      "D: [T0 T1 T2 T3]", "D: [T4 T5 T6 T7]"};
  EXPECT_EQ(run.steps, expected);
  EXPECT_EQ(run.warp_instructions, 2u * (7 + 2 + 1 + 6));
  EXPECT_EQ(run.thread_instructions, kThreadInstructions);
  EXPECT_EQ(run.divergent_branches, 2u);  // one per warp
  EXPECT_EQ(run.reconvergences, 2u);
}

// Fig 3-14 (dwf, in-place merging): B runs T0 with W1's T6/T7 as one warp; C runs W0's
// T1/T2/T3 with W1's T4 as one warp, and T5 alone (it collides with T1 on lane 1).
TEST(SeedWarpFormation, DynamicWarpFormationMergesFigure3_14) {
  const FormationRun run = run_if_else("dwf");
  const std::vector<std::string> expected = {"A: [T0 T1 T2 T3] [T4 T5 T6 T7]", "B: [T0 - T6 T7]",
                                             "C: [T4 T1 T2 T3] [- T5 - -]",
                                             "D: [T0 T1 T2 T3] [T4 T5 T6 T7]"};
  EXPECT_EQ(run.steps, expected);
  EXPECT_EQ(run.warp_instructions, 2u * 7 + 1u * 2 + 2u * 1 + 2u * 6);
  EXPECT_EQ(run.thread_instructions, kThreadInstructions);
  // Counted by the home warps' branch-barrier units: each warp's branch splits it, and each
  // warp's barrier at D releases threads that came in two groups.
  EXPECT_EQ(run.divergent_branches, 2u);
  EXPECT_EQ(run.reconvergences, 2u);
}

// Fig 3-16 (tbc): A with both warps; after both executed A's branch, B with T0/T6/T7 compacted
// into one warp, then C (column 1 holds T1 and T5: two warps), then D with both warps.
TEST(SeedWarpFormation, ThreadBlockCompactionFollowsFigure3_16) {
  const FormationRun run = run_if_else("tbc");
  const std::vector<std::string> expected = {"A: [T0 T1 T2 T3] [T4 T5 T6 T7]", "B: [T0 - T6 T7]",
                                             "C: [T4 T1 T2 T3] [- T5 - -]",
                                             "D: [T0 T1 T2 T3] [T4 T5 T6 T7]"};
  EXPECT_EQ(run.steps, expected);
  EXPECT_EQ(run.warp_instructions, 2u * 7 + 1u * 2 + 2u * 1 + 2u * 6);
  EXPECT_EQ(run.thread_instructions, kThreadInstructions);
  // Counted by the block stack: one split of the block, one merge.
  EXPECT_EQ(run.divergent_branches, 1u);
  EXPECT_EQ(run.reconvergences, 1u);
}

// Three warps, where the two rules part: B's threads are T0 (lane 0), T4/T5 (lanes 0, 1) and T9
// (lane 1). dwf's LUT only fills the newest formed warp: T4 collides with T0 and opens a second,
// T9 collides with T5 there and opens a third. tbc compacts each lane column: [T0 T5] and
// [T4 T9]. C's threads need three warps under both rules (column 2 holds T2, T6 and T10), but
// dwf puts T8 with W1's T6/T7 (W1 opened the second warp) where tbc puts it with T1..T3.
// A: 8 instructions (the guarded branch runs for the 8 C threads), B: 2, C: 1, D: 6.
TEST(SeedWarpFormation, ThreeWarpsLutAndCompactionDiffer) {
  constexpr uint32_t kBThreads = 1u << 0 | 1u << 4 | 1u << 5 | 1u << 9;
  constexpr uint64_t kThreads = 7 * 12 + 8 + 2 * 4 + 1 * 8 + 6 * 12;
  const std::string a = "A: [T0 T1 T2 T3] [T4 T5 T6 T7] [T8 T9 T10 T11]";
  const std::string d = "D: [T0 T1 T2 T3] [T4 T5 T6 T7] [T8 T9 T10 T11]";
  const FormationRun dwf = run_if_else("dwf", 12, kBThreads);
  EXPECT_EQ(dwf.steps, (std::vector<std::string>{a, "B: [T0 - - -] [T4 T5 - -] [- T9 - -]",
                                                  "C: [- T1 T2 T3] [T8 - T6 T7] [- - T10 T11]", d}));
  EXPECT_EQ(dwf.warp_instructions, 3u * 8 + 3u * 2 + 3u * 1 + 3u * 6);
  EXPECT_EQ(dwf.thread_instructions, kThreads);
  const FormationRun tbc = run_if_else("tbc", 12, kBThreads);
  EXPECT_EQ(tbc.steps, (std::vector<std::string>{a, "B: [T0 T5 - -] [T4 T9 - -]",
                                                  "C: [T8 T1 T2 T3] [- - T6 T7] [- - T10 T11]", d}));
  EXPECT_EQ(tbc.warp_instructions, 3u * 8 + 2u * 2 + 3u * 1 + 3u * 6);
  EXPECT_EQ(tbc.thread_instructions, kThreads);
}

// Timing mode forms the same warps (sim/sm_formation.cpp): the same steps, counts and results
// as functional mode, for both figures' rules and the three-warp case where they part.
TEST(SeedWarpFormation, TimingModeFormsTheSameWarps) {
  constexpr uint32_t kBThreads = 1u << 0 | 1u << 4 | 1u << 5 | 1u << 9;
  for (const char* unit : {"dwf", "tbc"}) {
    SCOPED_TRACE(unit);
    for (const auto& [threads, b_threads] : {std::pair{8u, 0u}, std::pair{12u, kBThreads}}) {
      const FormationRun functional = run_if_else(unit, threads, b_threads);
      const FormationRun timing = run_if_else(unit, threads, b_threads, true);
      EXPECT_EQ(timing.steps, functional.steps);
      EXPECT_EQ(timing.warp_instructions, functional.warp_instructions);
      EXPECT_EQ(timing.thread_instructions, functional.thread_instructions);
      EXPECT_EQ(timing.divergent_branches, functional.divergent_branches);
      EXPECT_EQ(timing.reconvergences, functional.reconvergences);
    }
  }
}

// Timing mode runs every block-level unit: sbi's and swi's second path issues through the SM's
// secondary issue path (sim/sm_co_issue.cpp; their figures: seed_sbi_test, seed_swi_test).
TEST(SeedWarpFormation, TimingModeAcceptsEveryBlockLevelUnit) {
  for (const char* unit : {"dwf", "tbc", "large-warp", "sbi", "swi"}) {
    SCOPED_TRACE(unit);
    EngineOptions options;
    options.warp_size = 32;
    options.timing = std::make_shared<const config::GpuConfig>(
        config::load_gpu_config("h100", {std::string("sm.divergence=") + unit}));
    const Engine engine(options);
    EXPECT_EQ(engine.options().divergence, unit);
  }
}

}  // namespace
}  // namespace lockstep
