// The IPDOM SIMT stack (seed 001 §3.3.2): entries of (next PC, reconvergence PC, active mask).
// A divergent branch turns the current entry into the reconvergence entry and pushes the
// taken path, then the fall-through path on top, so the fall-through path runs first; an
// entry is popped when its PC reaches its reconvergence PC. Calls push a boundary entry so
// that a recursive activation can never match its caller's reconvergence PCs.
// Statistics: a divergent branch marks the entry it turns into the reconvergence entry; when a
// path arrives at the reconvergence point and that entry runs again with lanes besides the
// arriving path's, the split paths merged: a reconvergence. (A path whose partner exited merges
// with nothing.) The stack has no barriers and never yields, so those counts stay 0.
// Warp synchronization (bar.warp.sync, the .sync warp ops): the pre-Volta rule, membermask's
// threads execute it converged (otherwise undefined), so sync_warp() keeps the default: the
// lanes on the path run it at once; waiting for lanes on another path would deadlock, since
// they only resume at the reconvergence point.
#include <memory>
#include <stdexcept>

#include "fmt/format.h"
#include "func/divergence/divergence_unit.h"
#include "func/divergence/unit_factories.h"
#include "func/warp.h"

namespace lockstep::func {

namespace {

class IpdomStack final : public DivergenceUnit {
 public:
  void reset(Warp& w, LaneMask lanes, ir::Pc entry) override {
    stack_.clear();
    stack_.push_back({entry, ir::kNoPc, lanes, false, false});
    sync(w);
  }

  void branch(Warp& w, LaneMask taken, ir::Pc target, ir::Pc fallthrough,
              ir::Pc reconverge) override {
    Entry& top = stack_.back();
    const LaneMask not_taken = top.mask & ~taken;
    if (taken == 0 || not_taken == 0) {
      top.pc = taken ? target : fallthrough;
      sync(w);
      return;
    }
    top.pc = reconverge;
    top.split = true;
    ++counters_.divergent_branches;
    stack_.push_back({target, reconverge, taken, false, false});
    stack_.push_back({fallthrough, reconverge, not_taken, false, false});
    sync(w);
  }

  void reconverge(Warp& w) override {
    stack_.back().pc = w.pc;  // the warp's PC is authoritative for the running path
    while (stack_.size() > 1 && stack_.back().pc == stack_.back().reconverge &&
           !stack_.back().is_call) {
      pop(stack_.back().mask);
    }
    drop_empty();
    sync(w);
  }

  void call(Warp& w, ir::Pc entry, ir::Pc return_pc) override {
    stack_.back().pc = return_pc;
    stack_.push_back({entry, ir::kNoPc, stack_.back().mask, true, false});
    sync(w);
  }

  void return_from_call(Warp& w) override {
    if (stack_.empty() || !stack_.back().is_call)
      throw std::logic_error("ipdom-stack: return without a call entry on top");
    pop(0);
    drop_empty();
    sync(w);
  }

  void exit_lanes(Warp& w, LaneMask lanes) override {
    stack_.back().pc = w.pc;
    for (Entry& e : stack_) e.mask &= ~lanes;
    drop_empty();
    sync(w);
  }

  size_t depth() const override { return stack_.size(); }

  std::vector<std::string> describe() const override {
    std::vector<std::string> lines;
    for (auto it = stack_.rbegin(); it != stack_.rend(); ++it) {
      lines.push_back(fmt::format("pc {} reconverge {} mask {:#x}{}", it->pc,
                                  it->reconverge == ir::kNoPc ? std::string("-")
                                                              : std::to_string(it->reconverge),
                                  it->mask, it->is_call ? " (call)" : ""));
    }
    return lines;
  }

 private:
  struct Entry {
    ir::Pc pc;
    ir::Pc reconverge;
    LaneMask mask;
    bool is_call;
    bool split;  // a divergent branch made this the reconvergence entry of its two paths
  };

  // Pops the top entry, whose path arrived at its reconvergence point with `arriving` lanes (0:
  // it is dropped for another reason). A split's reconvergence entry that comes back on top with
  // other lanes as well is a reconvergence; the mark goes either way, since the entry runs now.
  void pop(LaneMask arriving) {
    stack_.pop_back();
    Entry& top = stack_.back();
    if (top.split && arriving != 0 && (top.mask & ~arriving) != 0) ++counters_.reconvergences;
    top.split = false;
  }

  // Paths whose lanes all exited disappear; a call entry emptied this way is left for the
  // engine to unwind (its frame must be popped too), so only plain entries are dropped here.
  void drop_empty() {
    while (stack_.size() > 1 && stack_.back().mask == 0 && !stack_.back().is_call) pop(0);
  }

  void sync(Warp& w) const {
    const Entry& top = stack_.back();
    w.pc = top.pc;
    w.active = top.mask;
    w.reconverge_at = top.is_call ? ir::kNoPc : top.reconverge;
  }

  std::vector<Entry> stack_;
};

}  // namespace

std::unique_ptr<DivergenceUnit> make_ipdom_stack() { return std::make_unique<IpdomStack>(); }

namespace {
std::unique_ptr<DivergenceUnit> make_entry(const DivergenceOptions&) { return make_ipdom_stack(); }
}  // namespace

extern constinit const DivergenceUnitInfo kIpdomStackDivergence{
    "ipdom-stack", "the SIMT stack: divergent paths run in turn and reconverge at the immediate post-dominator",
    {}, make_entry};

}  // namespace lockstep::func
