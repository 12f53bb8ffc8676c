// The SIMT stack's push and pop costs (timing.simt_push_cycles, timing.simt_pop_cycles): a
// divergent branch holds the warp's next issue for the push, a reconvergence for the pop. The
// stack (sm.divergence = ipdom-stack) is what these figures count entries of; thread-frontier's
// entries are its waiting groups.
#include "timing/timing_harness.h"

namespace lockstep::test {
namespace {

// Odd lanes take the branch: the warp diverges at the bra and reconverges at JOIN.
std::string divergent() {
  return micro_kernel(R"(  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 1;
  mov.f32 %f1, 0f3F800000;
  @%p1 bra ODD;
  add.f32 %f1, %f1, %f1;
  bra JOIN;
ODD:
  mul.f32 %f1, %f1, %f1;
JOIN:
  mov.u32 %r3, %r1;
)");
}

std::string trace_with(int push, int pop, const std::string& unit = "ipdom-stack") {
  auto engine = timing_engine(timing_gpu(
      "teaching", {"icache.miss_latency=1", "sm.divergence=" + unit,
                   fmt::format("timing.simt_push_cycles={}", push), fmt::format("timing.simt_pop_cycles={}", pop)}));
  return issue_trace(*engine, divergent(), 1, 8);
}

// "cycle:PTX line". Without costs: the branch issues at 14, the fall-through path (add, bra
// JOIN) at 15 and 16, the taken path's mul at 19 (refetched after the switch), JOIN at 20.
TEST(DivergenceCost, NoCost) {
  EXPECT_EQ(trace_with(0, 0), "2:10 6:11 10:12 11:13 14:14 15:15 16:16 19:18 20:20 21:22 22:23 23:24 27:25 28:26 "
                              "31:27 35:28 39:29 40:30 41:30 ");
}

// The divergent branch pushes two entries (the reconvergence point and the taken path): the
// add waits 2 x 5 cycles, issuing at 14 + 1 + 10 = 25; everything after moves by 10.
TEST(DivergenceCost, PushCost) {
  EXPECT_EQ(trace_with(5, 0), "2:10 6:11 10:12 11:13 14:14 25:15 26:16 29:18 30:20 31:22 32:23 33:24 37:25 38:26 "
                              "41:27 45:28 49:29 50:30 51:30 ");
}

// Each path's end pops one entry: the mul waits 7 after bra JOIN (16 + 1 + 7 = 24), the JOIN
// instruction 7 after the mul (24 + 1 + 7 = 32).
TEST(DivergenceCost, PopCost) {
  EXPECT_EQ(trace_with(0, 7), "2:10 6:11 10:12 11:13 14:14 15:15 16:16 24:18 32:20 33:22 34:23 35:24 39:25 40:26 "
                              "43:27 47:28 51:29 52:30 53:30 ");
}

// Thread frontiers hold one entry per waiting group: the branch parks the odd lanes (one push,
// depth 1 -> 2), bra JOIN parks the even ones at JOIN while the odd ones run (2 -> 2: free), and
// the odd ones reach JOIN and merge (one pop). The order is the stack's.
TEST(DivergenceCost, ThreadFrontierNoCost) {
  EXPECT_EQ(trace_with(0, 0, "thread-frontier"), trace_with(0, 0));
}

// One entry pushed: the add issues at 14 + 1 + 5 = 20; everything after moves by 5.
TEST(DivergenceCost, ThreadFrontierPushCost) {
  EXPECT_EQ(trace_with(5, 0, "thread-frontier"),
            "2:10 6:11 10:12 11:13 14:14 20:15 21:16 24:18 25:20 26:22 27:23 28:24 32:25 33:26 "
            "36:27 40:28 44:29 45:30 46:30 ");
}

// bra JOIN switches groups without a pop (the mul at 19, as without costs); the merge at JOIN
// pops one: JOIN issues at 19 + 1 + 7 = 27, everything after moves by 7.
TEST(DivergenceCost, ThreadFrontierPopCost) {
  EXPECT_EQ(trace_with(0, 7, "thread-frontier"),
            "2:10 6:11 10:12 11:13 14:14 15:15 16:16 19:18 27:20 28:22 29:23 30:24 34:25 35:26 "
            "38:27 42:28 46:29 47:30 48:30 ");
}

}  // namespace
}  // namespace lockstep::test
