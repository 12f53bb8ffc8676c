// Formed warps in the timing model (sm.divergence = dwf, tbc, large-warp, and sbi and swi, whose
// secondary path is sm_co_issue.cpp's; seed 001 §3.3.4, figs 3-14 to 3-21). The block's runner chooses each issue and forms its warps exactly as in
// functional mode (CtaRunner::plan_formed), so both modes run the same instructions on the same
// lanes; this file decides when they issue:
//   - a block has at most one issue in progress; its formed warps issue in the order formation
//     gives them, each through the warp slot of its first part's home warp (the only slot of the
//     block the warp scheduler may pick: the formed warp is the unit it picks, and a scheduler
//     issues one per cycle, so two formed warps go out in one cycle only through two schedulers);
//   - the first formed warp issues when every member home warp (every warp with threads at the
//     PC) has the instruction at the head of its I-buffer and every member's scoreboard allows it
//     (joined scoreboards); it reserves the writes in every member's scoreboard and runs the
//     instruction on every member (execute at issue, with the threads' home lanes);
//   - the later formed warps of the issue take an issue slot, an operand collector and the unit;
//     the writes complete when the last one does (the LD/ST unit's finish, for memory).
// Threads that are not in the formed warp being issued wait with the stall reason `divergence`.
#include <bit>
#include <stdexcept>

#include "fmt/format.h"
#include "func/step.h"
#include "sim/pending_kind.h"
#include "sim/sm.h"

