// Branch barriers with yield: independent thread scheduling (seed 001 §3.3.3, figs 3-9 to 3-11).
//
// Every thread has its own PC and a state: ready, blocked (arrived at a barrier's WAIT), yielded
// or exited. A divergent branch with a reconvergence PC adds a convergence barrier (ADD / BSSY)
// whose participation mask is the group that branched; a thread that reaches that PC arrives
// (WAIT / BSYNC) and blocks until every participant has arrived, exited or yielded. The warp
// runs one thread group (the ready threads at one PC) at a time:
//   - after a divergent branch the fall-through side runs first, as on the SIMT stack;
//   - whenever the running group blocks, exits or yields, the ready group with the lowest PC
//     runs next (a deterministic rule: the figure's order for structured code).
// Yield: a group that takes `yield_after` backward branches in a row while other threads of the
// warp are not exited gives way: its threads become yielded, which no longer holds up
// barriers, so a thread spinning on a lock held by a sibling lets that sibling run. Yielded
// threads are ready again when the group chosen instead blocks or exits, or when nothing else
// is ready.
// Calls: a call runs in a context of its own with the calling group; the other threads of the
// warp wait until it returns (the warp keeps one call stack). The function's exit is a strict
// barrier of the context: every thread that entered must get there (yielded ones too) before
// the group returns.
// Warp synchronization (sync_warp(), sm_70+ rules of the PTX ISA): a group at bar.warp.sync or at
// a .sync warp-level data op (shfl, vote, match, redux, elect) whose membermask names threads of
// its call level outside the group blocks there in a strict barrier (yielded members hold it up
// and are woken, a sync being a reason to run them) until every non-exited member has arrived.
// bar.warp.sync arrives by membermask alone (the instances may be different instructions, at
// different PCs) and each thread then goes on past its own instance; a data op arrives per PC
// and membermask, and on release its threads run the instruction again, now as one group, so it
// sees all their lanes. Members are explicit: a thread arrives only by executing the
// instruction, never by reaching a PC. Members outside the call level (waiting in the caller
// while a group runs a function; the warp keeps one call stack) are not waited for. When every
// thread of the warp waits and only such barriers hold arrivals, no thread can ever arrive: the
// warp faults with a deadlock rather than hang. The other barriers are released then as before.
// Statistics (DivergenceCounters): a branch or set-aside that splits the running group is a
// divergent branch; a convergence barrier that releases threads which arrived in two or more
// groups is a reconvergence (paths merged; a lone group passing, as each lock winner does, is
// not; one barrier serves every split to the same point, so a loop that sheds lanes over
// several iterations, or nested branches joining at one PC, reconverge once, where the stack
// counts once per split); a group that arrives at a barrier (warp-synchronizing ones included)
// and stays blocked there is a barrier wait; a group that gives way is a yield.
#include <algorithm>
#include <bit>
#include <stdexcept>
#include <vector>

#include "fmt/format.h"
#include "func/bound_kernel.h"
#include "func/divergence/lane_state.h"
#include "func/divergence/unit_factories.h"
#include "func/warp.h"

namespace lockstep::func {

namespace {

enum class ThreadState : uint8_t { Ready, Blocked, Yielded, Exited };

// Convergence: added at a divergent branch, released when every participant arrived, exited
// or yielded. The others are strict (yielded threads hold them up too): a function's exit, a
// CTA barrier instruction that the warp must reach with all its threads (converge()), and the
// warp-synchronizing instructions (sync_warp()): bar.warp.sync (WarpBarrier) and the .sync data
// ops (WarpCollective), which threads arrive at only by executing them.
enum class BarrierKind : uint8_t { Convergence, FunctionExit, CtaBarrier, WarpBarrier, WarpCollective };

struct Barrier {
  ir::Pc wait_pc;
  LaneMask participation;
  LaneMask arrived = 0;
  BarrierKind kind = BarrierKind::Convergence;
  // Statistics: threads that arrived in the current pass of settle(), and the groups that
  // arrived since the barrier last released.
  LaneMask fresh = 0;
  uint32_t groups = 0;
  bool strict() const { return kind != BarrierKind::Convergence; }
  bool warp_sync() const { return kind == BarrierKind::WarpBarrier || kind == BarrierKind::WarpCollective; }
};

struct Context {
  LaneMask lanes;                 // threads of this call level, not exited
  ir::Pc return_pc;
  std::vector<Barrier> barriers;  // in the order they were added; the innermost last
};

class BranchBarrier final : public DivergenceUnit {
 public:
  explicit BranchBarrier(uint32_t yield_after) : yield_after_(std::max(1u, yield_after)) {}

