// What the launch reads of an SM between cycles: when it can next change (idle skipping), its
// functional state for the deadlock watchdog and reports, and its figures.
#include <algorithm>

#include "sim/memory_figures.h"
#include "sim/sm.h"

namespace lockstep::sim {

uint64_t Sm::next_change(uint64_t now) const {
  // The memory phase and block placement come after the cycle: the LD/ST unit, the writeback
  // unit (responses) and placed blocks are read now, the rest was found as the cycle ended.
  uint64_t next = own_next_change_of_ == now ? own_next_change_ : own_next_change(now);
  next = std::min(next, writeback_.next_event(now));
  if (ldst_ != nullptr) next = std::min(next, ldst_->next_event(now));
  const uint64_t launch_cycles = ctx_.gpu->timing.block_launch_cycles;
  for (const PlacedBlock& p : placed_)
    if (p.cycle + launch_cycles > now) next = std::min(next, p.cycle + launch_cycles);  // its warps' first fetch
  return next;
}

uint64_t Sm::own_next_change(uint64_t now) const {
  uint64_t next = UINT64_MAX;
  auto later = [&](uint64_t t) {
    if (t > now) next = std::min(next, t);
  };
  if (latest_ready_at_ > now)  // else no warp waits for a stack cost: nothing to scan for
    for (const WarpSlot& ws : warps_)
      if (ws.resident) later(ws.ready_at);
  next = std::min(next, fetch_->next_event(now));
  for (const Partition& part : partitions_) {
    for (const ExecutionUnit& u : part.units) next = std::min(next, u.next_event(now));
    next = std::min(next, part.collector.next_event(now));
  }
  return next;
}

void Sm::hash_state(func::StateHasher& h) const {
  for (const PlacedBlock& p : placed_) h.add(p.block);
  for (const CtaSlot& c : ctas_) {
    if (!c.busy) continue;
    h.add(c.cta.linear_id);
    h.add_cta(c.cta);
    for (const func::Warp& w : c.runner->warps()) h.add_warp(w, *ctx_.kernel);
  }
}

void Sm::stuck_blocks(std::vector<func::StuckBlock>& out) const {
  for (const CtaSlot& c : ctas_)
    if (c.busy) out.push_back({&c.cta, &c.runner->warps()});
}

void Sm::add_unbuilt_stats(KernelTiming& total, const config::GpuConfig& gpu, uint64_t available_from,
                           uint64_t cycle) {
  if (cycle > available_from)
    total.scheduler_stalls[static_cast<size_t>(StallReason::kNoWarp)] +=
        uint64_t{gpu.sm.schedulers} * (cycle - available_from);
}

void Sm::add_stats(KernelTiming& total) const {
  total.warp_instructions += stats_.warp_instructions;
  total.thread_instructions += stats_.thread_instructions;
  total.divergence += stats_.divergence;
  total.resident_warp_cycles += stats_.resident_warp_cycles;
  total.active_sm_cycles += stats_.active_sm_cycles;
  for (size_t i = 0; i < kStallReasonCount; ++i) {
    total.warp_stalls[i] += stats_.warp_stalls[i];
    total.scheduler_stalls[i] += stats_.scheduler_stalls[i];
  }
  total.icache_hits += fetch_->icache().stats().hits;
  total.icache_misses += fetch_->icache().stats().misses;
  if (ldst_ != nullptr) add_ldst_figures(*ldst_, total.memory);
  for (const Partition& part : partitions_) {
    total.bank_conflicts += part.collector.stats().bank_conflicts;
    total.bank_conflict_cycles += part.collector.stats().bank_conflict_cycles;
    for (size_t u = 0; u < kUnitKindCount; ++u) {
      total.units[u].warp_instructions += part.units[u].stats().warp_instructions;
      total.units[u].busy_cycles += part.units[u].stats().busy_cycles;
    }
  }
}

}  // namespace lockstep::sim
