// The secondary issues of sbi and swi (seed 001 §3.3.4 part 2, figs 3-19 to 3-21).
//
// sbi (figs 3-19, 3-20): under sm.divergence = sbi
// every warp has its own stack (tbc's block stack over one warp, so the primary path is the
// SIMT stack's top), and a secondary scheduler issues the other path of the top's divergent
// branch in the same cycle, on the lanes the primary leaves idle (the two paths' lanes are
// disjoint, so their registers never meet). Fig 3-19 (d)'s restriction: the secondary never
// issues a branch point (no control instruction at all: those change the stack, which only the
// primary's outcome may do) nor the reconvergence point (BlockStack::sibling_pc() stops there),
// so the threads still meet at PCrec as under the stack. It also leaves instructions that end a
// warp's turn or park (memory the block shares, barriers) to the primary, whose turn they end.
//
// swi (fig 3-21): as sbi, and when the primary's warp has no sibling path to issue, the
// secondary scheduler takes the top path of another warp of the block, at another PC, whose
// lanes are all idle in the primary's issue (threads keep their home lanes, so the two fill one
// SIMT width). That path's own stack takes its outcome, as if the warp had issued alone; the
// same rules leave control, turn-ending and parking instructions to the warps' own issues.
#include <bit>

#include "func/cta_runner.h"
#include "func/step.h"

namespace lockstep::func {

void CtaRunner::co_issue_sibling(CtaState& cta, BlockStack& stack, ir::Pc pc,
                                 RunCounters& counters) {
  const ExecInst& in = kernel_.code[pc];
  Warp& w = warps_[stack.first_warp()];
  const ir::Pc primary_pc = w.pc;
  const LaneMask primary = w.active;
  w.pc = pc;
  w.active = stack.sibling_mask(w.warp_id);
  const LaneMask lanes = secondary_lanes(cta, in, w, primary, counters);
  execute(in, w, lanes);  // moves w.pc on; the view never reconverges (reconverge_at is kNoPc)
  stack.advance_sibling();
  w.pc = primary_pc;
  w.active = primary;
}

LaneMask CtaRunner::secondary_lanes(const CtaState& cta, const ExecInst& in, const Warp& w,
                                    LaneMask primary, RunCounters& counters) {
  const LaneMask lanes = guarded_lanes(in, w);
  // One warp instruction for the pair (the primary counted it); the threads of both paths.
  counters.thread_instructions += static_cast<uint64_t>(std::popcount(lanes));
  ++counters.divergence.formed_warps;
  counters.divergence.formed_threads +=
      static_cast<uint64_t>(std::popcount(primary) + std::popcount(w.active));
  if (options_.global_writes != nullptr && lanes != 0)
    counters.global_writes += (*options_.global_writes)[in.pc];
  if (trace_ != nullptr) {
    TraceRecord r = trace_record(cta, w);
    r.exec = lanes;
    r.formed_warp = formed_count_;  // the primary's issue
    (*trace_)(r);
  }
  return lanes;
}

bool CtaRunner::co_issue_other_warp(CtaState& cta, const BlockStack& primary, uint32_t& warp,
                                    ir::Pc& pc, RunCounters& counters) {
  const uint32_t n = static_cast<uint32_t>(warps_.size());
  const Warp& p = warps_[primary.first_warp()];
  for (uint32_t k = 1; k < n; ++k) {
    const uint32_t v = (p.warp_id + k) % n;
    Warp& w = warps_[v];
    BlockStack& stack = *block_stacks_[v];
    // Another PC: warps at the primary's PC are dwf's and tbc's to merge, not to interweave.
    if (w.status != Warp::Status::Running || warp_parked_[v] != 0 || w.active == 0 ||
        w.pc == p.pc || (w.active & p.active) != 0)
      continue;
    const ExecInst& in = kernel_.code[w.pc];
    if (in.is_control || turn_flags_[w.pc] != 0) continue;
    warp = v;
    pc = w.pc;
    const LaneMask lanes = secondary_lanes(cta, in, w, p.active, counters);
    execute(in, w, lanes);
    stack.resolve(in, warps_);
    stack.sync(warps_);
    ++w.clock;
    return true;
  }
  return false;
}

}  // namespace lockstep::func