  void reset(Warp& w, LaneMask lanes, ir::Pc entry) override {
    width_ = w.width;
    pc_.assign(width_, entry);
    state_.assign(width_, ThreadState::Exited);
    assign_lanes(state_, lanes, ThreadState::Ready);
    contexts_.clear();
    contexts_.push_back({lanes, ir::kNoPc, {}});
    running_ = lanes;
    backward_ = 0;
    sync(w);
  }

  void branch(Warp& w, LaneMask taken, ir::Pc target, ir::Pc fallthrough, ir::Pc reconverge) override {
    const LaneMask group = running_;
    const LaneMask not_taken = group & ~taken;
    if (taken != 0 && not_taken != 0) ++counters_.divergent_branches;
    if (reconverge != ir::kNoPc) add_barrier(reconverge, group);
    set_pc(taken, target);
    set_pc(not_taken, fallthrough);
    running_ = 0;
    settle();
    // The fall-through side goes on unless it arrived at the barrier at once.
    const LaneMask still = not_taken & ready_mask();
    if (not_taken != 0 && still == not_taken) {
      running_ = ready_at(fallthrough);
      backward_ = 0;
      sync(w);
    } else {
      pick(w, true);
    }
  }

  void set_aside(Warp& w, LaneMask lanes, ir::Pc at) override {
    if (lanes != 0 && (running_ & ~lanes) != 0) ++counters_.divergent_branches;
    capture(w);
    set_pc(lanes, at);
    running_ &= ~lanes;
    sync(w);
  }

  void backward_branch(Warp& w) override {
    // Counted only while other threads wait: a group alone in the warp has no one to yield to,
    // and its state (which the deadlock detectors hash through describe()) stays the same.
    if ((context().lanes & ~running_) == 0) return;
    if (++backward_ < yield_after_) return;
    capture(w);
    assign_lanes(state_, running_, ThreadState::Yielded);
    ++counters_.yields;
    running_ = 0;
    pick(w, false);
  }

  bool converge(Warp& w, LaneMask lanes) override {
    const LaneMask members = lanes & context().lanes;
    if ((members & ~running_) == 0) return true;
    // A strict barrier at this instruction for `members`: the running group arrives and waits,
    // the others arrive when they get here (sync() points reconverge_at at it).
    capture(w);
    Barrier* b = nullptr;
    for (Barrier& x : context().barriers)
      if (x.kind == BarrierKind::CtaBarrier && x.wait_pc == w.pc && x.participation == members) b = &x;
    if (b == nullptr) {
      context().barriers.push_back({w.pc, members, 0, BarrierKind::CtaBarrier});
      b = &context().barriers.back();
    }
    b->arrived |= running_;
    ++b->groups;
    assign_lanes(state_, running_, ThreadState::Blocked);
    ++counters_.barrier_waits;  // members outside the running group are still to come
    running_ = 0;
    pick(w, true);
    return false;
  }

  bool sync_warp(Warp& w, LaneMask lanes, WarpSyncKind sync) override {
    const LaneMask members = lanes & context().lanes;
    if ((members & ~running_) == 0) return true;
    capture(w);
    const BarrierKind kind = sync == WarpSyncKind::Barrier ? BarrierKind::WarpBarrier : BarrierKind::WarpCollective;
    Barrier* b = nullptr;
    for (Barrier& x : context().barriers) {
      const bool same_place = kind == BarrierKind::WarpBarrier || x.wait_pc == w.pc;
      if (x.kind == kind && same_place && x.participation == members) b = &x;
    }
    if (b == nullptr) {
      context().barriers.push_back({w.pc, members, 0, kind});
      b = &context().barriers.back();
    }
    // bar.warp.sync's threads resume past their own instance; a collective's run it again.
    if (kind == BarrierKind::WarpBarrier) set_pc(running_, w.pc + 1);
    b->arrived |= running_;
    ++b->groups;
    assign_lanes(state_, running_, ThreadState::Blocked);
    const bool complete = (b->participation & ~b->arrived) == 0;
    if (!complete) ++counters_.barrier_waits;
    running_ = 0;
    // settle() releases a complete barrier; the lowest PC then runs, the released threads at one
    // PC as one group.
    pick(w, !complete);
    return false;
  }

