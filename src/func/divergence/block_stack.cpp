#include "func/divergence/block_stack.h"

#include <algorithm>
#include <stdexcept>

#include "fmt/format.h"
#include "func/warp.h"

namespace lockstep::func {

void BlockStack::reset(const std::vector<LaneMask>& live, ir::Pc entry, uint32_t first) {
  first_ = first;
  stack_.clear();
  stack_.push_back({entry, ir::kNoPc, live, false, false});
  outcome_.assign(live.size(), Outcome{});
}

void BlockStack::sync(std::vector<Warp>& block_warps) const {
  const Entry& top = stack_.back();
  for (uint32_t i = 0; i < warps(); ++i) {
    Warp& w = block_warps[first_ + i];
    w.pc = top.pc;
    w.active = top.mask[i];
    w.reconverge_at = ir::kNoPc;  // resolve() pops entries, the engine never calls reconverge()
  }
}

void BlockStack::branch(uint32_t warp, LaneMask taken, ir::Pc target, ir::Pc fallthrough) {
  Outcome& o = outcome_[warp - first_];
  o.split = true;
  o.taken = taken;
  o.target = target;
  o.fallthrough = fallthrough;
}

void BlockStack::set_aside(uint32_t warp, LaneMask lanes, ir::Pc at) {
  outcome_[warp - first_].aside |= lanes;
  outcome_[warp - first_].aside_at = at;
}

void BlockStack::call(uint32_t warp, LaneMask lanes, ir::Pc entry, ir::Pc return_pc) {
  Outcome& o = outcome_[warp - first_];
  o.called = true;
  o.callers = lanes;
  o.entry = entry;
  o.return_pc = return_pc;
}

void BlockStack::return_from_call(Warp& w) {
  const uint32_t i = w.warp_id - first_;
  Outcome& o = outcome_[i];
  if (w.active != 0) {
    o.returned = true;  // the function's exit, run by the call entry's threads
    return;
  }
  // finish_exits() unwinds a call whose every lane of this warp exited: the warp's view moves
  // below that call entry, which other warps' threads may still run.
  ++o.unwound;
  w.active = stack_[level_of(i)].mask[i];
}

void BlockStack::exit_lanes(Warp& w, LaneMask lanes) {
  const uint32_t i = w.warp_id - first_;
  for (Entry& e : stack_) e.mask[i] &= ~lanes;
  // The exit handler unwinds the warp's call frames while w.active is empty, as if every lane
  // of the warp in the call had gone. Here the path that exited may leave the warp's other
  // lanes of the same call waiting on entries below (at a reconvergence point inside the
  // callee): until resolve() takes the outcome, the warp holds the lanes it still has in the
  // call, which the call entry's mask is (exits clear every entry).
  size_t level = level_of(i);
  w.active = stack_[level].mask[i];
  if (w.active != 0) return;
  while (level != 0 && !stack_[level].is_call) --level;
  w.active = stack_[level].mask[i];
}

size_t BlockStack::level_of(uint32_t w) const {
  size_t level = stack_.size() - 1;
  for (uint32_t k = outcome_[w].unwound; k != 0 && level != 0; --k) {
    while (level != 0 && !stack_[level].is_call) --level;
    if (level != 0) --level;
  }
  return level;
}

bool BlockStack::empty(const Entry& e) const {
  return std::all_of(e.mask.begin(), e.mask.end(), [](LaneMask m) { return m == 0; });
}

void BlockStack::pop(const std::vector<LaneMask>& arriving) {
  stack_.pop_back();
  Entry& below = stack_.back();
  bool more = false, any = false;
  for (size_t w = 0; w < arriving.size(); ++w) {
    any |= arriving[w] != 0;
    more |= (below.mask[w] & ~arriving[w]) != 0;
  }
  if (below.split && any && more) ++counters_.reconvergences;
  below.split = false;
}

void BlockStack::resolve(const ExecInst& in, const std::vector<Warp>& block_warps) {
  const size_t n = outcome_.size();
  bool any_call = false, any_return = false;
  for (const Outcome& o : outcome_) {
    any_call |= o.called;
    any_return |= o.returned;
  }
  if (any_return) {
    // The function's exit: the calling entry resumes at its return PC.
    if (!stack_.back().is_call) throw std::logic_error("tbc: return without a call entry on top");
    stack_.pop_back();
  } else if (any_call) {
    const size_t t = stack_.size() - 1;
    ir::Pc ret = ir::kNoPc;
    bool split = false;
    std::vector<LaneMask> aside(n, 0);
    ir::Pc aside_at = ir::kNoPc;
    for (size_t w = 0; w < n; ++w) {
      const Outcome& o = outcome_[w];
      if (o.called) ret = o.return_pc;
      split |= stack_[t].mask[w] != (o.called ? o.callers : 0);
      // An indirect call's lanes with another target run the call again (at its PC) before
      // all meet at the return PC; a guarded call's other lanes simply wait there.
      if (o.aside != 0 && o.aside_at != o.return_pc) {
        aside[w] = o.aside;
        aside_at = o.aside_at;
      }
    }
    stack_[t].pc = ret;
    if (split) {
      stack_[t].split = true;
      ++counters_.divergent_branches;
    }
    if (aside_at != ir::kNoPc) stack_.push_back({aside_at, ret, aside, false, false});
    // One call entry per callee (an indirect call may send warps to different functions).
    std::vector<ir::Pc> entries;
    for (const Outcome& o : outcome_)
      if (o.called && std::find(entries.begin(), entries.end(), o.entry) == entries.end()) entries.push_back(o.entry);
    for (const ir::Pc entry : entries) {
      std::vector<LaneMask> callers(n, 0);
      for (size_t w = 0; w < n; ++w)
        if (outcome_[w].called && outcome_[w].entry == entry) callers[w] = outcome_[w].callers;
      stack_.push_back({entry, ir::kNoPc, std::move(callers), true, false});
    }
  } else {
    // Where the top entry's threads go: one PC moves the entry on; two split it across the block.
    std::vector<std::pair<ir::Pc, std::vector<LaneMask>>> dest;
    auto add = [&](ir::Pc pc, size_t w, LaneMask lanes) {
      if (lanes == 0) return;
      auto it = std::find_if(dest.begin(), dest.end(), [&](const auto& d) { return d.first == pc; });
      if (it == dest.end()) it = dest.insert(dest.end(), {pc, std::vector<LaneMask>(n, 0)});
      it->second[w] |= lanes;
    };
    for (size_t w = 0; w < n; ++w) {
      const LaneMask lanes = stack_.back().mask[w];
      const Outcome& o = outcome_[w];
      if (o.split) {
        add(o.target, w, lanes & o.taken);
        add(o.fallthrough, w, lanes & ~o.taken);
      } else {
        add(block_warps[first_ + w].pc, w, lanes);
      }
    }
    if (dest.size() == 1) {
      stack_.back().pc = dest[0].first;
    } else if (dest.size() > 1) {
      Entry& top = stack_.back();
      top.pc = in.reconverge;
      top.split = true;
      ++counters_.divergent_branches;
      // The fall-through path is pushed last, so it runs first, as on the per-warp stack.
      std::stable_partition(dest.begin(), dest.end(), [&](const auto& d) { return d.first != in.pc + 1; });
      for (auto& [pc, masks] : dest) stack_.push_back({pc, in.reconverge, std::move(masks), false, false});
    }
  }
  // Paths at their reconvergence point merge into the entry below; emptied entries (all their
  // threads exited; a call entry's warps unwound their frames themselves) disappear.
  while (stack_.size() > 1) {
    const Entry& e = stack_.back();
    if (empty(e)) {
      pop(std::vector<LaneMask>(n, 0));
    } else if (!e.is_call && e.pc == e.reconverge) {
      const std::vector<LaneMask> arriving = e.mask;
      pop(arriving);
    } else {
      break;
    }
  }
  outcome_.assign(n, Outcome{});
}

ir::Pc BlockStack::sibling_pc() const {
  const size_t n = stack_.size();
  if (n < 3) return ir::kNoPc;
  const Entry& top = stack_[n - 1];
  const Entry& sibling = stack_[n - 2];
  const Entry& join = stack_[n - 3];
  const bool paths = !top.is_call && !sibling.is_call && top.reconverge != ir::kNoPc &&
                     sibling.reconverge == top.reconverge && join.split && join.pc == top.reconverge;
  if (!paths || sibling.pc == sibling.reconverge || empty(sibling)) return ir::kNoPc;
  return sibling.pc;
}

std::vector<std::string> BlockStack::describe() const {
  std::vector<std::string> lines;
  for (auto it = stack_.rbegin(); it != stack_.rend(); ++it) {
    std::string masks;
    for (const LaneMask m : it->mask) masks += fmt::format("{}{:#x}", masks.empty() ? "" : " ", m);
    lines.push_back(fmt::format("pc {} reconverge {} masks [{}]{}", it->pc,
                                it->reconverge == ir::kNoPc ? std::string("-") : std::to_string(it->reconverge),
                                masks, it->is_call ? " (call)" : ""));
  }
  return lines;
}

namespace {

// A home warp's view of the block stack: the control handlers' reports go to the stack, which
// resolves them for the whole block once every warp of the top entry ran the instruction.
class BlockStackView final : public DivergenceUnit {
 public:
  BlockStackView(BlockStack& stack, uint32_t warp) : stack_(stack), warp_(warp) {}

