// Seed 001 figs 3-9 to 3-11: the branch-barrier unit's state (participation mask, arrival bits,
// per-thread state) while a 4-lane warp runs the intra-warp lock of code 3-2. The test drives
// the unit as the control handlers and the step loop do (func/ops/control_ops.cpp branch_h,
// func/step.h), with the lock's code at these PCs:
//   0 LOOP: mov; 1 mov; 2 atom.cas; 3 setp; 4 @p bra LOOP   (block B; reconvergence at C)
//   5 C: ld; 6 add; 7 st; 8 membar; 9 atom.exch; 10 exit
// Masks in describe() are written thread 0 first, as the seed's figures write them.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "func/divergence/divergence_unit.h"
#include "func/warp.h"

namespace lockstep::func {
namespace {

constexpr ir::Pc kLoop = 0, kBranch = 4, kC = 5, kExit = 10;

class LockWarp {
 public:
  explicit LockWarp(uint32_t yield_after) : unit_(make_divergence_unit({"branch-barrier", yield_after})) {
    w_.width = 4;
    w_.live = 0xf;
    w_.divergence = unit_.get();
    unit_->reset(w_, 0xf, kLoop);
  }

  // The running group runs B once; `winner` (at most one of its lanes) gets the lock.
  void run_loop(LaneMask winner) {
    EXPECT_EQ(w_.pc, kLoop);
    w_.pc = kBranch;
    const LaneMask spinning = w_.active & ~winner;  // the branch is taken by those who lost
    if (spinning == w_.active) {
      w_.pc = kLoop;
      unit_->backward_branch(w_);
    } else if (spinning == 0) {
      w_.pc = kC;
    } else {
      unit_->branch(w_, spinning, kLoop, kC, kC);
    }
    hook();
  }

  // The running group runs C to the end and exits.
  void run_critical_section_and_exit() {
    EXPECT_EQ(w_.pc, kC);
    w_.pc = kExit;
    hook();
    unit_->exit_lanes(w_, w_.active);
    hook();
  }

  // The running group moves to `pc` (straight-line code in between).
  void set_pc(ir::Pc pc) {
    w_.pc = pc;
    hook();
  }
  bool converge(LaneMask lanes) { return unit_->converge(w_, lanes); }
  bool sync_warp(LaneMask members, WarpSyncKind kind) { return unit_->sync_warp(w_, members, kind); }

  std::vector<std::string> state() const { return unit_->describe(); }
  const Warp& warp() const { return w_; }

 private:
  void hook() {
    if (w_.active != 0 && w_.pc == w_.reconverge_at) unit_->reconverge(w_);
  }