  void reconverge(Warp& w) override {
    capture(w);
    running_ = 0;
    pick(w, true);
  }

  void call(Warp& w, ir::Pc entry, ir::Pc return_pc) override {
    capture(w);
    Context c{running_, return_pc, {}};
    const ir::Function& f = w.launch->kernel->program->functions[w.function];
    c.barriers.push_back({f.exit, running_, 0, BarrierKind::FunctionExit});
    contexts_.push_back(std::move(c));
    set_pc(running_, entry);
    backward_ = 0;
    sync(w);
  }

  void return_from_call(Warp& w) override {
    if (contexts_.size() < 2) throw std::logic_error("branch-barrier: return without a call context");
    const Context c = std::move(contexts_.back());
    contexts_.pop_back();
    set_pc(c.lanes, c.return_pc);
    for_each_lane(c.lanes, [&](uint32_t l) { state_[l] = ThreadState::Ready; });
    running_ = 0;
    pick(w, false);
  }

  void exit_lanes(Warp& w, LaneMask lanes) override {
    capture(w);
    for (Context& c : contexts_) {
      c.lanes &= ~lanes;
      for (Barrier& b : c.barriers) {
        b.participation &= ~lanes;
        b.arrived &= ~lanes;
      }
    }
    assign_lanes(state_, lanes, ThreadState::Exited);
    running_ &= ~lanes;
    if (context().lanes == 0) {
      // Everyone of this call level is gone: the engine unwinds the call (or the warp ends).
      running_ = 0;
      w.active = 0;
      w.reconverge_at = ir::kNoPc;
      return;
    }
    settle();
    if (running_ != 0) {
      sync(w);
    } else {
      pick(w, true);
    }
  }

  size_t depth() const override {
    size_t n = contexts_.size();
    for (const Context& c : contexts_) n += c.barriers.size();
    return n;
  }

  std::vector<std::string> describe() const override {
    std::vector<std::string> lines;
    lines.push_back("running " + bits(running_));
    // Part of the state: a spin that is about to yield is not the same as one that just began.
    if (backward_ != 0) lines.push_back(fmt::format("backward branches {} of {}", backward_, yield_after_));
    const Context& c = contexts_.back();
    for (const Barrier& b : c.barriers) {
      lines.push_back(fmt::format("barrier at pc {}{} participation {} arrived {}", b.wait_pc, kind_label(b.kind),
                                  bits(b.participation), bits(b.arrived)));
    }
    std::string threads = "threads";
    for (uint32_t l = 0; l < width_; ++l) {
      static constexpr const char* kNames[] = {"ready", "blocked", "yielded", "exited"};
      // The running group's PC is the warp's (pc_ is only brought up to date at each switch).
      if ((running_ >> l & 1) != 0) {
        threads += " running";
      } else {
        threads += fmt::format(" {}@{}", kNames[static_cast<int>(state_[l])], pc_[l]);
      }
    }
    lines.push_back(threads);
    if (contexts_.size() > 1) lines.push_back(fmt::format("in a call, {} levels deep", contexts_.size() - 1));
    return lines;
  }

 private:
  Context& context() { return contexts_.back(); }

  static const char* kind_label(BarrierKind kind) {
    switch (kind) {
      case BarrierKind::Convergence: return "";
      case BarrierKind::FunctionExit: return " (function exit)";
      case BarrierKind::CtaBarrier: return " (CTA barrier)";
      case BarrierKind::WarpBarrier: return " (bar.warp.sync)";
      case BarrierKind::WarpCollective: return " (warp collective)";
    }
    return "";
  }

