// The thread-frontier unit driven directly, as the control handlers and the step loop drive it
// (func/ops/control_ops.cpp branch_h, func/step.h), on a 4-lane warp: the lowest PC runs, a
// uniform jump over a waiting group hands the warp to it, waiting threads merge when the running
// group reaches their PC, and CTA barriers gather the warp (or, when nothing else can run, let
// the lowest blocked group through). Masks in describe() are written thread 0 first.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "func/divergence/divergence_unit.h"
#include "func/warp.h"

namespace lockstep::func {
namespace {

using Lines = std::vector<std::string>;

class FrontierWarp {
 public:
  FrontierWarp() : unit_(make_divergence_unit({"thread-frontier", 64})) {
    w_.width = 4;
    w_.live = 0xf;
    w_.divergence = unit_.get();
    unit_->reset(w_, 0xf, 0);
  }

  // The running group steps through straight-line code to `pc`, one instruction at a time.
  void step_to(ir::Pc pc) {
    while (w_.pc < pc) {
      ++w_.pc;
      hook();
    }
  }
  // The running group branches at its PC to `target`: `taken` lanes go, the others fall through.
  void branch(LaneMask taken, ir::Pc target) {
    const ir::Pc at = w_.pc;
    if (taken == w_.active) {
      w_.pc = target;
      if (target <= at) {
        unit_->backward_branch(w_);
      } else {
        unit_->forward_branch(w_);
      }
    } else if (taken == 0) {
      w_.pc = at + 1;
    } else {
      unit_->branch(w_, taken, target, at + 1, ir::kNoPc);
    }
    hook();
  }
  // The running group is at a CTA barrier instruction; true: it runs (and the PC moves on).
  bool barrier() {
    if (!unit_->converge(w_, w_.live)) {
      hook();
      return false;
    }
    ++w_.pc;
    hook();
    return true;
  }
  void exit() {
    const LaneMask lanes = w_.active;
    w_.live &= ~lanes;
    unit_->exit_lanes(w_, lanes);
  }

  const Warp& warp() const { return w_; }
  Lines state() const { return unit_->describe(); }
  size_t depth() const { return unit_->depth(); }
  DivergenceCounters counters() { return unit_->take_counters(); }

 private:
  void hook() {
    if (w_.active != 0 && w_.pc == w_.reconverge_at) unit_->reconverge(w_);
  }