  Warp w_;
  std::unique_ptr<DivergenceUnit> unit_;
};

using Lines = std::vector<std::string>;

TEST(BranchBarrier, IntraWarpLockFollowsFigure3_11) {
  LockWarp lock(2);  // yield after two backward branches in a row
  // (a) all four threads ready, entering the loop; no barrier is pending yet (the ADD of the
  // seed comes with the loop's first divergent branch here).
  EXPECT_EQ(lock.state(), (Lines{"running 1111", "threads running running running running"}));

  // (b) thread 0 got the lock and blocks at the WAIT of C; the others loop on.
  lock.run_loop(0b0001);
  EXPECT_EQ(lock.state(), (Lines{"running 0111", "barrier at pc 5 participation 1111 arrived 1000",
                                 "threads blocked@5 running running running"}));
  EXPECT_EQ(lock.warp().pc, kLoop);
  lock.run_loop(0);  // one backward branch: not yet
  EXPECT_EQ(lock.state()[0], "running 0111");

  // (c) the second backward branch: threads 1-3 yield, so thread 0 passes the barrier alone.
  lock.run_loop(0);
  EXPECT_EQ(lock.state(), (Lines{"running 1000", "barrier at pc 5 participation 0111 arrived 0000",
                                 "threads running yielded@0 yielded@0 yielded@0"}));
  EXPECT_EQ(lock.warp().pc, kC);

  // Thread 0 releases the lock and exits: the yielded threads are ready again.
  lock.run_critical_section_and_exit();
  EXPECT_EQ(lock.state(), (Lines{"running 0111", "barrier at pc 5 participation 0111 arrived 0000",
                                 "threads exited@10 running running running"}));

  // (d) thread 1 gets the lock and arrives at the barrier; threads 2 and 3 loop and yield.
  lock.run_loop(0b0010);
  EXPECT_EQ(lock.state(), (Lines{"running 0011", "barrier at pc 5 participation 0111 arrived 0100",
                                 "threads exited@10 blocked@5 running running"}));
  lock.run_loop(0);
  lock.run_loop(0);
  EXPECT_EQ(lock.state(), (Lines{"running 0100", "barrier at pc 5 participation 0011 arrived 0000",
                                 "threads exited@10 running yielded@0 yielded@0"}));
  lock.run_critical_section_and_exit();

  // The same for thread 2; thread 3 then finds the lock free and passes the barrier alone.
  lock.run_loop(0b0100);
  EXPECT_EQ(lock.state(), (Lines{"running 0001", "barrier at pc 5 participation 0011 arrived 0010",
                                 "threads exited@10 exited@10 blocked@5 running"}));
  lock.run_loop(0);
  lock.run_loop(0);
  EXPECT_EQ(lock.state()[0], "running 0010");
  lock.run_critical_section_and_exit();
  lock.run_loop(0b1000);
  EXPECT_EQ(lock.state(), (Lines{"running 0001", "threads exited@10 exited@10 exited@10 running"}));
  EXPECT_EQ(lock.warp().pc, kC);
  lock.run_critical_section_and_exit();
  EXPECT_EQ(lock.warp().active, 0u);
}

// A CTA barrier counts warps, so a warp arrives once with every live thread: a group that gets
// there while a yield keeps the others in the loop waits for them at the barrier instruction.
TEST(BranchBarrier, CtaBarrierGathersTheWarp) {
  LockWarp lock(2);
  lock.run_loop(0b0001);
  lock.run_loop(0);
  lock.run_loop(0);  // threads 1-3 yield; thread 0 passes the lock barrier
  EXPECT_EQ(lock.state()[0], "running 1000");
  lock.set_pc(7);  // thread 0 reaches a bar.sync at PC 7
  EXPECT_FALSE(lock.converge(0xf));
  EXPECT_EQ(lock.state(), (Lines{"running 0111", "barrier at pc 5 participation 0111 arrived 0000",
                                 "barrier at pc 7 (CTA barrier) participation 1111 arrived 1000",
                                 "threads blocked@7 running running running"}));
  EXPECT_EQ(lock.warp().pc, kLoop);
  lock.set_pc(7);  // threads 1-3 get there too (past C, whose barrier they leave behind)
  EXPECT_EQ(lock.state(), (Lines{"running 1111", "barrier at pc 5 participation 0111 arrived 0000",
                                 "threads running running running running"}));
  EXPECT_TRUE(lock.converge(0xf));
}

// bar.warp.sync (__syncwarp) while a yield keeps the others in the loop: thread 0 waits past its
// instance (PC 8) and the yielded threads are woken to come; they arrive at another instance
// (PC 9, another instruction) with the same membermask, which completes the barrier, and every
// thread goes on past its own: thread 0 (the lowest PC) first.
TEST(BranchBarrier, WarpBarrierWaitsForYieldedMembersAtAnyPc) {
  LockWarp lock(2);
  lock.run_loop(0b0001);
  lock.run_loop(0);
  lock.run_loop(0);  // threads 1-3 yield; thread 0 passes the lock barrier
  lock.set_pc(7);
  EXPECT_TRUE(lock.sync_warp(0b0001, WarpSyncKind::Barrier));  // a membermask of itself alone
  EXPECT_FALSE(lock.sync_warp(0xf, WarpSyncKind::Barrier));
  EXPECT_EQ(lock.state(), (Lines{"running 0111", "barrier at pc 5 participation 0111 arrived 0000",
                                 "barrier at pc 7 (bar.warp.sync) participation 1111 arrived 1000",
                                 "threads blocked@8 running running running"}));
  EXPECT_EQ(lock.warp().pc, kLoop);
  lock.set_pc(9);
  EXPECT_FALSE(lock.sync_warp(0xf, WarpSyncKind::Barrier));
  EXPECT_EQ(lock.state(), (Lines{"running 1000", "barrier at pc 5 participation 0111 arrived 0000",
                                 "threads running ready@10 ready@10 ready@10"}));
  EXPECT_EQ(lock.warp().pc, 8u);
}

// A collective (shfl.sync) runs again once its members are there, as one group. Two collectives
// at different PCs that each wait for the other's threads can never complete: a deadlock fault.
TEST(BranchBarrier, CollectivesGatherAtOnePcOrFaultAsADeadlock) {
  LockWarp lock(2);
  lock.run_loop(0b0001);
  lock.run_loop(0);
  lock.run_loop(0);
  lock.set_pc(7);
  EXPECT_FALSE(lock.sync_warp(0xf, WarpSyncKind::Collective));
  EXPECT_EQ(lock.state()[2], "barrier at pc 7 (warp collective) participation 1111 arrived 1000");
  lock.set_pc(7);
  EXPECT_FALSE(lock.sync_warp(0xf, WarpSyncKind::Collective));  // completes it: all four run it again
  EXPECT_EQ(lock.state(), (Lines{"running 1111", "barrier at pc 5 participation 0111 arrived 0000",
                                 "threads running running running running"}));
  EXPECT_EQ(lock.warp().pc, 7u);
  EXPECT_TRUE(lock.sync_warp(0xf, WarpSyncKind::Collective));

  LockWarp crossed(2);
  crossed.run_loop(0b0001);
  crossed.run_loop(0);
  crossed.run_loop(0);
  crossed.set_pc(7);
  EXPECT_FALSE(crossed.sync_warp(0xf, WarpSyncKind::Collective));
  crossed.set_pc(9);
  try {
    crossed.sync_warp(0xf, WarpSyncKind::Collective);
    FAIL() << "no fault";
  } catch (const FaultException& f) {
    EXPECT_EQ(f.fault.kind, FaultKind::Deadlock);
    EXPECT_EQ(f.fault.lane, 0u);
    EXPECT_EQ(f.fault.detail,
              "every thread of the warp waits at a warp-synchronizing instruction whose other members can never "
              "arrive: warp collective at pc 7 waits for threads 1111, arrived 1000; warp collective at pc 9 "
              "waits for threads 1111, arrived 0111");
  }
}

TEST(BranchBarrier, NoYieldWhileAloneInTheWarp) {
  LockWarp lock(1);
  for (int i = 0; i < 5; ++i) lock.run_loop(0);
  EXPECT_EQ(lock.state(), (Lines{"running 1111", "threads running running running running"}));
}

TEST(BranchBarrier, UnknownNameListsTheKnownUnits) {
  try {
    make_divergence_unit({"simt-magic", 8});
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "unknown divergence unit 'simt-magic'; known: ipdom-stack, branch-barrier, "
              "thread-frontier, dwf, tbc, large-warp, sbi, swi");
  }
}

}  // namespace
}  // namespace lockstep::func
