// Thread frontiers (seed 001 §3.3.4 "1. 分支重聚点的选择", fig 3-12): reconvergence in PC order.
//
// Every thread has its own PC. The warp runs one group at a time: the ready threads at the
// lowest PC ("PC值越小的指令,执行的优先级越高": the block priority is the layout order). Threads a
// branch sends elsewhere wait in the frontier at their target PC; whenever the running group's
// PC equals a waiting PC the two merge. With the lowest PC always running, a waiting thread is
// never passed by the group it waits for, so split paths meet at the first block they share,
// which for unstructured flow (short-circuit conditions, gotos) is earlier than the immediate
// post-dominator the SIMT stack waits for: in fig 3-12, T1~T3 (from B2) and T4~T6 (from B1)
// run B3 together.
// The rule is enforced where the running group's PC changes by more than one: a divergent
// branch, a uniform forward jump (forward_branch: the jump may skip a waiting group, which then
// runs first), a reconvergence (the engine calls reconverge() when the PC reaches
// Warp::reconverge_at, which points at the nearest waiting PC ahead), a return and an exit.
// Calls: a call runs in a context of its own with the calling group and takes priority over
// every thread outside it, whatever the callee's PCs: the warp keeps one call stack (registers
// and frames of one activation), so the others wait at their PCs in the caller until it
// returns; inside, PC order applies among the callers. The function's exit waits for every
// thread of the context, so the group returns together.
// CTA barriers (converge()): a group at a barrier instruction that lacks threads of the warp
// blocks there; the others run (in PC order) and merge with it when they arrive. When nothing
// else can run (threads blocked at different barriers, or a function exit waiting for them), the
// lowest blocked group passes its barrier without the rest rather than hang.
// Warp synchronization (bar.warp.sync, the .sync warp ops): sync_warp() keeps the default, the
// running group runs it at once. The lowest-PC rule already brings members that are behind to
// the instruction first (they merge there); members ahead could only come back through a loop,
// and waiting for them would starve the group as a lock does.
// Forward progress: like the SIMT stack, the lowest-PC rule can starve a thread that holds a lock
// its siblings spin on at a lower PC (seed code 3-2); the engine's deadlock detection reports it.
// Statistics (DivergenceCounters): a branch or set-aside that splits the running group is a
// divergent branch; two groups becoming one (a group arriving where others wait, the running
// group reaching a waiting PC, callers returning to lanes set aside at the return PC) is a
// reconvergence; a group that blocks at a CTA barrier for threads of its warp is a barrier wait.
// Nothing yields.
#include <algorithm>
#include <bit>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "fmt/format.h"
#include "func/bound_kernel.h"
#include "func/divergence/lane_state.h"
#include "func/divergence/unit_factories.h"
#include "func/warp.h"

namespace lockstep::func {

namespace {

enum class ThreadState : uint8_t { Ready, Blocked, Exited };

struct Context {
  LaneMask lanes;    // threads of this call level, not exited
  ir::Pc return_pc;  // kNoPc: the kernel's own level
  ir::Pc exit;       // the called function's exit, where the level waits for all its threads
};

class ThreadFrontier final : public DivergenceUnit {
 public:
  void reset(Warp& w, LaneMask lanes, ir::Pc entry) override {
    width_ = w.width;
    pc_.assign(width_, entry);
    state_.assign(width_, ThreadState::Exited);
    assign_lanes(state_, lanes, ThreadState::Ready);
    contexts_.clear();
    contexts_.push_back({lanes, ir::kNoPc, ir::kNoPc});
    running_ = lanes;
    pass_ = 0;
    sync(w);
  }

  void branch(Warp& w, LaneMask taken, ir::Pc target, ir::Pc fallthrough, ir::Pc) override {
    const LaneMask not_taken = running_ & ~taken;
    if (taken != 0 && not_taken != 0) ++counters_.divergent_branches;
    running_ = 0;
    park(taken, target);
    park(not_taken, fallthrough);
    schedule(w);
  }

  void forward_branch(Warp& w) override {
    // Nothing waits in this context: the group is alone and stays on.
    if ((context().lanes & ~running_) == 0) return;
    requeue(w);
  }

  void backward_branch(Warp& w) override {
    // A lower PC keeps the group first; only the nearest waiting PC ahead changes.
    capture(w);
    sync(w);
  }

