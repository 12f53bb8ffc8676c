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
// together where the instruction needs them.
#include <algorithm>
#include <bit>

#include "func/cta_runner.h"
#include "func/instruction_effects.h"
#include "func/ops/store_footprint.h"
#include "func/step.h"

namespace lockstep::func {

CtaRunner::TurnResult CtaRunner::formed_turn(CtaState& cta, RunCounters& counters) {
  bool all_exited = true;
  for (const Warp& w : warps_) all_exited = all_exited && w.status == Warp::Status::Exited;
  if (all_exited) return TurnResult::Exited;
  const ExecInst* code = kernel_.code.data();
  const uint8_t* flags = turn_flags_.data();
  const uint8_t park = parking_ ? kParks : 0;
  const uint8_t* writes = options_.global_writes != nullptr ? options_.global_writes->data() : nullptr;
  ready_pcs_.resize(warps_.size());
  exec_.resize(warps_.size());
  uint32_t issued = 0;
  uint32_t faulting_warp = 0;
  ir::Pc pc = 0;
  BlockStack* stack = nullptr;  // tbc, large-warp, sbi, swi: the stack that issues now
  try {
    for (uint32_t budget = options_.time_slice; budget != 0; --budget) {
      stack = nullptr;
      if (stacked_) {
        // tbc: the top entry issues when every warp with threads in it can (WCnt). large-warp:
        // the large warps take turns issue by issue, passing over one that cannot issue now.
        const size_t n = block_stacks_.size();
        for (size_t k = 0; k < n && stack == nullptr; ++k) {
          const size_t s = (next_stack_ + k) % n;
          BlockStack& candidate = *block_stacks_[s];
          bool all_ready = true, any = false;
          for (uint32_t i = candidate.first_warp(); i < candidate.first_warp() + candidate.warps(); ++i) {
            const bool member = candidate.mask(i) != 0;
            any |= member;
            all_ready = all_ready && (!member || (warps_[i].status == Warp::Status::Running && warp_parked_[i] == 0));
          }
          if (!any || !all_ready) continue;
          stack = &candidate;
          next_stack_ = static_cast<uint32_t>((s + 1) % n);
        }
        if (stack == nullptr) break;
        std::fill(ready_pcs_.begin(), ready_pcs_.end(), ir::kNoPc);
        for (uint32_t i = stack->first_warp(); i < stack->first_warp() + stack->warps(); ++i)
          if (stack->mask(i) != 0) ready_pcs_[i] = warps_[i].pc;
        pc = stack->pc();
      } else {
        for (const Warp& w : warps_) {
          const bool ready = w.status == Warp::Status::Running && warp_parked_[w.warp_id] == 0 && w.active != 0;
          ready_pcs_[w.warp_id] = ready ? w.pc : ir::kNoPc;
        }
        pc = scheduler_.pick(ready_pcs_);
        if (pc == ir::kNoPc) break;
      }
      const ExecInst& in = code[pc];
      members_.clear();
      for (uint32_t i = 0; i < warps_.size(); ++i) {
        if (ready_pcs_[i] != pc) continue;
        members_.push_back({i, warps_[i].active});
        exec_[i] = guarded_lanes(in, warps_[i]);
        counters.thread_instructions += static_cast<uint64_t>(std::popcount(exec_[i]));
      }
      const std::vector<FormedWarp> formed = form_warps(formation_rule_, members_);
      counters.warp_instructions += formed.size();
      for (const FormedWarp& f : formed) {
        ++formed_count_;
        if (f.parts.size() > 1) {
          ++counters.divergence.formed_warps;
          counters.divergence.formed_threads += static_cast<uint64_t>(std::popcount(f.lanes));
        }
        LaneMask any = 0;
        for (const FormationMember& part : f.parts) {
          const Warp& w = warps_[part.warp];
          any |= exec_[part.warp] & part.lanes;
          if (trace_ == nullptr) continue;
          TraceRecord r = trace_record(cta, w);
          r.exec = exec_[part.warp] & part.lanes;
          r.active = part.lanes;
          r.formed_warp = formed_count_;
          (*trace_)(r);
        }
        if (writes != nullptr && any != 0) counters.global_writes += writes[pc];
      }
      if (co_issues_ && stack != nullptr) {
        // sbi: the sibling path issues beside the top; swi: else another warp's path that fits
        // the idle lanes. A fault there is reported at the secondary's warp and PC.
        const ir::Pc primary_pc = pc;
        faulting_warp = stack->first_warp();
        pc = stack->sibling_pc();
        if (pc != ir::kNoPc && !code[pc].is_control && flags[pc] == 0) {
          co_issue_sibling(cta, *stack, pc, counters);
        } else if (interweaves_warps_) {
          co_issue_other_warp(cta, *stack, faulting_warp, pc, counters);
        }
        pc = primary_pc;
      }
      const uint8_t f = flags[pc];
      for (const FormationMember& m : members_) {
        Warp& w = warps_[m.warp];
        faulting_warp = m.warp;
        const LaneMask lanes = exec_[m.warp];
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
      if (stack != nullptr) {
        stack->resolve(in, warps_);
        stack->sync(warps_);
      }
      ++issued;
      if (f != 0) break;
    }
  } catch (FaultException& e) {
    for (Warp& w : warps_) counters.divergence += w.divergence->take_counters();
    for (auto& s : block_stacks_) counters.divergence += s->take_counters();
    throw LaunchFault{std::move(e.fault), faulting_warp, pc, {}};
  }
  for (Warp& w : warps_) counters.divergence += w.divergence->take_counters();
  for (auto& s : block_stacks_) counters.divergence += s->take_counters();
  if (issued == 0) {
    if (!parked_.empty()) return TurnResult::Parked;
    report_deadlock(cta);
  }
  return TurnResult::Ran;
}

}  // namespace lockstep::func
