#pragma once
// One instruction of one warp: the step both modes share. The functional runner calls it in a
// loop for a warp's time slice; the timing model calls it once when the warp issues (execute at
// issue, docs/timing-model.md). Handlers may throw FaultException; the caller locates it.
#include <bit>

#include "func/divergence/divergence_unit.h"
#include "func/exec_inst.h"
#include "func/warp.h"

namespace lockstep::func {

// The lanes that run `in`: the warp's current path masked by the instruction's guard.
inline LaneMask guarded_lanes(const ExecInst& in, const Warp& w) {
  LaneMask m = w.active;
  if (in.has_guard) {
    const LaneMask g = w.preds[in.guard];
    m &= in.guard_negated ? ~g : g;
  }
  return m;
}

// A warp-synchronizing instruction (in.warp_sync) with `w.exec` executing: true when it runs now,
// false when the warp's divergence unit parked the group to wait for membermask's threads and
// moved the warp to another path (func/ops/warp_common.cpp).
bool gather_members(const ExecInst& in, Warp& w);

// A nanosleep's duration in ns: the longest its lanes `lanes` ask for, at most the 1 ms the PTX
// ISA allows. The timing model suspends the warp for it; functional mode has no time to spend.
uint32_t nanosleep_ns(const ExecInst& in, const Warp& w, LaneMask lanes);

// Runs `in` (the instruction at w.pc) for the lanes `lanes`, moves the PC on and reconverges
// when the new PC is the top of the warp's divergence stack.
inline void execute(const ExecInst& in, Warp& w, LaneMask lanes) {
  w.exec = lanes;
  if (in.is_control) {
    in.fn(in, w);
  } else {
    if (lanes == 0) {
      ++w.pc;
    } else if (in.warp_sync == WarpSyncKind::None || gather_members(in, w)) [[likely]] {
      in.fn(in, w);
      ++w.pc;
    }
  }
  if (w.pc == w.reconverge_at) w.divergence->reconverge(w);
}

// execute() in two halves, for the timing model's instructions that change launch-wide state
// (sim::InstTiming::deferred): at issue the PC moves on as execute() would move it; at the end
// of the cycle the handler runs with the lanes of the issue. The warp issues nothing in between,
// so the handler sees the registers it would have seen at issue. Not for control instructions.
inline void advance_past(Warp& w) {
  ++w.pc;
  if (w.pc == w.reconverge_at) w.divergence->reconverge(w);
}

inline void run_deferred(const ExecInst& in, Warp& w, LaneMask lanes) {
  w.exec = lanes;
  if (lanes) in.fn(in, w);
}

}  // namespace lockstep::func