  void reconverge(Warp& w) override { requeue(w); }

  void set_aside(Warp& w, LaneMask lanes, ir::Pc at) override {
    if (lanes != 0 && (running_ & ~lanes) != 0) ++counters_.divergent_branches;
    capture(w);
    running_ &= ~lanes;
    park(lanes, at);
    sync(w);
  }

  bool converge(Warp& w, LaneMask lanes) override {
    const LaneMask members = lanes & context().lanes;
    const bool let_through = pass_ != 0 && (running_ & ~pass_) == 0;
    pass_ = 0;
    if ((members & ~running_) == 0 || let_through) return true;
    capture(w);
    assign_lanes(state_, running_, ThreadState::Blocked);
    ++counters_.barrier_waits;
    running_ = 0;
    schedule(w);
    return false;
  }

  void call(Warp& w, ir::Pc entry, ir::Pc return_pc) override {
    capture(w);
    const ir::Function& f = w.launch->kernel->program->functions[w.function];
    contexts_.push_back({running_, return_pc, f.exit});
    set_pc(running_, entry);
    sync(w);
  }

  void return_from_call(Warp& w) override {
    if (contexts_.size() < 2) throw std::logic_error("thread-frontier: return without a call context");
    const Context c = contexts_.back();
    contexts_.pop_back();
    for_each_lane(c.lanes, [&](uint32_t l) { state_[l] = ThreadState::Ready; });
    running_ = 0;
    park(c.lanes, c.return_pc);
    schedule(w);
  }

  void exit_lanes(Warp& w, LaneMask lanes) override {
    capture(w);
    for (Context& c : contexts_) c.lanes &= ~lanes;
    assign_lanes(state_, lanes, ThreadState::Exited);
    running_ &= ~lanes;
    if (context().lanes == 0) {
      // Everyone of this call level is gone: the engine unwinds the call (or the warp ends).
      running_ = 0;
      w.active = 0;
      w.reconverge_at = ir::kNoPc;
      return;
    }
    if (running_ != 0) {
      sync(w);  // the rest of the group goes on: it is still the lowest
    } else {
      schedule(w);
    }
  }

  size_t depth() const override { return contexts_.size() + waiting_groups().size(); }

  std::vector<std::string> describe() const override {
    std::vector<std::string> lines;
    lines.push_back("running " + bits(running_));
    if (pass_ != 0) lines.push_back("passing its CTA barrier alone " + bits(pass_));
    for (const Group& g : waiting_groups()) {
      const std::string level =
          g.level + 1 == contexts_.size() ? "" : fmt::format("caller level {}: ", g.level);
      const char* what = g.state == ThreadState::Blocked ? "blocked at CTA barrier, pc" : "waiting at pc";
      lines.push_back(fmt::format("{}{} {} {}", level, what, g.pc, bits(g.lanes)));
    }
    if (contexts_.size() > 1) lines.push_back(fmt::format("in a call, {} levels deep", contexts_.size() - 1));
    return lines;
  }

 private:
  // Threads waiting together: one call level, one state, one PC.
  struct Group {
    size_t level;
    ThreadState state;
    ir::Pc pc;
    LaneMask lanes;
  };

  Context& context() { return contexts_.back(); }
  const Context& context() const { return contexts_.back(); }

  std::string bits(LaneMask m) const { return lane_bits(m, width_); }

  void set_pc(LaneMask lanes, ir::Pc pc) { assign_lanes(pc_, lanes, pc); }

  // The running group's PC lives in warp.pc while it runs.
  void capture(const Warp& w) { set_pc(running_, w.pc); }

  LaneMask in_state(ThreadState s) const { return lanes_where(state_, context().lanes, s); }

  LaneMask at(LaneMask lanes, ir::Pc pc) const { return lanes_where(pc_, lanes, pc); }

  ir::Pc lowest(LaneMask lanes) const {
    ir::Pc p = ir::kNoPc;
    for_each_lane(lanes, [&](uint32_t l) { p = std::min(p, pc_[l]); });
    return p;
  }