namespace lockstep::sim {

namespace {

// The lanes formed warp `k` of `issue` runs.
uint64_t formed_threads(const func::FormedIssue& issue, size_t k) {
  uint64_t n = 0;
  size_t m = 0;
  for (const func::FormationMember& part : issue.formed[k].parts) {
    while (issue.members[m].warp != part.warp) ++m;  // both in warp order
    n += static_cast<uint64_t>(std::popcount(issue.exec[m] & part.lanes));
  }
  return n;
}

}  // namespace

bool Sm::plan_formed_issues(uint64_t now) {
  if (forming_blocks_ == 0) return false;
  bool planned = false;
  for (CtaSlot& c : ctas_) {
    if (!c.busy || !c.forms) continue;
    for (uint32_t warp = 0; c.asleep != 0 && warp < c.warp_slots.size(); ++warp) {
      WarpSlot& ws = warps_[c.warp_slots[warp]];
      if (!ws.sleeping || ws.ready_at > now) continue;
      ws.sleeping = false;
      c.runner->set_asleep(warp, false);
      --c.asleep;
    }
    if (c.planned) continue;
    func::RunCounters counters;
    if (!c.runner->plan_formed(c.issue, counters)) continue;  // every warp waits or has exited
    stats_.divergence += counters.divergence;
    c.planned = true;
    c.next = 0;
    plan_secondary(c);
    planned = true;
  }
  if (planned) mark_dirty();
  return planned;
}

StallReason Sm::classify_formed(uint32_t slot, uint64_t now, uint64_t* unit_free) const {
  const CtaSlot& c = ctas_[warps_[slot].cta_slot];
  // A warp asleep joins no plan; the later formed warps of the issue that ran its nanosleep
  // still issue.
  if (!c.planned || c.warp_slots[c.issue.formed[c.next].parts.front().warp] != slot)
    return warps_[slot].sleeping && warps_[slot].ready_at > now ? StallReason::kSleeping : StallReason::kDivergence;
  const InstTiming& t = (*ctx_.timing)[c.issue.pc];
  if (c.next == 0) {
    for (const func::FormationMember& m : c.issue.members) {
      const uint32_t s = c.warp_slots[m.warp];
      const WarpSlot& ms = warps_[s];
      if (ibuffer_.count(s) == 0) return fetch_->ready_at(s) > now ? StallReason::kInstructionFetch : StallReason::kNoInstruction;
      if (t.memory_barrier && ms.memory_in_flight != 0) return StallReason::kSynchronization;
      // Each member waits for its own warp's copies (async_copies.h), as the warp alone would.
      if (t.async != ir::AsyncOp::None && async_.holds(s, warps_[slot].cta_slot, t, ctx_.kernel->code[c.issue.pc], *ms.warp))
        return StallReason::kSynchronization;
      // An sbi pair's warp checks both paths' registers at once (plan_secondary).
      const bool pair = c.paired && m.warp == c.issue.secondary.warp;
      const InstOperands& ops = pair ? c.pair_ops : t.operands;
      switch (scoreboard_->can_issue(s, ops, pair ? c.pair_token : ibuffer_.front(s).token)) {
        case IssueCheck::kReady: break;
        case IssueCheck::kRawHazard:
        case IssueCheck::kWawHazard: return dependency_reason(s, ops);
        case IssueCheck::kTableFull: return StallReason::kScoreboardFull;
      }
    }
    if (through_ldst(t) && !ldst_->can_accept()) return StallReason::kMemoryThrottle;
    if (c.issue.secondary.warp != func::FormedIssue::kNoWarp) {
      const StallReason r = classify_secondary(c, slot, now, unit_free);
      if (r != StallReason::kNotSelected) return r;
    }
  }
  return unit_reason(slot, t, now, unit_free);
}

void Sm::issue_formed(uint32_t slot, uint64_t now) {
  WarpSlot& ws = warps_[slot];
  const uint32_t cta_slot = ws.cta_slot;
  CtaSlot& c = ctas_[cta_slot];
  const uint32_t p = partition_of(slot), local = local_of(slot);
  Partition& part = partitions_[p];
  const InstTiming& t = (*ctx_.timing)[c.issue.pc];
  const size_t k = c.next;
  if (ctx_.trace != nullptr) c.runner->trace_formed(c.cta, c.issue, k, now, trace_buffer_);
  ++stats_.warp_instructions;
  stats_.thread_instructions += formed_threads(c.issue, k);
  if (k == 0) execute_formed(cta_slot, slot, now, t);
  uint64_t dispatch = part.collector.accept(now, {local, &t.operands});
  uint64_t done = part.units[static_cast<size_t>(t.unit)].accept(dispatch, ws.warp->width);
  if (k == 0 && c.issue.secondary.warp != func::FormedIssue::kNoWarp) {
    // The pair's writes on one warp (sbi) complete with the later of its two paths.
    const uint64_t secondary_done = issue_secondary(cta_slot, slot, now, dispatch, done);
    if (c.paired) {
      done = std::max(done, secondary_done);
      if (c.access != kNoAccess)
        for (Completion& w : waiting_access_[c.access]) w.cycle = secondary_done;
    }
  }
  part.scheduler->on_issue(local, now);
  if (++c.next < c.issue.formed.size()) return;
  // The last formed warp: the writes complete with it (memory through the hierarchy: when the
  // LD/ST unit finishes, take_finished_accesses).
  c.planned = false;
  hold_formed(cta_slot, t);
  const bool memory = t.space != MemorySpace::kNone;
  if (!through_ldst(t)) {
    if (memory) done = std::max(done, dispatch + t.memory_latency);
    for (const CtaSlot::MemberWrites& m : c.writes)
      if (m.writes.count != 0 || memory)
        writeback_.accept(now, Completion{done, 0, m.slot, memory, t.long_latency && m.slot == c.executed_by, m.writes,
                                          m.async_copy});
  }
  finish_block(cta_slot);  // when the issue's instruction was every warp's exit
}

void Sm::execute_formed(uint32_t cta_slot, uint32_t slot, uint64_t now, const InstTiming& t) {
  CtaSlot& c = ctas_[cta_slot];
  const func::FormedIssue& issue = c.issue;
  const func::ExecInst& in = ctx_.kernel->code[issue.pc];
  c.executed_by = slot;
  c.writes.clear();
  for (const func::FormationMember& m : issue.members) {
    const uint32_t s = c.warp_slots[m.warp];
    const IBufferEntry head = issue_head(s);
    if (head.pc != issue.pc)
      throw std::logic_error(fmt::format("SM {}: warp slot {} joins a formed warp at PC {} but holds PC {}", id_, s,
                                         issue.pc, head.pc));
    if (c.paired && m.warp == issue.secondary.warp) {
      // sbi: the pair reserves both paths' writes as one (plan_secondary), in place of the head's.
      scoreboard_->discard(s, head.token);
      c.writes.push_back({s, scoreboard_->reserve(s, c.pair_ops, c.pair_token)});
    } else {
      c.writes.push_back({s, scoreboard_->reserve(s, t.operands, head.token)});
    }
  }
  const bool ldst = through_ldst(t);
  const uint32_t access = ldst ? ldst_->accept(now, ldst_request(t)) : kNoAccess;
  c.access = access;
  // sbi, swi: the secondary runs first, as in functional mode: its stack entry (sbi) is the one
  // below the top, which the primary's outcome may pop.
  if (issue.secondary.warp != func::FormedIssue::kNoWarp) execute_secondary(cta_slot, now);
  PendingKind kind = pending_kind(t);
  for (size_t i = 0; i < issue.members.size(); ++i) {
    const uint32_t s = c.writes[i].slot;
    func::Warp& w = *warps_[s].warp;
    const func::LaneMask lanes = func::guarded_lanes(in, w);
    // A copy joins the member's own warp's group (its registers as at issue).
    if (t.async != ir::AsyncOp::None) c.writes[i].async_copy = async_.issue(s, cta_slot, t, in, w, lanes);
    w.clock = now;
    w.exec = lanes;
    if (t.deferred) {
      deferred_.push_back({s, issue.pc, lanes, access, i + 1 == issue.members.size()});
      func::advance_past(w);
      continue;
    }
    access_log_.clear();
    try {
      func::execute(in, w, lanes);
    } catch (func::FaultException& f) {
      fail(cta_slot, func::LaunchFault{std::move(f.fault), w.warp_id, issue.pc, {}});
    }
    if (t.sleeps) {
      // Each member sleeps as long as its own lanes ask, and joins no formed issue meanwhile.
      const bool was_asleep = warps_[s].sleeping;
      sleep(s, now, func::nanosleep_ns(in, w, lanes));
      if (warps_[s].sleeping && !was_asleep) {
        c.runner->set_asleep(w.warp_id, true);
        ++c.asleep;
      }
    }
    if (ldst) {
      if (t.space == MemorySpace::kConstant && ldst_->constant_misses(access_log_)) kind = kConstantMissing;
      ldst_->add(access, access_log_, s);
    }
  }
  if (ldst && !t.deferred) ldst_->close(access);
  c.runner->finish_formed(issue);
  const bool memory = t.space != MemorySpace::kNone;
  if (ldst) waiting_access_[access].clear();
  for (const CtaSlot::MemberWrites& m : c.writes) {
    const size_t base = static_cast<size_t>(m.slot) * registers_per_warp_;
    for (uint32_t i = 0; i < m.writes.count; ++i) {
      const RegRange& r = m.writes.handles[i].range;
      std::fill_n(pending_kind_.begin() + static_cast<std::ptrdiff_t>(base + r.first), r.count, kind);
    }
    WarpSlot& ms = warps_[m.slot];
    if (ldst) {
      waiting_access_[access].push_back(
          Completion{0, 0, m.slot, true, t.long_latency && m.slot == slot, m.writes, m.async_copy});
    } else if (m.writes.count == 0 && !memory) {
      continue;  // nothing completes for this member
    }
    ++ms.in_flight;  // from now, so that the block stays until the last formed warp completes
    if (memory) ++ms.memory_in_flight;
  }
  if (t.long_latency) partitions_[partition_of(slot)].scheduler->on_long_latency(local_of(slot));
  after_formed(cta_slot);
}

void Sm::after_formed(uint32_t cta_slot) {
  CtaSlot& c = ctas_[cta_slot];
  bool stopped = false;
  for (uint32_t s : c.warp_slots) {
    if (held(s) == StallReason::kExited) continue;
    const WarpSlot& ws = warps_[s];
    const func::Warp& w = *ws.warp;
    stopped |= w.status != func::Warp::Status::Running;
    if (w.status == func::Warp::Status::Exited) {
      flush(s);
      continue;
    }
    // The stack (tbc) or the warp's unit (dwf) may have moved any warp of the block: those no
    // longer on their fetched path fetch again. (Deferred instructions advanced past already.)
    if (!ibuffer_.empty(s) ? ibuffer_.head(s).pc != w.pc : fetch_->fetch_pc(s) != w.pc) flush(s);
  }
  if (!stopped) return;
  try {
    c.runner->check_deadlock(c.cta);
  } catch (func::LaunchFault& f) {
    fail(cta_slot, std::move(f));
  }
}

void Sm::hold_formed(uint32_t cta_slot, const InstTiming& t) {
  CtaSlot& c = ctas_[cta_slot];
  bool exited = false;
  for (uint32_t s : c.warp_slots) {
    if (held(s) == StallReason::kExited || warps_[s].warp->status != func::Warp::Status::Exited) continue;
    set_held(s, StallReason::kExited);  // final: the scans skip the warp from now on
    exited = true;
  }
  if (t.cta_barrier || exited) end_barrier_holds(cta_slot);
  for (uint32_t s : c.warp_slots)
    if (warps_[s].warp->status == func::Warp::Status::AtBarrier) set_held(s, StallReason::kBarrier);
}

}  // namespace lockstep::sim
