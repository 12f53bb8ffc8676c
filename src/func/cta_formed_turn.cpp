// CtaRunner::turn() under a block-level divergence unit (sm.divergence = dwf, tbc, large-warp,
// sbi, swi): each issue picks a PC (dwf: FormationScheduler over the warps' paths; tbc: the block
// stack's top entry, once all its warps can issue; large-warp: the top entry of the next large
// warp's stack that can issue; sbi, swi: the next warp's stack top, with a secondary path beside
// it, cta_co_issue.cpp), forms warps from the block's warps whose current path is at that PC
// (form_warps), counts and traces every formed warp, and runs the instruction once on each home
// warp with the mask of its threads there, so handlers and per-thread results are those of the
// per-warp units; under the stacked units the stack then takes the warps' outcomes. Warp-level
// collectives (shfl, vote, match, redux, bar.warp.sync) therefore run per home warp: a formed
// warp is split back into its home warps for them, and each home warp's own unit keeps its lanes
// together where the instruction needs them. The choice and the formation are plan_formed(),
// which the timing model (sim/sm_formation.cpp) calls too, so both modes form the same warps.
#include <algorithm>
#include <bit>
#include <optional>

#include "func/cta_runner.h"
#include "func/instruction_effects.h"
#include "func/ops/store_footprint.h"
#include "func/step.h"