  std::string bits(LaneMask m) const { return lane_bits(m, width_); }

  void set_pc(LaneMask lanes, ir::Pc pc) { assign_lanes(pc_, lanes, pc); }

  // The running group's PC lives in warp.pc while it runs.
  void capture(const Warp& w) { set_pc(running_, w.pc); }

  LaneMask mask_of(ThreadState s) const { return lanes_where(state_, context().lanes, s); }
  const Context& context() const { return contexts_.back(); }
  LaneMask ready_mask() const { return mask_of(ThreadState::Ready); }

  LaneMask ready_at(ir::Pc pc) const {
    LaneMask m = 0;
    for_each_lane(ready_mask(), [&](uint32_t l) {
      if (pc_[l] == pc) m |= LaneMask{1} << l;
    });
    return m;
  }

  // ADD: a loop's branch runs again and again for the same reconvergence point; the barrier
  // added the first time (which the group still participates in) serves every iteration, as
  // the BSSY before the loop does in the seed's code 3-2. A barrier for the same point that no
  // thread has arrived at yet (left behind by threads a yield or a CTA barrier took past it)
  // takes the group in, so barriers never pile up in a loop.
  void add_barrier(ir::Pc wait_pc, LaneMask group) {
    for (Barrier& b : context().barriers) {
      if (b.strict() || b.wait_pc != wait_pc) continue;
      if ((b.participation & group) == group) return;
      if (b.arrived == 0) {
        b.participation |= group;
        return;
      }
    }
    context().barriers.push_back({wait_pc, group, 0, BarrierKind::Convergence});
  }

  // Ready threads at the WAIT of their innermost barrier arrive there; barriers whose every
  // participant arrived (or yielded, unless strict) release; repeated until nothing changes,
  // since released threads may arrive at an outer barrier with the same PC.
  void settle() {
    Context& c = context();
    for (bool changed = true; changed;) {
      changed = false;
      for_each_lane(c.lanes & ~running_, [&](uint32_t l) {
        if (state_[l] != ThreadState::Ready) return;
        for (auto b = c.barriers.rbegin(); b != c.barriers.rend(); ++b) {
          // Warp-synchronizing barriers are arrived at by executing their instruction only.
          if (b->warp_sync() || (b->participation >> l & 1) == 0) continue;
          if (b->wait_pc == pc_[l]) {
            b->arrived |= LaneMask{1} << l;
            b->fresh |= LaneMask{1} << l;
            state_[l] = ThreadState::Blocked;
          }
          break;  // only the innermost barrier the thread participates in
        }
      });
      const LaneMask yielded = mask_of(ThreadState::Yielded);
      for (size_t i = c.barriers.size(); i-- > 0;) {
        Barrier& b = c.barriers[i];
        const LaneMask holders = b.participation & ~b.arrived & (b.strict() ? ~LaneMask{0} : ~yielded);
        // The threads that arrived in this pass form one group (they are at one PC).
        const bool arrivals = b.fresh != 0;
        if (arrivals) ++b.groups;
        b.fresh = 0;
        if (holders != 0 || b.arrived == 0) {
          if (arrivals) ++counters_.barrier_waits;
          continue;
        }
        if (b.kind == BarrierKind::Convergence && b.groups >= 2) ++counters_.reconvergences;
        release(b);
        changed = true;
      }
      std::erase_if(c.barriers, [](const Barrier& b) { return b.participation == 0; });
    }
  }

  void release(Barrier& b) {
    for_each_lane(b.arrived, [&](uint32_t l) { state_[l] = ThreadState::Ready; });
    b.participation &= ~b.arrived;
    b.arrived = 0;
    b.groups = 0;
  }

