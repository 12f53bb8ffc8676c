// Why a warp cannot issue this cycle (the issue scan's stall reasons), and the reasons a warp
// holds until an event ends them (Partition::held): the bookkeeping that lets the scan skip it.
#include <algorithm>
#include <span>

#include "sim/pending_kind.h"
#include "sim/sm.h"

namespace lockstep::sim {

StallReason Sm::dependency_reason(uint32_t slot, const InstOperands& ops) const {
  const size_t base = static_cast<size_t>(slot) * registers_per_warp_;
  uint8_t worst = kNotPending;
  auto scan = [&](std::span<const RegRange> ranges) {
    for (const RegRange& r : ranges)
      for (uint32_t i = 0; i < r.count; ++i) worst = std::max(worst, pending_kind_[base + r.first + i]);
  };
  scan(ops.srcs());
  scan(ops.dsts());
  if (worst == kTextureFetch) return StallReason::kTexture;
  if (worst == kConstantMissing) return StallReason::kConstantMiss;
  if (worst == kMemory) return StallReason::kMemoryDependency;
  return StallReason::kExecutionDependency;
}

StallReason Sm::classify(uint32_t slot, uint64_t now, uint64_t* unit_free) const {
  // An exited warp, or one at a CTA barrier, holds that reason from the issue that put it there
  // (after_issue), so the warps classified here are running: their functional state stays out
  // of the scan.
  const WarpSlot& ws = warps_[slot];
  if (ws.formed) return classify_formed(slot, now, unit_free);
  if (ibuffer_.count(slot) == 0) return fetch_->ready_at(slot) > now ? StallReason::kInstructionFetch : StallReason::kNoInstruction;
  if (ws.ready_at > now) return ws.sleeping ? StallReason::kSleeping : StallReason::kDivergence;
  const IBufferEntry& head = ibuffer_.front(slot);
  const InstTiming& t = (*ctx_.timing)[head.pc];
  if (!ws.head_clear) {
    if (t.memory_barrier && ws.memory_in_flight != 0) return StallReason::kSynchronization;
    // A wait for asynchronous copies (async_copies.h) holds the instruction until they complete.
    if (t.async != ir::AsyncOp::None && async_.holds(slot, ws.cta_slot, t, ctx_.kernel->code[head.pc], *ws.warp))
      return StallReason::kSynchronization;
    switch (scoreboard_->can_issue(slot, t.operands, head.token)) {
      case IssueCheck::kReady: break;
      case IssueCheck::kRawHazard:
      case IssueCheck::kWawHazard: return dependency_reason(slot, t.operands);
      case IssueCheck::kTableFull: return StallReason::kScoreboardFull;
    }
    ws.head_clear = t.async == ir::AsyncOp::None;
  }
  if (through_ldst(t) && !ldst_->can_accept()) return StallReason::kMemoryThrottle;
  return unit_reason(slot, t, now, unit_free);
}

StallReason Sm::unit_reason(uint32_t slot, const InstTiming& t, uint64_t now, uint64_t* unit_free) const {
  const Partition& part = partitions_[partition_of(slot)];
  const ExecutionUnit& unit = part.units[static_cast<size_t>(t.unit)];
  if (!unit.can_accept(now)) {
    if (unit_free != nullptr) *unit_free = unit.next_free_cycle();
    return StallReason::kPipelineBusy;
  }
  if (!part.collector.can_accept(now)) return StallReason::kPipelineBusy;
  return StallReason::kNotSelected;  // ready: issued, or passed over by the policy
}

void Sm::set_held(uint32_t slot, StallReason reason) {
  Partition& part = partitions_[partition_of(slot)];
  const uint32_t local = local_of(slot);
  StallReason& h = part.held[local];
  if (h == reason) return;
  if (reason == StallReason::kExited) fetch_->stop(slot);  // final: it fetches no more
  if (h == StallReason::kNotSelected) {
    part.running.reset(local);
  } else if (--part.held_counts[static_cast<size_t>(h)] == 0) {
    part.held_present &= ~reason_bit(h);
  }
  if (reason == StallReason::kNotSelected) {
    part.running.set(local);
  } else {
    ++part.held_counts[static_cast<size_t>(reason)];
    part.held_present |= reason_bit(reason);
  }
  h = reason;
}

void Sm::end_barrier_holds(uint32_t cta_slot) {
  for (uint32_t slot : ctas_[cta_slot].warp_slots) {
    if (held(slot) == StallReason::kBarrier && warps_[slot].warp->status != func::Warp::Status::AtBarrier)
      set_held(slot, StallReason::kNotSelected);
  }
}

}  // namespace lockstep::sim
