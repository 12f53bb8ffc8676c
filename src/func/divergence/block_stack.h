#pragma once
// tbc's block-wide stack (seed 001 fig 3-16): entries of (NPC, RPC, block mask), the block mask
// held as one lane mask per home warp. The block issues the top entry's PC with every warp that
// has threads in it, compacted into formed warps (CtaRunner::formed_turn); the top issues only
// when all those warps can (the figure's WCnt: at a divergent branch every warp of the entry
// has executed the branch before either path runs). After the issue the stack takes the
// outcome of all warps together: one destination moves the entry on; two (a divergent branch,
// divergent across the block, not per warp) turn the entry into the reconvergence entry and
// push the taken then the fall-through block mask, which runs first; an entry pops when its PC
// reaches its RPC (the IPDOM, as under ipdom-stack). Calls push a call entry with the calling
// threads (one per callee), the function's exit pops it.
//
// Each home warp's DivergenceUnit is a view of this stack (make_block_stack_view): the control
// handlers report what the warp's lanes did, and the stack resolves them in resolve().
//
// A stack may serve a group of consecutive warps of the block rather than all of them: under
// large-warp (seed 001 fig 3-17) each large warp of sm.large_warp_size warps has one. Its
// functions take block warp indices; the group is warps [first, first + live.size()).
#include <memory>
#include <string>
#include <vector>

#include "func/divergence/divergence_unit.h"
#include "func/exec_inst.h"

namespace lockstep::func {

class BlockStack {
 public:
  // A new block: every warp's `live` lanes at `entry`; the group starts at block warp `first`.
  void reset(const std::vector<LaneMask>& live, ir::Pc entry, uint32_t first = 0);
  ir::Pc pc() const { return stack_.back().pc; }
  uint32_t first_warp() const { return first_; }
  uint32_t warps() const { return static_cast<uint32_t>(outcome_.size()); }
  LaneMask mask(uint32_t warp) const { return stack_.back().mask[warp - first_]; }
  // Publishes the top entry to the group's warps (pc, active; the stack reconverges, not the
  // engine).
  void sync(std::vector<Warp>& block_warps) const;
  // Takes the outcome of the instruction `in` (at the top entry's PC), which every warp with
  // threads in the top entry ran (the others' reports are empty).
  void resolve(const ExecInst& in, const std::vector<Warp>& block_warps);

  // What the warps' views report while their warp runs the instruction.
  void branch(uint32_t warp, LaneMask taken, ir::Pc target, ir::Pc fallthrough);
  void set_aside(uint32_t warp, LaneMask lanes, ir::Pc at);
  void call(uint32_t warp, LaneMask lanes, ir::Pc entry, ir::Pc return_pc);
  void return_from_call(Warp& w);
  void exit_lanes(Warp& w, LaneMask lanes);

  // sbi (seed 001 fig 3-19 d): the path beside the top entry, which a secondary scheduler may
  // issue in the same cycle as the top: the other path of the divergent branch that pushed the
  // top (the entry below it, with the same reconvergence point, the split's reconvergence entry
  // below both), while it has not reached that point (PCrec: it waits there). kNoPc: none.
  ir::Pc sibling_pc() const;
  LaneMask sibling_mask(uint32_t warp) const { return stack_[stack_.size() - 2].mask[warp - first_]; }
  // The sibling issued an instruction that is not a control one: its PC moves on.
  void advance_sibling() { ++stack_[stack_.size() - 2].pc; }

  size_t depth() const { return stack_.size(); }
  std::vector<std::string> describe() const;
  DivergenceCounters take_counters() {
    const DivergenceCounters c = counters_;
    counters_ = {};
    return c;
  }

 private:
  struct Entry {
    ir::Pc pc;
    ir::Pc reconverge;
    std::vector<LaneMask> mask;  // per home warp
    bool is_call = false;
    bool split = false;  // a divergent branch made this the reconvergence entry of its paths
  };
  // What one warp's lanes did in the current issue.
  struct Outcome {
    bool split = false;
    LaneMask taken = 0;
    ir::Pc target = ir::kNoPc, fallthrough = ir::kNoPc;
    LaneMask aside = 0;
    ir::Pc aside_at = ir::kNoPc;
    bool called = false;
    LaneMask callers = 0;
    ir::Pc entry = ir::kNoPc, return_pc = ir::kNoPc;
    bool returned = false;
    uint32_t unwound = 0;  // call levels the warp left because all its lanes there exited
  };
  // The entry group warp `w` (index in the group) runs in now: the top, or below the call
  // entries it unwound.
  size_t level_of(uint32_t w) const;
  bool empty(const Entry& e) const;
  void pop(const std::vector<LaneMask>& arriving);

  std::vector<Entry> stack_;
  uint32_t first_ = 0;            // the group's first warp in the block
  std::vector<Outcome> outcome_;  // per home warp of the group, for the issue in progress
  DivergenceCounters counters_;
};

// Warp `warp`'s DivergenceUnit under tbc: reports to `stack`.
std::unique_ptr<DivergenceUnit> make_block_stack_view(BlockStack& stack, uint32_t warp);

}  // namespace lockstep::func