  // Chooses the next group: the ready threads at the lowest PC. `wake`: the group that ran
  // blocked or exited, so threads that yielded to it are ready again.
  void pick(Warp& w, bool wake) {
    settle();
    if (wake) wake_yielded();
    LaneMask ready = ready_mask();
    if (ready == 0) {
      wake_yielded();
      settle();
      ready = ready_mask();
    }
    if (ready == 0 && mask_of(ThreadState::Blocked) != 0) {
      // Barriers wait on each other (unstructured flow): release the innermost rather than
      // hang; the code still runs correctly, only less converged. Not a warp-synchronizing
      // one: its threads rely on the exchange or the ordering it promises.
      for (auto b = context().barriers.rbegin(); b != context().barriers.rend(); ++b) {
        if (b->arrived != 0 && !b->warp_sync()) {
          release(*b);
          break;
        }
      }
      ready = ready_mask();
    }
    if (ready == 0 && context().lanes != 0) report_stuck_sync(w);
    running_ = 0;
    if (ready != 0) {
      ir::Pc lowest = ir::kNoPc;
      for_each_lane(ready, [&](uint32_t l) { lowest = std::min(lowest, pc_[l]); });
      running_ = ready_at(lowest);
    }
    backward_ = 0;
    sync(w);
  }

  // Every live thread of the call level waits and only warp-synchronizing barriers hold
  // arrivals: the members they wait for are all blocked in another of them.
  [[noreturn]] void report_stuck_sync(Warp& w) const {
    std::string waits;
    for (const Barrier& b : context().barriers) {
      if (!b.warp_sync() || b.arrived == 0) continue;
      waits += fmt::format("{}{} at pc {} waits for threads {}, arrived {}", waits.empty() ? "" : "; ",
                           b.kind == BarrierKind::WarpBarrier ? "bar.warp.sync" : "warp collective", b.wait_pc,
                           bits(b.participation), bits(b.arrived & b.participation));
    }
    w.fault(FaultKind::Deadlock, static_cast<uint32_t>(std::countr_zero(context().lanes)), 0, 0, "",
            "every thread of the warp waits at a warp-synchronizing instruction whose other members can "
            "never arrive: " + waits);
  }

  void wake_yielded() {
    for_each_lane(context().lanes, [&](uint32_t l) {
      if (state_[l] == ThreadState::Yielded) state_[l] = ThreadState::Ready;
    });
  }

  // Publishes the running group: its PC and lanes, and the PC of its innermost barrier's WAIT
  // (where the engine calls reconverge()).
  void sync(Warp& w) {
    w.active = running_;
    w.reconverge_at = ir::kNoPc;
    if (running_ == 0) return;
    w.pc = pc_[static_cast<uint32_t>(std::countr_zero(running_))];
    const std::vector<Barrier>& bs = context().barriers;
    for (auto b = bs.rbegin(); b != bs.rend(); ++b) {
      if (!b->warp_sync() && (b->participation & running_) != 0) {
        w.reconverge_at = b->wait_pc;
        break;
      }
    }
  }

  uint32_t yield_after_;
  uint32_t width_ = 0;
  std::vector<ir::Pc> pc_;           // per thread; the running group's is warp.pc
  std::vector<ThreadState> state_;   // per thread; the running group's threads are Ready
  std::vector<Context> contexts_;    // call levels, the current one last
  LaneMask running_ = 0;
  uint32_t backward_ = 0;            // backward branches of the running group in a row
};

}  // namespace

std::unique_ptr<DivergenceUnit> make_branch_barrier(uint32_t yield_after) {
  return std::make_unique<BranchBarrier>(yield_after);
}

// DivergenceOptions::yield_after; dwf (dwf.cpp) runs branch barriers too and declares the same key.
extern constinit const policy::Param kYieldAfterParams[1]{
    {"sm.yield_after", 64, 1, 1 << 20,
     "branch-barrier: backward branches a thread group takes in a row before it yields to the warp's other "
     "threads (ipdom-stack ignores it)"},
};

namespace {
std::unique_ptr<DivergenceUnit> make_entry(const DivergenceOptions& o) { return make_branch_barrier(o.yield_after); }
}  // namespace

extern constinit const DivergenceUnitInfo kBranchBarrierDivergence{
    "branch-barrier", "branch barriers with yield: a PC per thread (independent thread scheduling, cc 7.0+)",
    kYieldAfterParams, make_entry};

}  // namespace lockstep::func
