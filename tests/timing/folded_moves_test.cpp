// timing.immediate_moves = fold: a mov of a constant into a register takes no fetch, I-buffer
// entry, issue slot or unit (ptxas folds the constant into its users), yet it still runs, in
// program order, with the warp's other instructions.
#include "timing/timing_harness.h"

namespace lockstep::test {
namespace {

std::string ffma_chain(int k) {
  std::string body = "  mov.f32 %f1, 0f3F800000;\n  mov.f32 %f2, 0f3F800000;\n  mov.f32 %f3, 0f3F800000;\n";
  for (int i = 0; i < k; ++i) body += "  fma.rn.f32 %f1, %f1, %f2, %f3;\n";
  return micro_kernel(body);
}

std::shared_ptr<const config::GpuConfig> teaching(const char* moves) {
  return timing_gpu("teaching", {"icache.miss_latency=1", std::string("timing.immediate_moves=") + moves});
}

uint64_t issued(const sim::KernelTiming& t) { return t.warp_stalls[static_cast<size_t>(sim::StallReason::kIssued)]; }

// DependentChain.IssueCyclesOfTheWholeKernel with the three movs (lines 10-12) folded: they ran
// when the block started, so the first FFMA issues as soon as its line is decoded (cycle 2) and
// the second 4 cycles later; the rest moves up by 6 cycles, and the kernel is 6 cycles shorter.
TEST(FoldedMoves, TheMovesIssueNothingAndTheChainMovesUp) {
  auto issue = timing_engine(teaching("issue"));
  auto fold = timing_engine(teaching("fold"));
  EXPECT_EQ(issue_trace(*fold, ffma_chain(2), 1, 8),
            "2:13 6:14 7:16 8:17 9:18 13:19 14:20 17:21 21:22 25:23 26:24 27:24 ");
  std::vector<float> a, b;
  const sim::KernelTiming issued_moves = run_timed(*issue, ffma_chain(2), 1, 8, &a);
  const sim::KernelTiming folded_moves = run_timed(*fold, ffma_chain(2), 1, 8, &b);
  EXPECT_EQ(issued_moves.cycles, 432u);
  EXPECT_EQ(folded_moves.cycles, 426u);
  EXPECT_EQ(a, b);
  EXPECT_EQ(b[0], 3.0f);
  // Executed either way (the figures count PTX instructions, as functional mode does); issued
  // only when not folded.
  EXPECT_EQ(folded_moves.warp_instructions, issued_moves.warp_instructions);
  EXPECT_EQ(issued(folded_moves), issued(issued_moves) - 3);
}

// A store's handler runs at the end of its cycle (Sm::commit) with the registers of its issue:
// the folded mov after it, which rewrites the stored register, must wait for that handler.
TEST(FoldedMoves, AStoreStoresTheValueBeforeTheFoldedMoveAfterIt) {
  const std::string ptx = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out) {
  .reg .f32 %f<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.f32 %f1, 0f3F800000;
  st.global.f32 [%rd1], %f1;
  mov.f32 %f1, 0f40000000;
  st.global.f32 [%rd1+4], %f1;
  ret;
}
)";
  for (const char* moves : {"fold", "issue"}) {
    SCOPED_TRACE(moves);
    auto engine = timing_engine(teaching(moves));
    std::vector<float> out;
    run_timed(*engine, ptx, 1, 2, &out);
    EXPECT_EQ(out, (std::vector<float>{1.0f, 2.0f}));
  }
}

// Only an unguarded mov of an immediate into a register of 16 or 32 bits folds.
TEST(FoldedMoves, WhichMovesFold) {
  const std::string ptx = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out) {
  .reg .f32 %f<4>;
  .reg .b16 %h<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  mov.u32 %r1, 7;
  mov.b16 %h1, 3;
  mov.u64 %rd2, 5;
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %r1;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 mov.f32 %f1, 0f3F800000;
  ret;
}
)";
  // Lines 10-17: the u32 and b16 constants (10, 11) fold; the 64-bit constant (12), the special
  // (13) and plain (14) registers and the guarded mov (16) issue. One warp of the teaching
  // preset (8 threads); setp waits 4 cycles for %tid.x's mov, the guarded mov 4 for setp.
  auto fold = timing_engine(teaching("fold"));
  auto issue = timing_engine(teaching("issue"));
  EXPECT_EQ(issue_trace(*issue, ptx, 1, 8), "2:10 3:11 4:12 5:13 6:14 9:15 13:16 14:17 15:17 ");
  EXPECT_EQ(issue_trace(*fold, ptx, 1, 8), "2:12 3:13 4:14 7:15 11:16 12:17 13:17 ");
}

}  // namespace
}  // namespace lockstep::test
