// Folded moves (timing.immediate_moves = fold, InstTiming::folded): constants ptxas would fold
// into their users run with the instruction before them, and fetch steps over them.
#include <bit>

#include "func/step.h"
#include "sim/sm.h"

namespace lockstep::sim {

uint32_t Sm::next_unfolded(uint32_t pc) const {
  const std::vector<InstTiming>& timing = *ctx_.timing;
  while (pc < timing.size() && timing[pc].folded) ++pc;
  return pc;
}

void Sm::run_folded(uint32_t slot) {
  WarpSlot& ws = warps_[slot];
  func::Warp& w = *ws.warp;
  const std::vector<InstTiming>& timing = *ctx_.timing;
  while (w.status != func::Warp::Status::Exited && w.pc < timing.size() && timing[w.pc].folded) {
    const func::ExecInst& in = ctx_.kernel->code[w.pc];
    const func::LaneMask lanes = func::guarded_lanes(in, w);
    ++stats_.warp_instructions;  // executed, as functional mode counts it, though never issued
    stats_.thread_instructions += static_cast<uint64_t>(std::popcount(lanes));
    func::execute(in, w, lanes);  // a register write of a constant: nothing that can fault
  }
  if (w.status == func::Warp::Status::Exited) return;
  if (!ibuffer_.empty(slot) ? ibuffer_.head(slot).pc != w.pc : fetch_->fetch_pc(slot) != w.pc) flush(slot);
}

}  // namespace lockstep::sim
