#pragma once
// What a warp's divergence unit did, counted by the unit itself (func/divergence/) and summed
// per launch (RunCounters in functional mode, sim::KernelTiming in timing mode). Plain integers,
// so sums are exact and the same in any order: a launch's figures do not depend on how many
// host threads ran it. A unit that has no such concept (the SIMT stack has no yields or
// barriers) leaves the count at 0.
#include <cstdint>

namespace lockstep::func {

struct DivergenceCounters {
  // Branches (and guarded or indirect calls) whose lanes split into two non-empty paths.
  uint64_t divergent_branches = 0;
  // Split paths merged again at their reconvergence point: the stack resumes a split's
  // reconvergence entry with more lanes than the path that arrived; branch barriers release a
  // convergence barrier that threads reached in two or more groups.
  uint64_t reconvergences = 0;
  // branch-barrier: a thread group arrived at a barrier (convergence, CTA barrier instruction,
  // bar.warp.sync or a .sync warp op whose membermask names threads not there yet) and waited
  // there for other threads of its warp.
  uint64_t barrier_waits = 0;
  // branch-barrier: a thread group gave way after sm.yield_after backward branches in a row.
  uint64_t yields = 0;
  // Block-level units (dwf, tbc, large-warp): warp instructions issued by a formed warp that
  // holds threads of more than one home warp, and the threads (active lanes) those carried. A
  // formed warp with one home warp's threads only (a warp issued whole, or the remainder of a
  // column collision) counts in neither. sbi, swi: issues that paired two paths (two PCs) as one
  // warp instruction, and both paths' threads.
  uint64_t formed_warps = 0;
  uint64_t formed_threads = 0;

  DivergenceCounters& operator+=(const DivergenceCounters& o) {
    divergent_branches += o.divergent_branches;
    reconvergences += o.reconvergences;
    barrier_waits += o.barrier_waits;
    yields += o.yields;
    formed_warps += o.formed_warps;
    formed_threads += o.formed_threads;
    return *this;
  }
  friend bool operator==(const DivergenceCounters&, const DivergenceCounters&) = default;
};

}  // namespace lockstep::func
