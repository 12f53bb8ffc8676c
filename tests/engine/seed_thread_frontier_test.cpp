// Seed 001 §3.3.4 fig 3-12: a short-circuit compound condition, `if ((a || b) && (c || d))`,
// compiled to blocks B1..B5 and EXIT in priority (PC) order:
//   B1: a?  yes -> B3, no -> B2        B3: c?  yes -> B5, no -> B4
//   B2: b?  yes -> B3, no -> EXIT      B4: d?  yes -> B5, no -> EXIT      B5: the body -> EXIT
// Seven threads of an 8-lane warp take the seven control paths (b.1):
//   T0 B1 B2 EXIT           T1 B1 B2 B3 B5          T2 B1 B2 B3 B4 B5     T3 B1 B2 B3 B4 EXIT
//   T4 B1 B3 B5             T5 B1 B3 B4 B5          T6 B1 B3 B4 EXIT
// Every branch's immediate post-dominator is EXIT, so the SIMT stack runs B2's side of B1 to the
// end before T4~T6 run B3, and B3, B4 and B5 run in pieces (b.2). Thread frontiers run the lowest
// PC first: T1~T3 leave B2 for B3, where T4~T6 wait, and the six run B3 together (b.3); B4 and
// B5 gather their threads the same way, so every block runs once.
// Each block ORs its bit into a per-thread value (B1 1, B2 2, B3 4, B4 8, B5 16) that EXIT stores:
// the same results under every unit.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/harness.h"
#include "config/gpu_config.h"

