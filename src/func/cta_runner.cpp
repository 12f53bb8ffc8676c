#include "func/cta_runner.h"

#include <algorithm>
#include <bit>

#include "fmt/format.h"
#include "func/instruction_effects.h"
#include "func/ops/store_footprint.h"
#include "func/shared_layout.h"
#include "func/step.h"

namespace lockstep::func {

CtaRunner::CtaRunner(const BoundKernel& kernel, LaunchState& launch, RunOptions options,
                     const TraceHook* trace)
    : kernel_(kernel),
      launch_(launch),
      options_(std::move(options)),
      trace_(trace),
      turn_flags_(turn_flags(kernel, options_.park_launch_effects)),
      parking_(options_.park_launch_effects),
      scheduler_(kFormationPatience) {
  // The unit's registry entry says how its warps issue (set in the unit's own file).
  const DivergenceTraits& traits = divergence_unit(options_.divergence.name).traits;
  forms_warps_ = traits.block_level;
  if (forms_warps_) formation_rule_ = traits.formation;
  stacked_ = forms_warps_ && formation_rule_ == FormationRule::Compaction;
  stack_sharing_ = traits.stack_sharing;
  co_issues_ = traits.co_issue != DivergenceTraits::CoIssue::None;
  interweaves_warps_ = traits.co_issue == DivergenceTraits::CoIssue::SiblingOrOtherWarp;
  if (co_issues_) {
    no_secondary_.assign(kernel.code.size(), 0);
    for (size_t pc = 0; pc < no_secondary_.size(); ++pc) {
      // Memory of any space, fences, and calls of the device runtime (vprintf, malloc, free: not
      // control instructions, but services the timing model runs at the end of the cycle).
      const ir::Instruction& inst = kernel.program->code[pc];
      const ir::DecodedForm& d = inst.decoded;
      const bool memory = d.space != ir::MemorySpace::None || d.operation != ir::MemoryOperation::None ||
                          d.orders_memory || may_write_global(inst) || calls_launch_service(*kernel.program, inst);
      no_secondary_[pc] = kernel.code[pc].is_control || turn_flags_[pc] != 0 || memory ? 1 : 0;
    }
  }
  if (options_.park_launch_effects && options_.park_footprints) {
    store_bytes_.resize(kernel.code.size());
    for (size_t pc = 0; pc < store_bytes_.size(); ++pc) store_bytes_[pc] = memory::plain_store_bytes(kernel.code[pc].fn);
  }
}

std::vector<uint8_t> CtaRunner::turn_flags(const BoundKernel& kernel, bool park) {
  std::vector<uint8_t> flags(kernel.code.size(), 0);
  for (size_t pc = 0; pc < flags.size(); ++pc) {
    flags[pc] = kernel.turn_ends[pc] != 0 ? kEndsTurn : 0;
    if (park && kernel.launch_effects[pc] != 0) flags[pc] |= kParks;
  }
  return flags;
}

void CtaRunner::start(CtaState& cta) {
  const uint32_t width = options_.warp_size;
  const uint32_t threads = launch_.block[0] * launch_.block[1] * launch_.block[2];
  const uint32_t nwarps = (threads + width - 1) / width;
  // tbc: one stack for the block; large-warp: one per large warp (the last may be short); sbi:
  // one per warp (as swi).
  switch (stack_sharing_) {
    case DivergenceTraits::StackSharing::Block: stack_group_ = nwarps; break;
    case DivergenceTraits::StackSharing::LargeWarp: stack_group_ = std::max(options_.divergence.large_warp_size, 1u); break;
    case DivergenceTraits::StackSharing::Warp: stack_group_ = 1; break;
  }
  if (warps_.size() != nwarps) {
    warps_.assign(nwarps, Warp{});
    registers_.assign(nwarps, {});
    constants_set_.assign(nwarps, 0);
    predicates_.assign(nwarps, {});
    warp_parked_.assign(nwarps, 0);
    warp_asleep_.assign(nwarps, 0);
    divergence_.clear();
    block_stacks_.clear();
    if (stacked_) {
      for (uint32_t first = 0; first < nwarps; first += stack_group_)
        block_stacks_.push_back(std::make_unique<BlockStack>());
    }
    for (uint32_t i = 0; i < nwarps; ++i)
      divergence_.push_back(stacked_ ? make_block_stack_view(*block_stacks_[i / stack_group_], i)
                                     : make_divergence_unit(options_.divergence));
  }
  parked_.clear();  // a launch stopped by a fault may have left some
  scheduler_.reset(nwarps);
  formed_count_ = 0;
  std::fill(warp_parked_.begin(), warp_parked_.end(), 0);
  std::fill(warp_asleep_.begin(), warp_asleep_.end(), 0);
  cta.warps = &warps_;
  cta.live_warps = nwarps;
  cta.barriers.reset();
  const ir::Function& entry = kernel_.program->functions[0];
  for (uint32_t i = 0; i < nwarps; ++i) {
    Warp& w = warps_[i];
    w.width = width;
    w.warp_id = i;
    w.cta = &cta;
    w.launch = &launch_;
    registers_[i].resize(static_cast<size_t>(kernel_.slot_count) * width);
    predicates_[i].assign(kernel_.pred_count, 0);
    w.regs = registers_[i].data();
    w.preds = predicates_[i].data();
    if (launch_.stack_size != 0) w.local_memory.resize(static_cast<size_t>(launch_.stack_size) * width);
    const uint32_t first_thread = i * width;
    const uint32_t lanes = std::min(width, threads - first_thread);
    w.live = full_mask(lanes);
    w.status = Warp::Status::Running;
    w.clock = 0;
    w.function = 0;
    w.frame_base_ = 0;
    w.calls.clear();
    w.saved_regs.clear();
    w.pending_reduction = BarrierReduction::None;
    w.divergence = divergence_[i].get();
    w.divergence->reset(w, w.live, entry.entry);
    init_registers(w, cta, threads);
  }
  next_stack_ = 0;
  for (size_t s = 0; s < block_stacks_.size(); ++s) {
    const uint32_t first = static_cast<uint32_t>(s) * stack_group_;
    std::vector<LaneMask> live;
    for (uint32_t i = first; i < std::min(nwarps, first + stack_group_); ++i) live.push_back(warps_[i].live);
    block_stacks_[s]->reset(live, entry.entry, first);
    block_stacks_[s]->sync(warps_);
  }
}

void CtaRunner::init_registers(Warp& w, const CtaState& cta, uint32_t threads_in_block) {
  const uint32_t width = w.width;
  // The bound constants: no instruction writes their slots, so a register file keeps them from
  // the block before on this runner.
  if (!constants_set_[w.warp_id]) {
    for (const ConstantSlot& c : kernel_.constants) std::fill_n(w.r(c.slot), width, c.value);
    constants_set_[w.warp_id] = 1;
  }
  const uint32_t bx = launch_.block[0], by = launch_.block[1];
  const SharedLayout shared = shared_layout(kernel_, launch_.dynamic_shared);
  const ptx::PerformanceHints& hints = kernel_.program->hints;
  using S = ir::SpecialReg;
  for (const SpecialSlot& s : kernel_.specials) {
    uint64_t* d = w.r(s.slot);
    // The registers that differ from lane to lane; every other one is the same in all lanes.
    const bool per_lane = s.reg == S::TidX || s.reg == S::TidY || s.reg == S::TidZ || s.reg == S::LaneId ||
                          (s.reg >= S::LanemaskEq && s.reg <= S::LanemaskGt);
    for (uint32_t l = 0; l < (per_lane ? width : 1); ++l) {
      const uint32_t t = std::min(w.warp_id * width + l, threads_in_block);
      uint64_t v = 0;
      switch (s.reg) {
        case S::TidX: v = t % bx; break;
        case S::TidY: v = (t / bx) % by; break;
        case S::TidZ: v = t / (bx * by); break;
        case S::NtidX: v = launch_.block[0]; break;
        case S::NtidY: v = launch_.block[1]; break;
        case S::NtidZ: v = launch_.block[2]; break;
        case S::CtaidX: case S::ClusterIdX: v = cta.ctaid[0]; break;
        case S::CtaidY: case S::ClusterIdY: v = cta.ctaid[1]; break;
        case S::CtaidZ: case S::ClusterIdZ: v = cta.ctaid[2]; break;
        case S::NctaidX: case S::NClusterIdX: v = launch_.grid[0]; break;
        case S::NctaidY: case S::NClusterIdY: v = launch_.grid[1]; break;
        case S::NctaidZ: case S::NClusterIdZ: v = launch_.grid[2]; break;
        case S::LaneId: v = l; break;
        case S::WarpSize: v = width; break;
        case S::WarpId: v = w.warp_id; break;
        case S::NWarpId: v = 64; break;
        case S::SmId: v = options_.sm_id; break;
        case S::NSmId: v = options_.sm_count; break;
        case S::GridId: v = launch_.grid_id; break;
        case S::LanemaskEq: v = uint64_t{1} << l; break;
        case S::LanemaskLe: v = (uint64_t{2} << l) - 1; break;
        case S::LanemaskLt: v = (uint64_t{1} << l) - 1; break;
        case S::LanemaskGe: v = ~((uint64_t{1} << l) - 1); break;
        case S::LanemaskGt: v = ~((uint64_t{2} << l) - 1); break;
        case S::DynamicSmemSize: v = launch_.dynamic_shared; break;
        case S::TotalSmemSize: v = shared.total_smem_size(); break;
        case S::AggrSmemSize: v = shared.aggr_smem_size(); break;
        case S::ReservedSmemBegin: v = shared.reserved_begin; break;
        case S::ReservedSmemEnd: v = shared.reserved_begin + kReservedSharedBytes; break;
        case S::ReservedSmemCap: v = kReservedSharedBytes; break;
        // Two slots of the region: the first half, and the second (cooperative groups' tile
        // barriers, which need at most 288 bytes).
        case S::ReservedSmemOffset: v = shared.reserved_begin + s.index * (kReservedSharedBytes / 2); break;
        case S::CurrentGraphExec: v = 0; break;  // the engine does not know a launch's graph
        case S::IsExplicitCluster: v = hints.explicitcluster || hints.reqnctapercluster.has_value(); break;
        case S::Pm: case S::Pm64: v = 0; break;  // no profiler has configured the counters
        case S::ClusterCtaRank: case S::ClusterCtaidX: case S::ClusterCtaidY: case S::ClusterCtaidZ: v = 0; break;
        case S::ClusterNCtaRank: case S::ClusterNCtaidX: case S::ClusterNCtaidY: case S::ClusterNCtaidZ: v = 1; break;
        case S::EnvReg: v = options_.envreg.at(s.index); break;
        case S::Clock: case S::Clock64: case S::GlobalTimer: case S::ClockHi: case S::GlobalTimerLo:
        case S::GlobalTimerHi: v = 0; break;
      }
      if (s.reg >= S::LanemaskEq && s.reg <= S::LanemaskGt) v &= full_mask(width);  // lanes that exist
      d[l] = v;
    }
    if (!per_lane) std::fill_n(d + 1, width - 1, d[0]);
  }
}

template <bool kCountWrites>
void CtaRunner::run_warp(Warp& w, CtaState& cta, RunCounters& counters) {
  const ExecInst* code = kernel_.code.data();
  uint64_t warp_count = 0, thread_count = 0, write_count = 0;
  [[maybe_unused]] const uint8_t* writes = kCountWrites ? options_.global_writes->data() : nullptr;
  const uint8_t* flags = turn_flags_.data();
  const uint8_t park = parking_ ? kParks : 0;
  ir::Pc pc = w.pc;  // of the instruction running: faults are reported there
  try {
    for (uint32_t budget = options_.time_slice; budget != 0 && w.status == Warp::Status::Running; --budget) {
      pc = w.pc;
      const ExecInst& in = code[pc];
      const LaneMask m = guarded_lanes(in, w);
      w.exec = m;
      ++warp_count;
      thread_count += static_cast<uint64_t>(std::popcount(m));
      if (trace_) (*trace_)(trace_record(cta, w));
      if constexpr (kCountWrites) write_count += m != 0 ? writes[pc] : 0;
      const uint8_t f = flags[pc];
      if ((f & park) != 0 && m != 0) [[unlikely]] {
        // Counted and traced now; the handler runs at commit_parked(), with these lanes.
        // The registers stay as they are until it runs, so its bytes are known now.
        const uint32_t bytes = store_bytes_.empty() ? 0 : store_bytes_[pc];
        parked_.push_back({w.warp_id, pc, m, bytes != 0 ? memory::plain_store_footprint(in, w, m, bytes) : ParkedFootprint{}});
        warp_parked_[w.warp_id] = 1;
        advance_past(w);
        ++w.clock;
        break;
      }
      execute(in, w, m);
      ++w.clock;
      if (f != 0) break;
    }
  } catch (FaultException& f) {
    counters.warp_instructions += warp_count;
    counters.thread_instructions += thread_count;
    counters.global_writes += write_count;
    counters.divergence += w.divergence->take_counters();
    throw LaunchFault{std::move(f.fault), w.warp_id, pc, {}};
  }
  counters.warp_instructions += warp_count;
  counters.thread_instructions += thread_count;
  counters.global_writes += write_count;
  counters.divergence += w.divergence->take_counters();
}

void CtaRunner::run(CtaState& cta, RunCounters& counters) {
  start(cta);
  while (turn(cta, counters) != TurnResult::Exited) {
  }
}

CtaRunner::TurnResult CtaRunner::turn(CtaState& cta, RunCounters& counters) {
  if (forms_warps_) return formed_turn(cta, counters);
  bool ran = false;
  bool all_exited = true;
  for (Warp& w : warps_) {
    if (w.status == Warp::Status::Exited) continue;
    all_exited = false;
    if (w.status != Warp::Status::Running || warp_parked_[w.warp_id] != 0) continue;
    ran = true;
    if (options_.global_writes != nullptr) {
      run_warp<true>(w, cta, counters);
    } else {
      run_warp<false>(w, cta, counters);
    }
  }
  if (all_exited) return TurnResult::Exited;
  if (!ran) {
    if (!parked_.empty()) return TurnResult::Parked;
    report_deadlock(cta);
  }
  return TurnResult::Ran;
}

void CtaRunner::commit_one(size_t i) {
  const ParkedInstruction p = parked_[i];
  warp_parked_[p.warp] = 0;
  try {
    run_deferred(kernel_.code[p.pc], warps_[p.warp], p.lanes);
  } catch (FaultException& f) {
    // The launch stops here: the instructions parked after this one never run.
    for (size_t j = i + 1; j < parked_.size(); ++j) warp_parked_[parked_[j].warp] = 0;
    parked_.clear();
    throw LaunchFault{std::move(f.fault), p.warp, p.pc, {}};
  }
}

void CtaRunner::commit_parked() {
  for (size_t i = 0; i < parked_.size(); ++i)
    if (!parked_[i].done) commit_one(i);
  parked_.clear();
}

void CtaRunner::append_footprints(std::vector<ParkedFootprint>& out) const {
  for (const ParkedInstruction& p : parked_) out.push_back(p.footprint);
}

void CtaRunner::commit_independent(const uint8_t* independent) {
  for (size_t i = 0; i < parked_.size(); ++i) {
    if (independent[i] == 0) continue;
    commit_one(i);
    parked_[i].done = true;
  }
}

void CtaRunner::check_deadlock(const CtaState& cta) {
  bool live = false;
  for (const Warp& w : warps_) {
    if (w.status == Warp::Status::Running) return;
    live |= w.status != Warp::Status::Exited;
  }
  if (live) report_deadlock(cta);
}

void CtaRunner::report_deadlock(const CtaState& cta) {
  LaunchFault f;
  f.fault.kind = FaultKind::Deadlock;
  f.fault.detail = "every live warp waits at a barrier that can no longer complete";
  for (const Warp& w : warps_) {
    if (w.status == Warp::Status::Exited) continue;
    f.warp_states.push_back(fmt::format("warp {}: pc {} active {:#x} waiting at barrier {} ({} of {} warps arrived)",
                                        w.warp_id, w.barrier_pc, w.active, w.barrier_id,
                                        cta.barriers.state()[w.barrier_id].arrived, cta.live_warps));
  }
  for (const Warp& w : warps_) {
    if (w.status == Warp::Status::Exited) continue;
    f.warp = w.warp_id;
    f.pc = w.barrier_pc;
    break;
  }
  throw f;
}

}  // namespace lockstep::func
