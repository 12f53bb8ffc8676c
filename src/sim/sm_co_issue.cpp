// The secondary issue path of sbi and swi in the timing model (seed 001 §3.3.4 part 2, figs
// 3-19 to 3-21). The block's runner picks the secondary with the primary when it plans the
// issue (func/cta_co_issue.cpp), so both modes pair the same paths; this file issues the pair in
// one cycle, through the primary's warp slot (sm_formation.cpp), as fig 3-20 (b)'s second
// scheduler follows the first one's warp and each SIMT lane's multiplexer takes one of the two
// instructions:
//   - fetch: an sbi secondary is the other path of the primary's own warp, which the warp's
//     I-buffer does not hold (it is filled along one PC, the stack top's). The model reads the
//     decoded instruction at the sibling's PC directly, as the second scheduler's own fetch of
//     the complementary PC that the branch computed (fig 3-20: the complementary path's PCs are
//     known when the warp splits). It takes no I-cache access: the lines were fetched for the
//     branch's other path a few instructions back, and a second fetch port is not in the seed.
//     An swi secondary is another warp's next instruction: it waits at the head of that warp's
//     own I-buffer and issues from there (popped as by its own issue);
//   - scoreboard: the pair issues when the primary's checks pass and the secondary's too. An sbi
//     pair is one warp's two paths on complementary lanes: one warp-wide register row holds both
//     paths' values, so the scoreboard, which tracks registers and not lanes, sees the pair as
//     one instruction reading and writing what either does (joined_operands), decoded when the
//     issue is planned and reserved in place of the primary's I-buffer entry; its writes are
//     released when the later of the two paths completes. A path never waits on the other's
//     writes (their lanes are disjoint), but every later instruction of the warp waits on both.
//     An swi pair's paths are two warps with their own scoreboard rows: each checks and
//     reserves its own, so neither sees the other's writes;
//   - operands and unit: the secondary's sources are read through its warp's register banks
//     after the primary's (an sbi pair reads a register both use once: one row for all lanes);
//     on the unit the primary took, the secondary rides along on its idle lanes; on another unit
//     it needs that unit's issue slot too (classify_secondary). A secondary is never a memory
//     instruction (cta_co_issue.cpp), so its result always comes out of a pipeline.
// A pair is one warp instruction; its trace records share the primary's formed warp number.
#include <algorithm>
#include <bit>
#include <stdexcept>

#include "fmt/format.h"
#include "func/step.h"
#include "sim/pending_kind.h"
#include "sim/sm.h"

namespace lockstep::sim {

void Sm::plan_secondary(CtaSlot& c) {
  const func::FormedIssue::Secondary& s = c.issue.secondary;
  c.paired = s.warp != func::FormedIssue::kNoWarp && s.sibling;
  if (!c.paired) return;
  const uint32_t dst_limit =
      ctx_.gpu->timing.scoreboard == "rid-table" ? ctx_.gpu->timing.rid_entries : kMaxDstRanges;
  c.pair_ops = joined_operands((*ctx_.timing)[c.issue.pc].operands, (*ctx_.timing)[s.pc].operands,
                               dst_limit);
  c.pair_token = scoreboard_->on_decode(c.warp_slots[s.warp], c.pair_ops);
}

StallReason Sm::classify_secondary(const CtaSlot& c, uint32_t lead, uint64_t now,
                                   uint64_t* unit_free) const {
  const func::FormedIssue::Secondary& s = c.issue.secondary;
  const InstTiming& ts = (*ctx_.timing)[s.pc];
  if (!s.sibling) {
    const uint32_t other = c.warp_slots[s.warp];
    if (ibuffer_.count(other) == 0)
      return fetch_->ready_at(other) > now ? StallReason::kInstructionFetch
                                             : StallReason::kNoInstruction;
    switch (scoreboard_->can_issue(other, ts.operands, ibuffer_.front(other).token)) {
      case IssueCheck::kReady:
        break;
      case IssueCheck::kRawHazard:
      case IssueCheck::kWawHazard:
        return dependency_reason(other, ts.operands);
      case IssueCheck::kTableFull:
        return StallReason::kScoreboardFull;
    }
  }
  if (ts.unit != (*ctx_.timing)[c.issue.pc].unit) {
    const ExecutionUnit& unit = partitions_[partition_of(lead)].units[static_cast<size_t>(ts.unit)];
    if (!unit.can_accept(now)) {
      if (unit_free != nullptr) *unit_free = unit.next_free_cycle();
      return StallReason::kPipelineBusy;
    }
  }
  return StallReason::kNotSelected;
}

void Sm::execute_secondary(uint32_t cta_slot, uint64_t now) {
  CtaSlot& c = ctas_[cta_slot];
  const func::FormedIssue::Secondary& s = c.issue.secondary;
  const InstTiming& ts = (*ctx_.timing)[s.pc];
  const uint32_t slot = c.warp_slots[s.warp];
  if (ts.space != MemorySpace::kNone || ts.deferred)
    throw std::logic_error(
        fmt::format("SM {}: a secondary path issues PC {}, a memory instruction", id_, s.pc));
  if (ctx_.trace != nullptr) c.runner->trace_secondary(c.cta, c.issue, now, trace_buffer_);
  stats_.thread_instructions += static_cast<uint64_t>(std::popcount(s.exec));
  c.secondary_writes = {};
  if (!s.sibling) {
    const IBufferEntry head = issue_head(slot);
    if (head.pc != s.pc)
      throw std::logic_error(fmt::format("SM {}: warp slot {} interweaves PC {} but holds PC {}",
                                         id_, slot, s.pc, head.pc));
    c.secondary_writes = scoreboard_->reserve(slot, ts.operands, head.token);
    const size_t base = static_cast<size_t>(slot) * registers_per_warp_;
    for (uint32_t i = 0; i < c.secondary_writes.count; ++i) {
      const RegRange& r = c.secondary_writes.handles[i].range;
      std::fill_n(pending_kind_.begin() + static_cast<std::ptrdiff_t>(base + r.first), r.count,
                  pending_kind(ts));
    }
    warps_[slot].warp->clock = now;
  }
  try {
    c.runner->run_secondary(c.issue);
  } catch (func::FaultException& f) {
    fail(cta_slot, func::LaunchFault{std::move(f.fault), s.warp, s.pc, {}});
  }
}

uint64_t Sm::issue_secondary(uint32_t cta_slot, uint32_t lead, uint64_t now, uint64_t dispatch,
                             uint64_t done) {
  CtaSlot& c = ctas_[cta_slot];
  const func::FormedIssue::Secondary& s = c.issue.secondary;
  const InstTiming& ts = (*ctx_.timing)[s.pc];
  const InstTiming& t = (*ctx_.timing)[c.issue.pc];
  const uint32_t slot = c.warp_slots[s.warp];
  // An sbi pair reads a register both paths use once (one row for all lanes).
  const uint64_t own_dispatch = partitions_[partition_of(slot)].collector.accept_beside(
      now, {local_of(slot), &ts.operands, s.sibling ? &t.operands : nullptr}, dispatch);
  uint64_t ready = done + (own_dispatch - dispatch);
  if (ts.unit != t.unit)
    ready = partitions_[partition_of(lead)].units[static_cast<size_t>(ts.unit)].accept(
        own_dispatch, warps_[lead].warp->width);
  if (c.secondary_writes.count != 0) {
    writeback_.accept(now, Completion{ready, 0, slot, false, false, c.secondary_writes});
    ++warps_[slot].in_flight;
  }
  return ready;
}

}  // namespace lockstep::sim