namespace lockstep::func {

bool CtaRunner::plan_formed(FormedIssue& issue, RunCounters& counters) {
  BlockStack* stack = nullptr;
  issue.stack = FormedIssue::kNoStack;
  ready_pcs_.resize(warps_.size());
  ir::Pc pc = ir::kNoPc;
  if (stacked_) {
    // tbc: the top entry issues when every warp with threads in it can (WCnt). large-warp: the
    // large warps take turns issue by issue, passing over one that cannot issue now.
    const size_t n = block_stacks_.size();
    for (size_t k = 0; k < n && stack == nullptr; ++k) {
      const size_t s = (next_stack_ + k) % n;
      BlockStack& candidate = *block_stacks_[s];
      bool all_ready = true, any = false;
      for (uint32_t i = candidate.first_warp(); i < candidate.first_warp() + candidate.warps(); ++i) {
        const bool member = candidate.mask(i) != 0;
        any |= member;
        all_ready = all_ready && (!member || (warps_[i].status == Warp::Status::Running && warp_parked_[i] == 0 &&
                                              warp_asleep_[i] == 0));
      }
      if (!any || !all_ready) continue;
      stack = &candidate;
      issue.stack = static_cast<uint32_t>(s);
      next_stack_ = static_cast<uint32_t>((s + 1) % n);
    }
    if (stack == nullptr) return false;
    std::fill(ready_pcs_.begin(), ready_pcs_.end(), ir::kNoPc);
    for (uint32_t i = stack->first_warp(); i < stack->first_warp() + stack->warps(); ++i)
      if (stack->mask(i) != 0) ready_pcs_[i] = warps_[i].pc;
    pc = stack->pc();
  } else {
    for (const Warp& w : warps_) {
      const bool ready = w.status == Warp::Status::Running && warp_parked_[w.warp_id] == 0 &&
                         warp_asleep_[w.warp_id] == 0 && w.active != 0;
      ready_pcs_[w.warp_id] = ready ? w.pc : ir::kNoPc;
    }
    pc = scheduler_.pick(ready_pcs_);
    if (pc == ir::kNoPc) return false;
  }
  const ExecInst& in = kernel_.code[pc];
  issue.pc = pc;
  issue.members.clear();
  issue.exec.clear();
  for (uint32_t i = 0; i < warps_.size(); ++i) {
    if (ready_pcs_[i] != pc) continue;
    issue.members.push_back({i, warps_[i].active});
    issue.exec.push_back(guarded_lanes(in, warps_[i]));
    counters.thread_instructions += static_cast<uint64_t>(std::popcount(issue.exec.back()));
  }
  issue.formed = form_warps(formation_rule_, issue.members);
  issue.first_number = formed_count_;
  formed_count_ += issue.formed.size();
  for (const FormedWarp& f : issue.formed) {
    if (f.parts.size() < 2) continue;
    ++counters.divergence.formed_warps;
    counters.divergence.formed_threads += static_cast<uint64_t>(std::popcount(f.lanes));
  }
  issue.secondary = {};
  if (co_issues_ && stack != nullptr) plan_secondary(issue, *stack, counters);
  return true;
}

void CtaRunner::finish_formed(const FormedIssue& issue) {
  if (issue.stack == FormedIssue::kNoStack) return;
  BlockStack& stack = *block_stacks_[issue.stack];
  stack.resolve(kernel_.code[issue.pc], warps_);
  stack.sync(warps_);
}

void CtaRunner::trace_formed(const CtaState& cta, const FormedIssue& issue, size_t k,
                             std::optional<uint64_t> clock, const TraceHook& hook) const {
  size_t m = 0;
  for (const FormationMember& part : issue.formed[k].parts) {
    while (issue.members[m].warp != part.warp) ++m;  // both in warp order
    TraceRecord r = trace_record(cta, warps_[part.warp]);
    r.pc = issue.pc;
    r.exec = issue.exec[m] & part.lanes;
    r.active = part.lanes;
    if (clock) r.clock = *clock;
    r.formed_warp = issue.first_number + k + 1;
    hook(r);
  }
}

DivergenceCounters CtaRunner::take_stack_counters() {
  DivergenceCounters c;
  for (auto& s : block_stacks_) c += s->take_counters();
  return c;
}

CtaRunner::TurnResult CtaRunner::formed_turn(CtaState& cta, RunCounters& counters) {
  bool all_exited = true;
  for (const Warp& w : warps_) all_exited = all_exited && w.status == Warp::Status::Exited;
  if (all_exited) return TurnResult::Exited;
  const ExecInst* code = kernel_.code.data();
  const uint8_t* flags = turn_flags_.data();
  const uint8_t park = parking_ ? kParks : 0;
  const uint8_t* writes = options_.global_writes != nullptr ? options_.global_writes->data() : nullptr;
  uint32_t issued = 0;
  uint32_t faulting_warp = 0;
  ir::Pc pc = 0;
  FormedIssue& issue = issue_;
  try {
    for (uint32_t budget = options_.time_slice; budget != 0; --budget) {
      if (!plan_formed(issue, counters)) break;
      pc = issue.pc;
      const ExecInst& in = code[pc];
      counters.warp_instructions += issue.formed.size();
      for (size_t k = 0; k < issue.formed.size(); ++k) {
        if (trace_ != nullptr) trace_formed(cta, issue, k, std::nullopt, *trace_);
        if (writes == nullptr) continue;
        LaneMask any = 0;
        size_t m = 0;
        for (const FormationMember& part : issue.formed[k].parts) {
          while (issue.members[m].warp != part.warp) ++m;
          any |= issue.exec[m] & part.lanes;
        }
        if (any != 0) counters.global_writes += writes[pc];
      }
      if (issue.secondary.warp != FormedIssue::kNoWarp) {
        // sbi: the sibling path issues beside the top; swi: else another warp's path that fits
        // the idle lanes. A fault there is reported at the secondary's warp and PC.
        faulting_warp = issue.secondary.warp;
        pc = issue.secondary.pc;
        if (trace_ != nullptr) trace_secondary(cta, issue, std::nullopt, *trace_);
        run_secondary(issue);
        if (!issue.secondary.sibling) ++warps_[issue.secondary.warp].clock;
        pc = issue.pc;
      }
      const uint8_t f = flags[pc];
      for (size_t m = 0; m < issue.members.size(); ++m) {
        Warp& w = warps_[issue.members[m].warp];
        faulting_warp = w.warp_id;
        const LaneMask lanes = issue.exec[m];
        if ((f & park) != 0 && lanes != 0) {
          // As run_warp(): counted and traced now, the handler runs at commit_parked().
          const uint32_t bytes = store_bytes_.empty() ? 0 : store_bytes_[pc];
          parked_.push_back({w.warp_id, pc, lanes,
                             bytes != 0 ? memory::plain_store_footprint(in, w, lanes, bytes) : ParkedFootprint{}});
          warp_parked_[w.warp_id] = 1;
          advance_past(w);
        } else {
          execute(in, w, lanes);
        }
        ++w.clock;
      }
      finish_formed(issue);
      ++issued;
      if (f != 0) break;
    }
  } catch (FaultException& e) {
    for (Warp& w : warps_) counters.divergence += w.divergence->take_counters();
    counters.divergence += take_stack_counters();
    throw LaunchFault{std::move(e.fault), faulting_warp, pc, {}};
  }
  for (Warp& w : warps_) counters.divergence += w.divergence->take_counters();
  counters.divergence += take_stack_counters();
  if (issued == 0) {
    if (!parked_.empty()) return TurnResult::Parked;
    report_deadlock(cta);
  }
  return TurnResult::Ran;
}

}  // namespace lockstep::func
