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
#include <memory>
#include <string>
#include <vector>

#include "func/divergence/divergence_unit.h"
#include "func/exec_inst.h"

namespace lockstep::func {

class BlockStack {
 public:
  // A new block: every warp's `live` lanes at `entry`.
  void reset(const std::vector<LaneMask>& live, ir::Pc entry);
  ir::Pc pc() const { return stack_.back().pc; }
  LaneMask mask(uint32_t warp) const { return stack_.back().mask[warp]; }
  // Publishes the top entry to every warp (pc, active; the stack reconverges, not the engine).
  void sync(std::vector<Warp>& warps) const;
  // Takes the outcome of the instruction `in` (at the top entry's PC), which every warp with
  // threads in the top entry ran (the others' reports are empty); `warps`: the block's warps.
  void resolve(const ExecInst& in, const std::vector<Warp>& warps);

  // What the warps' views report while their warp runs the instruction.
  void branch(uint32_t warp, LaneMask taken, ir::Pc target, ir::Pc fallthrough);
  void set_aside(uint32_t warp, LaneMask lanes, ir::Pc at);
  void call(uint32_t warp, LaneMask lanes, ir::Pc entry, ir::Pc return_pc);
  void return_from_call(Warp& w);
  void exit_lanes(Warp& w, LaneMask lanes);

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
  // The entry warp `w` runs in now: the top, or below the call entries it unwound.
  size_t level_of(uint32_t w) const;
  bool empty(const Entry& e) const;
  void pop(const std::vector<LaneMask>& arriving);

  std::vector<Entry> stack_;
  std::vector<Outcome> outcome_;  // per home warp, for the issue in progress
  DivergenceCounters counters_;
};

// Warp `warp`'s DivergenceUnit under tbc: reports to `stack`.
std::unique_ptr<DivergenceUnit> make_block_stack_view(BlockStack& stack, uint32_t warp);

}  // namespace lockstep::func