  Warp w_;
  std::unique_ptr<DivergenceUnit> unit_;
};

// if/else laid out as 0: @p bra ELSE(5); 1..3 THEN; 4: bra JOIN(7); 5..6 ELSE; 7 JOIN.
TEST(ThreadFrontier, UniformJumpOverAWaitingGroupRunsItFirst) {
  FrontierWarp f;
  f.branch(0b1010, 5);
  EXPECT_EQ(f.warp().pc, 1u);  // the fall-through side is lower
  EXPECT_EQ(f.warp().active, 0b0101u);
  EXPECT_EQ(f.warp().reconverge_at, 5u);
  EXPECT_EQ(f.state(), (Lines{"running 1010", "waiting at pc 5 0101"}));
  EXPECT_EQ(f.depth(), 2u);
  f.step_to(4);
  f.branch(0b0101, 7);  // THEN jumps over ELSE: ELSE runs first
  EXPECT_EQ(f.warp().pc, 5u);
  EXPECT_EQ(f.warp().active, 0b1010u);
  EXPECT_EQ(f.warp().reconverge_at, 7u);
  EXPECT_EQ(f.state(), (Lines{"running 0101", "waiting at pc 7 1010"}));
  f.step_to(7);  // ELSE falls into JOIN, where THEN waits
  EXPECT_EQ(f.warp().active, 0xfu);
  EXPECT_EQ(f.warp().reconverge_at, ir::kNoPc);
  EXPECT_EQ(f.state(), (Lines{"running 1111"}));
  EXPECT_EQ(f.depth(), 1u);
  EXPECT_EQ(f.counters(), (DivergenceCounters{1, 1, 0, 0}));
}

// A jump back keeps the group first; the nearest waiting PC ahead is where it merges.
TEST(ThreadFrontier, LoopLanesLeavingEarlyWaitAtTheExit) {
  FrontierWarp f;
  f.step_to(3);
  f.branch(0b0011, 1);  // lanes 0-1 loop again, 2-3 leave for 4
  EXPECT_EQ(f.warp().pc, 1u);
  EXPECT_EQ(f.warp().reconverge_at, 4u);
  f.step_to(3);
  f.branch(0b0011, 1);  // uniform for the group: back again
  EXPECT_EQ(f.warp().pc, 1u);
  EXPECT_EQ(f.warp().active, 0b0011u);
  f.step_to(3);
  f.branch(0, 1);  // nobody loops: 4, where 2-3 wait
  EXPECT_EQ(f.warp().pc, 4u);
  EXPECT_EQ(f.warp().active, 0xfu);
  EXPECT_EQ(f.counters(), (DivergenceCounters{1, 1, 0, 0}));
}

// 0: @p bra 10; 1..2; 3: bar.sync ... lanes 2-3 at 10 come back to 2 and meet 0-1 at the barrier.
TEST(ThreadFrontier, CtaBarrierGathersTheWarp) {
  FrontierWarp f;
  f.branch(0b1100, 10);
  f.step_to(3);
  EXPECT_FALSE(f.barrier());  // 0-1 block; 2-3 run
  EXPECT_EQ(f.warp().pc, 10u);
  EXPECT_EQ(f.warp().active, 0b1100u);
  EXPECT_EQ(f.warp().reconverge_at, ir::kNoPc);  // the barrier is behind them
  EXPECT_EQ(f.state(), (Lines{"running 0011", "blocked at CTA barrier, pc 3 1100"}));
  f.branch(0b1100, 2);
  EXPECT_EQ(f.warp().reconverge_at, 3u);
  f.step_to(3);
  EXPECT_EQ(f.warp().active, 0xfu);
  EXPECT_TRUE(f.barrier());
  EXPECT_EQ(f.warp().pc, 4u);
  EXPECT_EQ(f.counters(), (DivergenceCounters{1, 1, 1, 0}));
}

// Lanes 0-1 wait at the barrier at 3, lanes 2-3 reach another one at 12: nothing else can run,
// so 0-1 pass theirs alone, then meet 2-3 at 12 and the warp passes that one whole.
TEST(ThreadFrontier, BlockedAtDifferentBarriersTheLowestPassesAlone) {
  FrontierWarp f;
  f.branch(0b1100, 10);
  f.step_to(3);
  EXPECT_FALSE(f.barrier());
  f.step_to(12);
  EXPECT_FALSE(f.barrier());
  EXPECT_EQ(f.warp().pc, 3u);
  EXPECT_EQ(f.warp().active, 0b0011u);
  EXPECT_EQ(f.state(), (Lines{"running 1100", "passing its CTA barrier alone 1100",
                              "blocked at CTA barrier, pc 12 0011"}));
  EXPECT_TRUE(f.barrier());
  EXPECT_EQ(f.warp().reconverge_at, 12u);
  f.step_to(12);
  EXPECT_EQ(f.warp().active, 0xfu);
  EXPECT_TRUE(f.barrier());
  EXPECT_EQ(f.counters(), (DivergenceCounters{1, 1, 2, 0}));
}

// Exits hand the warp to the next group; the last one leaves the warp with no lanes.
TEST(ThreadFrontier, ExitsRunTheNextGroup) {
  FrontierWarp f;
  f.branch(0b0110, 6);
  f.step_to(2);
  f.exit();  // lanes 0 and 3 exit at 2
  EXPECT_EQ(f.warp().pc, 6u);
  EXPECT_EQ(f.warp().active, 0b0110u);
  EXPECT_EQ(f.state(), (Lines{"running 0110"}));
  f.exit();
  EXPECT_EQ(f.warp().active, 0u);
  EXPECT_EQ(f.counters(), (DivergenceCounters{1, 0, 0, 0}));
}

}  // namespace
}  // namespace lockstep::func
