#include "func/barrier.h"

#include "func/warp.h"

namespace lockstep::func {

namespace {

void deliver(Warp& w, const BarrierState& b) {
  if (w.pending_reduction == BarrierReduction::None) return;
  const LaneMask lanes = w.reduction_lanes;
  if (w.pending_reduction == BarrierReduction::Popc) {
    uint64_t* d = w.r(w.reduction_dst);
    for_each_lane(lanes, [&](uint32_t l) { d[l] = b.popc; });
  } else {
    const bool value = w.pending_reduction == BarrierReduction::And ? b.all : b.any;
    LaneMask& p = w.p(w.reduction_dst);
    p = value ? (p | lanes) : (p & ~lanes);
  }
  w.pending_reduction = BarrierReduction::None;
}

}  // namespace

bool CtaBarriers::arrive(std::vector<Warp>& warps, Warp& w, uint32_t id, uint32_t expected_warps,
                         bool wait, BarrierReduction red, LaneMask predicate_true) {
  BarrierState& b = barriers_[id];
  if (b.arrived == 0) b.expected = expected_warps;
  ++b.arrived;
  if (red != BarrierReduction::None) {
    b.popc += static_cast<uint32_t>(std::popcount(predicate_true & w.exec));
    b.all = b.all && (predicate_true & w.exec) == w.exec;
    b.any = b.any || (predicate_true & w.exec) != 0;
  }
  const uint32_t needed = b.expected != 0 ? b.expected : w.cta->live_warps;
  if (b.arrived >= needed) {
    deliver(w, b);
    release(warps, id);
    return true;
  }
  if (wait) {
    w.status = Warp::Status::AtBarrier;
    w.barrier_id = id;
    b.waiting.push_back(w.warp_id);
  }
  return false;
}

void CtaBarriers::on_warp_exit(std::vector<Warp>& warps, uint32_t live_warps) {
  for (uint32_t id = 0; id < barriers_.size(); ++id) {
    const BarrierState& b = barriers_[id];
    if (b.arrived != 0 && b.expected == 0 && b.arrived >= live_warps) release(warps, id);
  }
}

void CtaBarriers::release(std::vector<Warp>& warps, uint32_t id) {
  BarrierState& b = barriers_[id];
  for (uint32_t wid : b.waiting) {
    Warp& waiter = warps[wid];
    deliver(waiter, b);
    waiter.status = Warp::Status::Running;
  }
  b = BarrierState{};
}

}  // namespace lockstep::func