  // `lanes` (out of the running group) wait in the frontier at `pc`; joining threads that
  // already wait there makes them one group: a reconvergence.
  void park(LaneMask lanes, ir::Pc pc) {
    if (lanes == 0) return;
    if (at(context().lanes & ~running_ & ~lanes, pc) != 0) ++counters_.reconvergences;
    set_pc(lanes, pc);
  }

  // The running group rejoins the frontier at its PC and the lowest group runs (itself, merged
  // with whoever waits there, unless a group waits lower).
  void requeue(Warp& w) {
    capture(w);
    const LaneMask group = running_;
    running_ = 0;
    park(group, w.pc);
    schedule(w);
  }

  // Chooses the running group: the ready threads at the lowest PC, with the threads blocked at
  // a CTA barrier there (the group is about to run that barrier instruction).
  void schedule(Warp& w) {
    pass_ = 0;
    const Context& c = context();
    LaneMask ready = in_state(ThreadState::Ready);
    LaneMask blocked = in_state(ThreadState::Blocked);
    // A function's exit waits for every thread of its level: the call returns with them all.
    if (c.exit != ir::kNoPc && blocked != 0) ready &= ~at(ready, c.exit);
    if (ready == 0 && blocked != 0) {
      // Nothing can come to the barriers the blocked threads wait at: the lowest of them passes
      // its barrier without the others rather than hang (as the SIMT stack would run it).
      ready = at(blocked, lowest(blocked));
      blocked &= ~ready;
      pass_ = ready;
    }
    running_ = 0;
    if (ready != 0) {
      const ir::Pc pc = lowest(ready);
      running_ = at(ready, pc) | at(blocked, pc);
      assign_lanes(state_, running_, ThreadState::Ready);
    }
    sync(w);
  }

  // Publishes the running group: its PC and lanes, and where it meets the frontier next (the
  // nearest PC ahead with threads waiting, or its function's exit while threads are blocked).
  void sync(Warp& w) {
    w.active = running_;
    w.reconverge_at = ir::kNoPc;
    if (running_ == 0) return;
    w.pc = pc_[static_cast<uint32_t>(std::countr_zero(running_))];
    ir::Pc next = ir::kNoPc;
    for_each_lane(context().lanes & ~running_, [&](uint32_t l) {
      if (pc_[l] >= w.pc) next = std::min(next, pc_[l]);
    });
    const Context& c = context();
    if (c.exit != ir::kNoPc && c.exit >= w.pc && in_state(ThreadState::Blocked) != 0)
      next = std::min(next, c.exit);
    w.reconverge_at = next;
  }

  // The threads not running and not exited, grouped by (call level, state, PC), in that order.
  std::vector<Group> waiting_groups() const {
    std::vector<Group> groups;
    for (size_t level = 0; level < contexts_.size(); ++level) {
      const LaneMask inner = level + 1 < contexts_.size() ? contexts_[level + 1].lanes : 0;
      for_each_lane(contexts_[level].lanes & ~inner & ~running_, [&](uint32_t l) {
        for (Group& g : groups) {
          if (g.level == level && g.state == state_[l] && g.pc == pc_[l]) {
            g.lanes |= LaneMask{1} << l;
            return;
          }
        }
        groups.push_back({level, state_[l], pc_[l], LaneMask{1} << l});
      });
    }
    std::sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) {
      return std::tie(a.level, a.state, a.pc) < std::tie(b.level, b.state, b.pc);
    });
    return groups;
  }

  uint32_t width_ = 0;
  std::vector<ir::Pc> pc_;          // per thread; the running group's is warp.pc
  std::vector<ThreadState> state_;  // per thread; the running group's threads are Ready
  std::vector<Context> contexts_;   // call levels, the current one last
  LaneMask running_ = 0;
  // Threads let through their CTA barrier without the rest of the warp (see schedule()).
  LaneMask pass_ = 0;
};

}  // namespace

std::unique_ptr<DivergenceUnit> make_thread_frontier() { return std::make_unique<ThreadFrontier>(); }

namespace {
std::unique_ptr<DivergenceUnit> make_entry(const DivergenceOptions&) { return make_thread_frontier(); }
}  // namespace

extern constinit const DivergenceUnitInfo kThreadFrontierDivergence{
    "thread-frontier", "thread frontiers: a PC per thread, the lowest PC first, paths merge at the first PC they share",
    {}, make_entry};

}  // namespace lockstep::func
