// What the divergence units count (func/divergence/divergence_counters.h), on a 4-lane warp
// driven as the control handlers and the step loop drive it (func/ops/control_ops.cpp branch_h,
// func/step.h). Each case runs the same control flow under ipdom-stack and branch-barrier; both
// run the paths in the same order (fall-through first, then the lowest PC), which the cases
// check as they go.
#include <gtest/gtest.h>

#include <memory>
#include <ostream>
#include <string>

#include "func/divergence/divergence_unit.h"
#include "func/warp.h"

namespace lockstep::func {

// Readable failure messages.
void PrintTo(const DivergenceCounters& c, std::ostream* os) {
  *os << "{divergent_branches " << c.divergent_branches << ", reconvergences " << c.reconvergences
      << ", barrier_waits " << c.barrier_waits << ", yields " << c.yields << "}";
}

namespace {

class Driver {
 public:
  explicit Driver(const std::string& unit) : unit_(make_divergence_unit({unit, 64})) {
    w_.width = 4;
    w_.live = 0xf;
    w_.divergence = unit_.get();
    unit_->reset(w_, 0xf, 0);
  }

  // The running group, at a conditional branch, splits: `taken` lanes go to `target`, the others
  // to `fallthrough`, meeting at `reconverge`.
  void split(LaneMask taken, ir::Pc target, ir::Pc fallthrough, ir::Pc reconverge) {
    unit_->branch(w_, taken, target, fallthrough, reconverge);
    hook();
  }
  // The running group moves on to `pc` (straight-line code or a uniform branch).
  void go(ir::Pc pc) {
    w_.pc = pc;
    hook();
  }
  void exit() { unit_->exit_lanes(w_, w_.active); }
  // A CTA barrier instruction at the running group's PC, for every lane.
  bool bar() {
    const bool run = unit_->converge(w_, 0xf);
    if (!run) hook();
    return run;
  }

  LaneMask active() const { return w_.active; }
  ir::Pc pc() const { return w_.pc; }
  DivergenceCounters counts() { return unit_->take_counters(); }

 private:
  void hook() {
    if (w_.active != 0 && w_.pc == w_.reconverge_at) unit_->reconverge(w_);
  }

  Warp w_;
  std::unique_ptr<DivergenceUnit> unit_;
};

class Counters : public ::testing::TestWithParam<std::string> {
 protected:
  bool barriers() const { return GetParam() == "branch-barrier"; }
};

// if/else: lanes 1 and 3 take the branch to 10, lanes 0 and 2 fall through to 1; both meet at
// 20. One split, one merge; under branch-barrier the fall-through path waits at 20 once.
TEST_P(Counters, IfElse) {
  Driver d(GetParam());
  d.split(0b1010, 10, 1, 20);
  EXPECT_EQ(d.active(), 0b0101u);
  d.go(20);
  EXPECT_EQ(d.active(), 0b1010u);
  EXPECT_EQ(d.pc(), 10u);
  d.go(20);
  EXPECT_EQ(d.active(), 0b1111u);
  EXPECT_EQ(d.counts(), (DivergenceCounters{1, 1, barriers() ? 1u : 0u, 0}));
  // Taken: counted once.
  EXPECT_EQ(d.counts(), DivergenceCounters{});
}

// The fall-through path exits; the taken one reaches the join alone: nothing merges.
TEST_P(Counters, PartnerExitedMergesNothing) {
  Driver d(GetParam());
  d.split(0b1100, 10, 1, 20);
  EXPECT_EQ(d.active(), 0b0011u);
  d.exit();
  EXPECT_EQ(d.active(), 0b1100u);
  d.go(20);
  EXPECT_EQ(d.active(), 0b1100u);
  EXPECT_EQ(d.pc(), 20u);
  EXPECT_EQ(d.counts(), (DivergenceCounters{1, 0, 0, 0}));
}

// Nested splits with one join (seed 001 fig 3-5's shape): lane 3 takes the outer branch to 30;
// of lanes 0..2, lanes 1 and 2 take the inner one to 20; all meet at 40. Lane 0 arrives first,
// then lanes 1 and 2, then lane 3. The stack merges the inner paths (lanes 0..2), then the outer
// ones: 2. Branch barriers for the same point serve both splits (the inner split's group
// already participates in the outer one's), so lane 0 and then lanes 1 and 2 wait there and it
// releases once, when lane 3 comes.
TEST_P(Counters, NestedSplitsJoiningAtOnePc) {
  Driver d(GetParam());
  d.split(0b1000, 30, 1, 40);
  EXPECT_EQ(d.active(), 0b0111u);
  d.split(0b0110, 20, 2, 40);
  EXPECT_EQ(d.active(), 0b0001u);
  d.go(40);
  EXPECT_EQ(d.active(), 0b0110u);
  d.go(40);
  EXPECT_EQ(d.active(), 0b1000u);
  d.go(40);
  EXPECT_EQ(d.active(), 0b1111u);
  EXPECT_EQ(d.counts(), (DivergenceCounters{2, barriers() ? 1u : 2u, barriers() ? 2u : 0u, 0}));
}

// A loop (body 0..5, `@p bra 0` at 5, reconvergence at 6) that sheds lane 0 in the first
// iteration, lane 1 in the second, and lanes 2 and 3 together in the third. The stack turns the
// looping path into a reconvergence entry at each split and merges each on the way out (2); the
// branch-barrier unit keeps one barrier for the loop, which lanes 0 and 1 wait at and which
// releases once, when lanes 2 and 3 come.
TEST_P(Counters, LoopSheddingLanes) {
  Driver d(GetParam());
  d.go(5);
  d.split(0b1110, 0, 6, 6);
  EXPECT_EQ(d.active(), 0b1110u);
  EXPECT_EQ(d.pc(), 0u);
  d.go(5);
  d.split(0b1100, 0, 6, 6);
  EXPECT_EQ(d.active(), 0b1100u);
  d.go(5);
  d.go(6);  // no lane loops again: the branch is not taken
  EXPECT_EQ(d.active(), 0b1111u);
  EXPECT_EQ(d.pc(), 6u);
  EXPECT_EQ(d.counts(), (DivergenceCounters{2, barriers() ? 1u : 2u, barriers() ? 2u : 0u, 0}));
}

INSTANTIATE_TEST_SUITE_P(Units, Counters, ::testing::Values("ipdom-stack", "branch-barrier"),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           return p.param == "ipdom-stack" ? std::string("ipdom_stack")
                                                           : std::string("branch_barrier");
                         });

// branch-barrier: lanes split with no reconvergence point (kNoPc) and lanes 0 and 1 reach a CTA
// barrier instruction at 10 without the others. They wait there (a barrier wait) while lanes 2
// and 3 come; the warp then runs the barrier whole. A CTA barrier is no reconvergence.
TEST(CountersBranchBarrier, CtaBarrierReachedSplitIsAWait) {
  Driver d("branch-barrier");
  d.split(0b1100, 10, 1, ir::kNoPc);
  EXPECT_EQ(d.active(), 0b0011u);
  d.go(10);
  EXPECT_FALSE(d.bar());
  EXPECT_EQ(d.active(), 0b1111u);
  EXPECT_EQ(d.pc(), 10u);
  EXPECT_TRUE(d.bar());
  EXPECT_EQ(d.counts(), (DivergenceCounters{1, 0, 1, 0}));
}

}  // namespace
}  // namespace lockstep::func