  void reset(Warp& w, LaneMask lanes, ir::Pc entry) override {
    w.pc = entry;
    w.active = lanes;
    w.reconverge_at = ir::kNoPc;
  }
  void branch(Warp& w, LaneMask taken, ir::Pc target, ir::Pc fallthrough, ir::Pc) override {
    stack_.branch(warp_, taken, target, fallthrough);
    w.pc = fallthrough;
  }
  void reconverge(Warp&) override {}
  void call(Warp& w, ir::Pc entry, ir::Pc return_pc) override {
    stack_.call(warp_, w.active, entry, return_pc);
    w.pc = entry;
  }
  void return_from_call(Warp& w) override { stack_.return_from_call(w); }
  void exit_lanes(Warp& w, LaneMask lanes) override { stack_.exit_lanes(w, lanes); }
  void set_aside(Warp& w, LaneMask lanes, ir::Pc at) override {
    stack_.set_aside(warp_, lanes, at);
    w.active &= ~lanes;
  }
  std::vector<std::string> describe() const override { return stack_.describe(); }
  size_t depth() const override { return stack_.depth(); }

 private:
  BlockStack& stack_;
  uint32_t warp_;
};

}  // namespace

std::unique_ptr<DivergenceUnit> make_block_stack_view(BlockStack& stack, uint32_t warp) {
  return std::make_unique<BlockStackView>(stack, warp);
}

}  // namespace lockstep::func
