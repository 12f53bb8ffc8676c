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
// warp's turn or park (memory the block shares, barriers) to the primary, whose turn they end,
// and every memory instruction (any space, fences too) and device-runtime call (vprintf, malloc,
// free): fig 3-20 (b)'s per-lane multiplexers feed the second instruction to the SIMT lanes,
// while the LD/ST unit takes one instruction's addresses per issue, so the secondary path never
// needs a second one (the timing model, sim/sm_co_issue.cpp, relies on it: a secondary's result
// always comes out of a pipeline, and nothing of it waits for the end of the cycle).
//
// swi (fig 3-21): as sbi, and when the primary's warp has no sibling path to issue, the
// secondary scheduler takes the top path of another warp of the block, at another PC, whose
// lanes are all idle in the primary's issue (threads keep their home lanes, so the two fill one
// SIMT width). That path's own stack takes its outcome, as if the warp had issued alone; the
// same rules leave control, turn-ending, parking and memory instructions to the warps' own issues.
//
// The secondary is chosen and counted with the primary (plan_formed -> plan_secondary) and runs
// before the primary's members do (run_secondary), so the timing model can issue the pair in
// one cycle with exactly functional mode's choice.
#include <bit>

#include "func/cta_runner.h"
#include "func/step.h"

namespace lockstep::func {

void CtaRunner::plan_secondary(FormedIssue& issue, BlockStack& stack, RunCounters& counters) {
  FormedIssue::Secondary& s = issue.secondary;
  s = {};
  Warp& p = warps_[stack.first_warp()];
  const ir::Pc sibling = stack.sibling_pc();
  if (sibling != ir::kNoPc && no_secondary_[sibling] == 0) {
    // The sibling path of the top's warp: its lanes are those the primary leaves idle.
    const ir::Pc primary_pc = p.pc;
    const LaneMask primary = p.active;
    p.pc = sibling;
    p.active = stack.sibling_mask(p.warp_id);
    s = {p.warp_id, sibling, p.active, guarded_lanes(kernel_.code[sibling], p), true};
    p.pc = primary_pc;
    p.active = primary;
  } else if (interweaves_warps_) {
    const uint32_t n = static_cast<uint32_t>(warps_.size());
    for (uint32_t k = 1; k < n && s.warp == FormedIssue::kNoWarp; ++k) {
      const uint32_t v = (p.warp_id + k) % n;
      const Warp& w = warps_[v];
      // Another PC: warps at the primary's PC are dwf's and tbc's to merge, not to interweave.
      if (w.status != Warp::Status::Running || warp_parked_[v] != 0 || warp_asleep_[v] != 0 || w.active == 0 ||
          w.pc == p.pc || (w.active & p.active) != 0 || no_secondary_[w.pc] != 0)
        continue;
      s = {v, w.pc, w.active, guarded_lanes(kernel_.code[w.pc], w), false};
    }
  }
  if (s.warp == FormedIssue::kNoWarp) return;
  // One warp instruction for the pair (the primary counts it); the threads of both paths.
  counters.thread_instructions += static_cast<uint64_t>(std::popcount(s.exec));
  ++counters.divergence.formed_warps;
  counters.divergence.formed_threads +=
      static_cast<uint64_t>(std::popcount(p.active) + std::popcount(s.active));
}

void CtaRunner::run_secondary(const FormedIssue& issue) {
  const FormedIssue::Secondary& s = issue.secondary;
  const ExecInst& in = kernel_.code[s.pc];
  Warp& w = warps_[s.warp];
  BlockStack& stack = *block_stacks_[s.warp];  // sbi, swi: one stack per warp
  if (!s.sibling) {
    execute(in, w, s.exec);
    stack.resolve(in, warps_);
    stack.sync(warps_);
    return;
  }
  // The warp's view of the sibling path for the one instruction; the stack keeps the primary's.
  const ir::Pc primary_pc = w.pc;
  const LaneMask primary = w.active;
  w.pc = s.pc;
  w.active = s.active;
  execute(in, w, s.exec);  // moves w.pc on; the view never reconverges (reconverge_at is kNoPc)
  stack.advance_sibling();
  w.pc = primary_pc;
  w.active = primary;
}

void CtaRunner::trace_secondary(const CtaState& cta, const FormedIssue& issue,
                                std::optional<uint64_t> clock, const TraceHook& hook) const {
  const FormedIssue::Secondary& s = issue.secondary;
  TraceRecord r = trace_record(cta, warps_[s.warp]);
  r.pc = s.pc;
  r.exec = s.exec;
  r.active = s.active;
  if (clock) r.clock = *clock;
  r.formed_warp = issue.first_number + issue.formed.size();  // the primary's issue
  hook(r);
}

}  // namespace lockstep::func