namespace lockstep {
namespace {

constexpr const char* kShortCircuit = R"(
.version 9.0
.target sm_75
.address_size 64

.visible .entry short_circuit(.param .u64 conds, .param .u64 out)
{
  .reg .pred %p<5>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [conds];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd4, %rd1, %rd3;        // &conds[4 * tid]: a, b, c, d
  mov.u32 %r2, 0;                  // the blocks this thread ran
B1:
  or.b32 %r2, %r2, 1;
  ld.global.u32 %r3, [%rd4];
  setp.ne.u32 %p1, %r3, 0;
  @%p1 bra B3;                     // a: (a || b) holds without b
B2:
  or.b32 %r2, %r2, 2;
  ld.global.u32 %r4, [%rd4+4];
  setp.eq.u32 %p2, %r4, 0;
  @%p2 bra EXIT;                   // !a && !b: the condition fails
B3:
  or.b32 %r2, %r2, 4;
  ld.global.u32 %r5, [%rd4+8];
  setp.ne.u32 %p3, %r5, 0;
  @%p3 bra B5;                     // c: (c || d) holds without d
B4:
  or.b32 %r2, %r2, 8;
  ld.global.u32 %r6, [%rd4+12];
  setp.eq.u32 %p4, %r6, 0;
  @%p4 bra EXIT;                   // !c && !d: the condition fails
B5:
  or.b32 %r2, %r2, 16;             // the body
EXIT:
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd5, %rd2, %rd5;
  st.global.u32 [%rd5], %r2;
  ret;
}
)";

constexpr uint32_t kThreads = 7;

// a, b, c, d of T0..T6: the seven paths of the header comment.
const std::vector<uint32_t> kConds = {0, 0, 0, 0,  0, 1, 1, 0,  0, 1, 0, 1,  0, 1, 0, 0,
                                      1, 0, 1, 0,  1, 0, 0, 1,  1, 0, 0, 0};
// The blocks each thread ran (B1 1, B2 2, B3 4, B4 8, B5 16).
const std::vector<uint32_t> kVisited = {1 + 2,          1 + 2 + 4 + 16, 1 + 2 + 4 + 8 + 16,
                                        1 + 2 + 4 + 8,  1 + 4 + 16,     1 + 4 + 8 + 16,
                                        1 + 4 + 8};

std::string mask_string(uint64_t mask) {
  std::string s;
  for (uint32_t l = 0; l < kThreads; ++l) s.push_back(mask >> l & 1 ? '1' : '0');
  return s;
}

struct ShortCircuitRun {
  std::vector<std::string> trace;  // block/mask, thread 0 first, each time either changes
  LaunchResult result;
};

// Runs the figure's code on one 8-lane warp with 7 threads under `divergence`; `timing`: on the
// teaching preset (8-lane warps) instead of functional mode.
ShortCircuitRun run_short_circuit(const std::string& divergence, bool timing) {
  EngineOptions options;
  options.warp_size = 8;
  options.divergence = divergence;
  if (timing)
    options.timing = std::make_shared<const config::GpuConfig>(
        config::load_gpu_config("teaching", {"sm.divergence=" + divergence}));
  Engine engine(options);
  const ModuleId m = engine.load_ptx(kShortCircuit, "short_circuit.ptx");
  const KernelInfo info = engine.kernel_info(m, "short_circuit");
  std::map<uint32_t, std::string> block_at;
  for (const auto& [label, pc] : info.labels) block_at[pc] = label;

  ShortCircuitRun run;
  std::string current;
  engine.set_trace([&](const TraceEvent& e) {
    if (auto it = block_at.find(e.pc); it != block_at.end()) current = it->second;
    if (current.empty()) return;  // the loads before B1
    const std::string step = current + "/" + mask_string(e.path_mask);
    if (run.trace.empty() || run.trace.back() != step) run.trace.push_back(step);
  });
  test::DeviceBuffer<uint32_t> conds(engine, kConds);
  test::DeviceBuffer<uint32_t> out(engine, kThreads);
  run.result = test::launch_ok(engine, m, "short_circuit", {1, 1, 1}, {kThreads, 1, 1},
                               {conds.arg(), out.arg()});
  EXPECT_EQ(out.download(), kVisited) << divergence;
  return run;
}

// The 6 instructions before B1, 4 in each of B1 to B4, 1 in B5 and 5 in EXIT (the store's three,
// ret and the function's synthetic exit): 28 warp instructions when every block runs once.
// Thread instructions are the same under every unit: each thread runs its own path once (a
// guarded branch counts the lanes that take it: 3 in B1, 1 in B2, 2 in B3, 2 in B4).
constexpr uint64_t kThreadInstructions =
    7 * 6 + (7 * 3 + 3) + (4 * 3 + 1) + (6 * 3 + 2) + (4 * 3 + 2) + 4 * 1 + 7 * 5;

// b.2: B2's side of B1 first, each split pushed down to single threads, then T4~T6's B3.
TEST(SeedThreadFrontier, SimtStackSplitsB3B4AndB5Figure3_12b2) {
  const ShortCircuitRun r = run_short_circuit("ipdom-stack", false);
  EXPECT_EQ(r.trace, (std::vector<std::string>{"B1/1111111", "B2/1111000", "B3/0111000", "B4/0011000",
                                               "B5/0010000", "B5/0100000", "B3/0000111", "B4/0000011",
                                               "B5/0000010", "B5/0000100", "EXIT/1111111"}));
  // 6 + B1 4 + B2 4 + B3 4 x 2 + B4 4 x 2 + B5 1 x 4 + EXIT 5.
  EXPECT_EQ(r.result.warp_instructions, 39u);
  EXPECT_EQ(r.result.thread_instructions, kThreadInstructions);
  // Six splits (B1; B2 of T0~T3; B3 and B4 on each side of B1), each merged again when its
  // reconvergence entry comes back on top with more lanes than the path that arrived.
  EXPECT_EQ(r.result.divergence, (func::DivergenceCounters{6, 6, 0, 0}));
}

// b.3: T1~T3 and T4~T6 run B3 together; B4 and B5 run once each, with every thread they have.
TEST(SeedThreadFrontier, ThreadFrontiersRunEveryBlockOnceFigure3_12b3) {
  for (const bool timing : {false, true}) {
    SCOPED_TRACE(timing ? "timing" : "functional");
    const ShortCircuitRun r = run_short_circuit("thread-frontier", timing);
    EXPECT_EQ(r.trace, (std::vector<std::string>{"B1/1111111", "B2/1111000", "B3/0111111", "B4/0011011",
                                                 "B5/0110110", "EXIT/1111111"}));
    EXPECT_EQ(r.result.warp_instructions, 28u);
    EXPECT_EQ(r.result.thread_instructions, kThreadInstructions);
    // Splits at B1, B2, B3 and B4. Merges: T1~T3 with T4~T6 at B3; at B4's branch T3+T6 with T0
    // at EXIT and T2+T5 with T1+T4 at B5; B5's four with the three at EXIT.
    EXPECT_EQ(r.result.divergence, (func::DivergenceCounters{4, 4, 0, 0}));
  }
}

// The frontier's point: fewer warp instructions for the same work than the stack. For
// information, branch barriers do as well here: every branch's barrier waits at EXIT, so no
// group blocks before it, and after a split the fall-through side runs with every ready thread
// at its PC (T1~T3 find T4~T6 ready at B3), then the lowest PC: the frontier's order.
TEST(SeedThreadFrontier, FrontiersBeatTheStackOnShortCircuitFlow) {
  const ShortCircuitRun stack = run_short_circuit("ipdom-stack", false);
  const ShortCircuitRun barrier = run_short_circuit("branch-barrier", false);
  const ShortCircuitRun frontier = run_short_circuit("thread-frontier", false);
  EXPECT_LT(frontier.result.warp_instructions, stack.result.warp_instructions);
  EXPECT_EQ(barrier.result.warp_instructions, 28u);
  EXPECT_EQ(barrier.trace, frontier.trace);
  EXPECT_EQ(barrier.result.thread_instructions, kThreadInstructions);
}

}  // namespace
}  // namespace lockstep
