#include "sim/sm.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "fmt/format.h"
#include "func/divergence/divergence_unit.h"
#include "func/step.h"
#include "sim/pending_kind.h"

namespace lockstep::sim {

namespace {

// Where a kernel's code lives for the memory hierarchy: its own window above the data, placed by
// a hash of its name so that every run (and every SM) agrees, and different kernels' code does
// not share lines.
uint64_t code_base(const func::BoundKernel& kernel) {
  uint64_t hash = 1469598103934665603ull;  // FNV-1a
  for (char c : kernel.program->name) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return (uint64_t{1} << 57) + (hash % 4096) * (uint64_t{1} << 28);
}

// Stalls that only a completion of the warp's own writes can end.
bool is_dependency_stall(StallReason r) {
  return r == StallReason::kExecutionDependency || r == StallReason::kMemoryDependency ||
         r == StallReason::kTexture || r == StallReason::kScoreboardFull;
}

ExecutionUnitOptions unit_options(const config::UnitTiming& u) {
  return {u.latency, u.initiation_interval, u.lanes};
}

OperandCollectorOptions collector_options(const config::GpuConfig& gpu, const RegisterSpace& regs) {
  return {gpu.timing.register_banks, gpu.timing.bank_reads_per_cycle, gpu.timing.bank_by_warp,
          gpu.timing.collector_units, regs.slot_count};
}

// Warp slots per SM: sm.max_warps rounded up to a whole number per scheduler partition.
uint32_t warp_slots(const config::GpuConfig& gpu) {
  const uint32_t partitions = gpu.sm.schedulers;
  return (gpu.sm.max_warps + partitions - 1) / partitions * partitions;
}

}  // namespace

Sm::Sm(uint32_t id, const SmContext& context, uint64_t available_from)
    : id_(id),
      ctx_(context),
      memory_(context.launch->memory->memory()),
      launch_(*context.launch),
      partitions_count_(context.gpu->sm.schedulers),
      issue_width_(context.gpu->sm.issue_width),
      registers_per_warp_(std::max(1u, context.regs.total())),
      ibuffer_({warp_slots(*context.gpu), context.gpu->timing.ibuffer_entries}),
      // Results in flight: room for 8 per warp slot before the storage would grow.
      writeback_({partitions_count_, context.gpu->timing.writeback_ports, size_t{warp_slots(*context.gpu)} * 8}) {
  const config::GpuConfig& gpu = *ctx_.gpu;
  const uint32_t per_partition = (gpu.sm.max_warps + partitions_count_ - 1) / partitions_count_;
  const uint32_t slots = per_partition * partitions_count_;
  const config::GpuConfig::Pipeline& pipe = gpu.pipeline;
  partitions_.reserve(partitions_count_);
  for (uint32_t p = 0; p < partitions_count_; ++p) {
    Partition& part = partitions_.emplace_back(per_partition, collector_options(gpu, ctx_.regs));
    part.scheduler = make_warp_scheduler(gpu.timing.warp_scheduler, {per_partition, gpu.timing.fetch_group_size});
    for (const config::UnitTiming* u : {&pipe.integer, &pipe.fp32, &pipe.fp64, &pipe.sfu, &pipe.tensor, &pipe.ldst})
      part.units.emplace_back(unit_options(*u));
    part.held.assign(per_partition, StallReason::kNotSelected);
  }
  warps_.resize(slots);
  async_ = AsyncCopies(slots);
  launch_.memory = &memory_;
  if (ctx_.ldst != nullptr) {
    LdstUnitOptions o = *ctx_.ldst;
    o.sm = id_;
    o.memory = &memory_.memory();
    ldst_ = std::make_unique<LdstUnit>(o);
    code_base_ = code_base(*ctx_.kernel);
    launch_.access_log = &access_log_;
    waiting_access_.resize(o.in_flight);
    for (std::vector<Completion>& w : waiting_access_) w.reserve(1);
  }
  deferred_.reserve(slots);  // a warp issues at most once per cycle
  if (ctx_.trace != nullptr) trace_out_.reserve(static_cast<size_t>(partitions_count_) * issue_width_);
  trace_buffer_ = [this](const func::TraceRecord& r) { trace_out_.push_back(r); };
  ctas_.resize(ctx_.blocks_per_sm);
  placed_.reserve(ctx_.blocks_per_sm);
  func::RunOptions run = ctx_.run;
  run.sm_id = id_;
  run.sm_count = gpu.gpu.sm_count;
  for (CtaSlot& c : ctas_) {
    c.runner = std::make_unique<func::CtaRunner>(*ctx_.kernel, launch_, run, ctx_.trace);
    c.cta.shared_size = ctx_.shared_size;
  }
  ScoreboardOptions sb;
  sb.warps = slots;
  sb.registers_per_warp = registers_per_warp_;
  sb.rid_entries = gpu.timing.rid_entries;
  // sbi, swi: a sibling pair's joined operands are one more decoded instruction of the warp
  // (sm_co_issue.cpp), beside its I-buffer's.
  const bool co_issues =
      func::divergence_unit(ctx_.run.divergence.name).traits.co_issue != func::DivergenceTraits::CoIssue::None;
  sb.decoded_per_warp = gpu.timing.ibuffer_entries + (co_issues ? 1 : 0);
  scoreboard_ = make_scoreboard(gpu.timing.scoreboard, sb);
  pending_kind_.assign(static_cast<size_t>(slots) * sb.registers_per_warp, kNotPending);
  const uint32_t code_size = static_cast<uint32_t>(ctx_.timing->size());
  fetch_next_pc_.resize(code_size);
  for (uint32_t pc = 0; pc < code_size; ++pc) fetch_next_pc_[pc] = next_unfolded(pc + 1);
  FetchUnitOptions fetch;
  fetch.partitions = partitions_count_;
  fetch.warp_slots = slots;
  fetch.fetch_width = gpu.timing.fetch_width;
  fetch.next_pc = &fetch_next_pc_;
  fetch.timing = ctx_.timing;
  fetch.next_level = ldst_.get();
  fetch.code_base = code_base_;
  fetch_ = std::make_unique<FetchUnit>(fetch,
                                       InstructionCacheOptions{gpu.icache.sets, gpu.icache.ways, gpu.icache.line_bytes,
                                                               gpu.icache.miss_latency, gpu.icache.replacement,
                                                               ctx_.ldst != nullptr},
                                       ibuffer_, *scoreboard_);
  finished_.reserve(ctas_.size());
  idle_since_ = available_from;
}

void Sm::place_block(uint64_t block, uint64_t cycle) {
  charge_idle_until(cycle);  // before the block counts: the stretch up to `cycle` was idle
  placed_.push_back({block, cycle});
}

void Sm::start_block(uint64_t block, uint64_t cycle) {
  auto free_cta = std::find_if(ctas_.begin(), ctas_.end(), [](const CtaSlot& c) { return !c.busy; });
  if (free_cta == ctas_.end()) throw std::logic_error(fmt::format("SM {}: no free block slot", id_));
  CtaSlot& c = *free_cta;
  const uint32_t* grid = launch_.grid;
  c.busy = true;
  c.block = block;
  c.cta.linear_id = static_cast<uint32_t>(block);
  c.cta.ctaid[0] = static_cast<uint32_t>(block % grid[0]);
  c.cta.ctaid[1] = static_cast<uint32_t>(block / grid[0] % grid[1]);
  c.cta.ctaid[2] = static_cast<uint32_t>(block / (uint64_t{grid[0]} * grid[1]));
  c.cta.shared.assign(c.cta.shared_size, 0);
  c.runner->start(c.cta);
  c.forms = c.runner->forms_warps();
  if (c.forms) ++forming_blocks_;
  c.planned = false;
  c.asleep = 0;
  std::vector<func::Warp>& block_warps = c.runner->warps();
  c.warp_slots.resize(block_warps.size());
  uint32_t next_free = 0;
  for (size_t i = 0; i < block_warps.size(); ++i) {
    while (next_free < warps_.size() && warps_[next_free].resident) ++next_free;
    if (next_free == warps_.size()) throw std::logic_error(fmt::format("SM {}: no free warp slot", id_));
    WarpSlot& ws = warps_[next_free];
    ws = WarpSlot{};
    ws.resident = true;
    ws.cta_slot = static_cast<uint32_t>(free_cta - ctas_.begin());
    ws.formed = c.forms;
    ws.warp = &block_warps[i];
    fetch_->add_warp(next_free, ws.warp->pc, cycle + ctx_.gpu->timing.block_launch_cycles);
    run_folded(next_free);  // the moves the entry starts with: the warp begins past them
    c.warp_slots[i] = next_free;
    Partition& part = partitions_[partition_of(next_free)];
    part.resident.set(local_of(next_free));
    part.running.set(local_of(next_free));  // finish_block left it holding nothing
    part.scheduler->on_warp_added(local_of(next_free), block_age_);
  }
  mark_dirty();
  ++block_age_;
  ++resident_blocks_;
  resident_warps_ += static_cast<uint32_t>(block_warps.size());
}

bool Sm::cycle(uint64_t now) {
  for (const PlacedBlock& p : placed_) start_block(p.block, p.cycle);
  placed_.clear();
  finished_.clear();
  bool changed = false;
  if (ldst_ != nullptr) {
    // The scans read only the unit's room (memory throttle); its other progress reaches the
    // warps as completions (writeback) and fills (take_instruction_fills), which mark their own.
    const bool room = ldst_->can_accept();
    changed = ldst_->tick(now);
    if (ldst_->can_accept() != room) mark_dirty();
    take_finished_accesses(now);
    take_instruction_fills(now);
  }
  changed |= writeback(now);
  changed |= plan_formed_issues(now);
  if (resident_warps_ != charged_resident_) {  // the warps the issue stage charges a reason to
    charge_residency(now);
    charged_resident_ = resident_warps_;
  }
  for (uint32_t p = 0; p < partitions_count_; ++p) changed |= issue(p, now);
  changed |= fetch(now);
  if (idle()) {
    idle_since_ = now + 1;
    stop_charging(now + 1);
  }
  changed |= !finished_.empty();
  if (!changed && !idle()) {  // the launch asks an unchanged SM that still holds work (next_change)
    own_next_change_ = own_next_change(now);
    own_next_change_of_ = now;
  }
  return changed;
}

bool Sm::commit() {
  bool accesses = false;
  if (deferred_logs_.size() < deferred_.size()) deferred_logs_.resize(deferred_.size());  // grows once
  for (size_t i = 0; i < deferred_.size(); ++i) {
    const Deferred& d = deferred_[i];
    const WarpSlot& ws = warps_[d.warp_slot];
    access_log_.clear();
    try {
      func::run_deferred(ctx_.kernel->code[d.pc], *ws.warp, d.lanes);
    } catch (func::FaultException& f) {
      fail(ws.cta_slot, func::LaunchFault{std::move(f.fault), ws.warp->warp_id, d.pc, {}});
    }
    run_folded(d.warp_slot);  // the folded moves after it (after_issue left them)
    Partition& part = partitions_[partition_of(d.warp_slot)];
    part.dirty = true;  // they may have moved the warp off its fetched path
    if (d.access != kNoAccess) {
      std::swap(access_log_, deferred_logs_[i]);  // kept for commit_accesses; both keep their capacity
      accesses = true;
    }
  }
  if (!accesses) deferred_.clear();
  for (const func::TraceRecord& r : trace_out_) (*ctx_.trace)(r);
  trace_out_.clear();
  return accesses;
}

void Sm::commit_accesses() {
  // Their accesses enter the LD/ST unit: the scans see that only through its room.
  const bool room = ldst_->can_accept();
  for (size_t i = 0; i < deferred_.size(); ++i) {
    const Deferred& d = deferred_[i];
    if (d.access == kNoAccess) continue;
    ldst_->add(d.access, deferred_logs_[i], d.warp_slot);
    if (d.close) ldst_->close(d.access);
  }
  if (ldst_->can_accept() != room) mark_dirty();
  deferred_.clear();
}

void Sm::charge_idle_until(uint64_t cycle) {
  if (!idle() || cycle <= idle_since_) return;
  stats_.scheduler_stalls[static_cast<size_t>(StallReason::kNoWarp)] += uint64_t{partitions_count_} * (cycle - idle_since_);
  idle_since_ = cycle;
}

void Sm::charge_scan(Partition& part, uint64_t cycle) {
  if (cycle <= part.charged_from) return;
  const uint64_t cycles = cycle - part.charged_from;
  part.charged_from = cycle;
  if (!part.charging) return;
  for (uint32_t m = part.scan_present; m != 0; m &= m - 1) {
    const auto i = static_cast<size_t>(std::countr_zero(m));
    stats_.warp_stalls[i] += part.scan_warp_stalls[i] * cycles;
  }
  stats_.scheduler_stalls[part.scan_reason] += cycles;
}

void Sm::charge_residency(uint64_t cycle) {
  if (cycle <= residency_from_) return;
  const uint64_t cycles = cycle - residency_from_;
  residency_from_ = cycle;
  stats_.resident_warp_cycles += uint64_t{charged_resident_} * cycles;
  if (charged_resident_ != 0) stats_.active_sm_cycles += cycles;
}

void Sm::stop_charging(uint64_t cycle) {
  for (Partition& part : partitions_) {
    charge_scan(part, cycle);
    part.charging = false;
  }
  charge_residency(cycle);
  charged_resident_ = 0;
}

void Sm::charge_until(uint64_t cycle) {
  charge_idle_until(cycle);
  for (Partition& part : partitions_) charge_scan(part, cycle);
  charge_residency(cycle);
}

bool Sm::writeback(uint64_t now) {
  // A result held back by a full write port needs nothing here: its partition wrote another
  // result this cycle, which marks the partition dirty.
  if (!writeback_.tick(now)) return false;
  for (const Completion& c : writeback_.retired()) {
    Partition& part = partitions_[partition_of(c.warp_slot)];
    part.dirty = true;
    const size_t base = static_cast<size_t>(c.warp_slot) * registers_per_warp_;
    for (uint32_t i = 0; i < c.writes.count; ++i) {
      const WriteHandle& h = c.writes.handles[i];
      scoreboard_->release(c.warp_slot, h);
      std::fill_n(pending_kind_.begin() + static_cast<std::ptrdiff_t>(base + h.range.first), h.range.count,
                  kNotPending);
    }
    static_assert(AsyncCopies::kNoCopy == Completion{}.async_copy, "a completion carries no copy by default");
    if (c.async_copy != AsyncCopies::kNoCopy) {
      async_.completed(c.async_copy);
      mark_dirty();  // its waits, and mbarrier tests of any warp of the block, may issue now
    }
    WarpSlot& ws = warps_[c.warp_slot];
    if (ws.formed) mark_dirty();  // a formed warp in another partition may wait on this write
    end_dependency_hold(c.warp_slot);
    --ws.in_flight;
    if (c.memory) --ws.memory_in_flight;
    if (c.long_latency) part.scheduler->on_long_latency_done(local_of(c.warp_slot));
    if (ws.in_flight == 0 && ws.warp->status == func::Warp::Status::Exited) finish_block(ws.cta_slot);
  }
  return true;
}

bool Sm::issue(uint32_t p, uint64_t now) {
  Partition& part = partitions_[p];
  if (!part.dirty && now < part.scan_valid_until) return false;  // the last scan still charges
  charge_scan(part, now);
  part.ready.clear();
  // The held warps are charged their reasons without a visit: no time it reads can end a hold.
  StallCounts mine = part.held_counts;
  uint32_t present = part.held_present;  // a bit per reason that may have a warp
  uint64_t valid_until = UINT64_MAX;  // the first cycle at which a reason found here may change
  for (uint32_t local = part.running.next(0); local != kNoWarp; local = part.running.next(local + 1)) {
    StallReason r;
    const uint32_t slot = slot_of(p, local);
    WarpSlot& ws = warps_[slot];
    if (ws.busy_until > now) {
      r = StallReason::kPipelineBusy;
    } else {
      r = classify(slot, now, &ws.busy_until);
      // A formed warp's dependency may be another member's write: not held.
      if (is_dependency_stall(r) && !ws.formed) set_held(slot, r);
    }
    ++mine[static_cast<size_t>(r)];
    present |= reason_bit(r);
    if (r == StallReason::kNotSelected) part.ready.set(local);
    if (fetch_->ready_at(slot) > now) valid_until = std::min(valid_until, fetch_->ready_at(slot));
    if (ws.ready_at > now) valid_until = std::min(valid_until, ws.ready_at);
    if (ws.busy_until > now) valid_until = std::min(valid_until, ws.busy_until);
  }
  uint32_t issued = 0;
  while (issued < issue_width_) {
    const uint32_t chosen = part.scheduler->select(part.ready);
    if (chosen == kNoWarp) break;
    part.ready.reset(chosen);
    const uint32_t slot = slot_of(p, chosen);
    --mine[static_cast<size_t>(StallReason::kNotSelected)];
    if (issued != 0) {  // an earlier issue this cycle may have taken what this warp needs
      const StallReason r = classify(slot, now);
      if (r != StallReason::kNotSelected) {
        ++mine[static_cast<size_t>(r)];
        present |= reason_bit(r);
        continue;
      }
    }
    ++mine[static_cast<size_t>(StallReason::kIssued)];
    present |= reason_bit(StallReason::kIssued);
    issue_instruction(slot, now);
    ++issued;
  }
  // The scheduler's reason: issued, or (no warp) kNoWarp, or the most common reason among its
  // warps (the first in the category order on a tie; a reason with a warp is in `present`).
  // (An issue may have ended the partition's last block: it still counts as issued.)
  size_t reason = static_cast<size_t>(StallReason::kIssued);
  if (issued == 0 && part.resident.empty()) {
    reason = static_cast<size_t>(StallReason::kNoWarp);
  } else if (issued == 0) {
    reason = static_cast<size_t>(std::countr_zero(present));
    for (uint32_t m = present & (present - 1); m != 0; m &= m - 1) {
      const auto i = static_cast<size_t>(std::countr_zero(m));
      if (mine[i] > mine[reason]) reason = i;
    }
  }
  // Charged from this cycle on, until the next scan: the next cycle when this one issued. Only
  // the reasons present are kept and charged (a scan finds a few of the sixteen).
  for (uint32_t m = present; m != 0; m &= m - 1) {
    const auto i = static_cast<size_t>(std::countr_zero(m));
    part.scan_warp_stalls[i] = mine[i];
  }
  part.scan_present = present;
  part.scan_reason = reason;
  part.charging = true;
  if (issued == 0) {
    // Nothing issued, so nothing but time and the events that mark the partition dirty can
    // change what this scan found: the units and collectors freeing are the time it reads.
    for (const ExecutionUnit& u : part.units) valid_until = std::min(valid_until, u.next_event(now));
    valid_until = std::min(valid_until, part.collector.next_event(now));
    part.dirty = false;
    part.scan_valid_until = valid_until;
  }
  return issued != 0;
}

void Sm::issue_instruction(uint32_t slot, uint64_t now) {
  // An issue changes what its own partition's scan found (a unit's slot, a collector, the
  // warp's I-buffer). The state that the other partitions' scans read changes only through the
  // LD/ST unit's room, a CTA barrier's release or a block's end: those mark every partition
  // (below, after_issue and finish_block). A formed warp's members sit in several partitions.
  if (warps_[slot].formed) {
    mark_dirty();
    return issue_formed(slot, now);
  }
  WarpSlot& ws = warps_[slot];
  Partition& part = partitions_[partition_of(slot)];
  part.dirty = true;
  const uint32_t local = local_of(slot);
  func::Warp& w = *ws.warp;
  const IBufferEntry head = issue_head(slot);
  if (head.pc != w.pc)
    throw std::logic_error(fmt::format("SM {}: warp slot {} issues PC {} but is at PC {}", id_, slot, head.pc, w.pc));
  const InstTiming& t = (*ctx_.timing)[head.pc];
  const Reservation writes = scoreboard_->reserve(slot, t.operands, head.token);

  // Execute at issue.
  const func::ExecInst& in = ctx_.kernel->code[head.pc];
  const func::LaneMask lanes = func::guarded_lanes(in, w);
  const uint32_t copy =
      t.async == ir::AsyncOp::None ? AsyncCopies::kNoCopy : async_.issue(slot, ws.cta_slot, t, in, w, lanes);
  // The divergence unit's depth only matters when its changes cost cycles (and asking reaches
  // into the unit, off the SM's own state).
  const bool charge_depth = ctx_.gpu->timing.simt_push_cycles != 0 || ctx_.gpu->timing.simt_pop_cycles != 0;
  const size_t depth_before = charge_depth ? w.divergence->depth() : 0;
  w.clock = now;
  w.exec = lanes;
  if (ctx_.trace != nullptr) trace_out_.push_back(func::trace_record(ctas_[ws.cta_slot].cta, w));
  ++stats_.warp_instructions;
  stats_.thread_instructions += static_cast<uint64_t>(std::popcount(lanes));
  const bool ldst = through_ldst(t);
  const bool room = ldst && ldst_->can_accept();
  const uint32_t access = ldst ? ldst_->accept(now, ldst_request(t)) : kNoAccess;
  PendingKind kind = pending_kind(t);
  if (t.deferred) {
    deferred_.push_back({slot, head.pc, lanes, access});
    func::advance_past(w);
  } else {
    access_log_.clear();
    try {
      func::execute(in, w, lanes);
    } catch (func::FaultException& f) {
      stats_.divergence += w.divergence->take_counters();
      fail(ws.cta_slot, func::LaunchFault{std::move(f.fault), w.warp_id, head.pc, {}});
    }
    if (ldst) {
      // A constant load that misses the constant cache: its dependants wait on constant_miss.
      if (t.space == MemorySpace::kConstant && ldst_->constant_misses(access_log_)) kind = kConstantMissing;
      ldst_->add(access, access_log_, slot);
      ldst_->close(access);
    }
  }
  if (ldst && ldst_->can_accept() != room) mark_dirty();
  const size_t base = static_cast<size_t>(slot) * registers_per_warp_;
  for (uint32_t i = 0; i < writes.count; ++i) {
    const RegRange& r = writes.handles[i].range;
    std::fill_n(pending_kind_.begin() + static_cast<std::ptrdiff_t>(base + r.first), r.count, kind);
  }

  const uint64_t dispatch = part.collector.accept(now, {local, &t.operands});
  ExecutionUnit& unit = part.units[static_cast<size_t>(t.unit)];
  uint64_t done = unit.accept(dispatch, w.width);
  const bool memory = t.space != MemorySpace::kNone;
  if (ldst) {
    // The LD/ST unit decides when it is done (take_finished_accesses).
    waiting_access_[access].assign(1, Completion{0, 0, slot, true, t.long_latency, writes, copy});
    ++ws.in_flight;
    ++ws.memory_in_flight;
  } else if (writes.count != 0 || memory) {
    if (memory) done = std::max(done, dispatch + t.memory_latency);
    writeback_.accept(now, Completion{done, 0, slot, memory, t.long_latency, writes, copy});
    ++ws.in_flight;
    if (memory) ++ws.memory_in_flight;
  }
  if (t.long_latency) part.scheduler->on_long_latency(local);
  part.scheduler->on_issue(local, now);
  after_issue(slot, now, depth_before, t);
  if (t.sleeps) sleep(slot, now, func::nanosleep_ns(in, w, lanes));
}

void Sm::take_finished_accesses(uint64_t now) {
  for (const FinishedAccess& f : ldst_->finished()) {
    for (Completion c : waiting_access_[f.id]) {
      c.cycle = std::max(c.cycle, f.cycle);  // not before its cycle: an sbi pair's other path (0 otherwise)
      writeback_.accept(now, c);
    }
  }
}

void Sm::after_issue(uint32_t slot, uint64_t now, size_t depth_before, const InstTiming& t) {
  WarpSlot& ws = warps_[slot];
  func::Warp& w = *ws.warp;
  CtaSlot& c = ctas_[ws.cta_slot];
  if (w.status == func::Warp::Status::Exited) {
    flush(slot);
    set_held(slot, StallReason::kExited);  // final: the scans skip the warp from now on
  } else {
    // Still on the fetched path? A taken branch, a reconvergence or a call moved the PC.
    if (!t.deferred) {
      run_folded(slot);
    } else {  // its folded moves wait for commit(); fetch has skipped them already
      const uint32_t next = next_unfolded(w.pc);
      if (!ibuffer_.empty(slot) ? ibuffer_.head(slot).pc != next : fetch_->fetch_pc(slot) != next) flush(slot);
    }
    const uint64_t push = ctx_.gpu->timing.simt_push_cycles, pop = ctx_.gpu->timing.simt_pop_cycles;
    const size_t depth = push != 0 || pop != 0 ? w.divergence->depth() : depth_before;
    ws.sleeping = false;
    if (depth > depth_before && push != 0) ws.ready_at = now + 1 + push * (depth - depth_before);
    if (depth < depth_before && pop != 0) ws.ready_at = now + 1 + pop * (depth_before - depth);
    latest_ready_at_ = std::max(latest_ready_at_, ws.ready_at);
  }
  // A barrier instruction or an exit may have released the block's barrier (func/barrier.h).
  if (t.cta_barrier || w.status == func::Warp::Status::Exited) {
    end_barrier_holds(ws.cta_slot);
    mark_dirty();  // the block's warps in other partitions may be released
  }
  if (w.status == func::Warp::Status::AtBarrier) set_held(slot, StallReason::kBarrier);
  if (w.status != func::Warp::Status::Running) {
    try {
      c.runner->check_deadlock(c.cta);
    } catch (func::LaunchFault& f) {
      fail(ws.cta_slot, std::move(f));
    }
  }
  if (w.status == func::Warp::Status::Exited && ws.in_flight == 0) finish_block(ws.cta_slot);
}

void Sm::sleep(uint32_t slot, uint64_t now, uint32_t ns) {
  WarpSlot& ws = warps_[slot];
  const uint64_t cycles = (uint64_t{ns} * ctx_.gpu->gpu.core_clock_mhz + 999) / 1000;
  if (now + 1 + cycles <= ws.ready_at) return;  // a stack cost holds it longer
  ws.ready_at = now + 1 + cycles;
  ws.sleeping = true;
  latest_ready_at_ = std::max(latest_ready_at_, ws.ready_at);
}

IBufferEntry Sm::issue_head(uint32_t slot) {
  end_dependency_hold(slot);
  warps_[slot].head_clear = false;
  ibuffer_.set_ready(slot, 0, true);
  const IBufferEntry head = ibuffer_.pop(slot);
  fetch_->on_room(slot);
  return head;
}

void Sm::flush(uint32_t slot) {
  ibuffer_.flush(slot, [&](const IBufferEntry& e) { scoreboard_->discard(slot, e.token); });
  warps_[slot].head_clear = false;
  end_dependency_hold(slot);
  fetch_->redirect({slot, next_unfolded(warps_[slot].warp->pc)});
}

void Sm::finish_block(uint32_t cta_slot) {
  CtaSlot& c = ctas_[cta_slot];
  if (c.planned) return;  // formed warps of the last issue still to issue
  for (uint32_t slot : c.warp_slots) {
    const WarpSlot& ws = warps_[slot];
    if (ws.warp->status != func::Warp::Status::Exited || ws.in_flight != 0) return;
  }
  for (uint32_t slot : c.warp_slots) {
    // What the warp's divergence unit counted, taken once the warp is done (asking at every
    // issue would reach into the unit, off the SM's own state, on the per-cycle path).
    stats_.divergence += warps_[slot].warp->divergence->take_counters();
    warps_[slot].resident = false;
    fetch_->remove_warp(slot);
    async_.clear_warp(slot);
    Partition& part = partitions_[partition_of(slot)];
    set_held(slot, StallReason::kNotSelected);
    part.resident.reset(local_of(slot));
    part.running.reset(local_of(slot));
    part.scheduler->on_warp_removed(local_of(slot));
  }
  if (c.forms) {
    stats_.divergence += c.runner->take_stack_counters();
    --forming_blocks_;
  }
  mark_dirty();
  resident_warps_ -= static_cast<uint32_t>(c.warp_slots.size());
  --resident_blocks_;
  c.busy = false;
  finished_.push_back(c.block);
}

void Sm::fail(uint32_t cta_slot, func::LaunchFault fault) const {
  TimingFault f;
  f.fault = std::move(fault);
  f.cta.ctaid[0] = ctas_[cta_slot].cta.ctaid[0];
  f.cta.ctaid[1] = ctas_[cta_slot].cta.ctaid[1];
  f.cta.ctaid[2] = ctas_[cta_slot].cta.ctaid[2];
  f.cta.linear_id = ctas_[cta_slot].cta.linear_id;
  f.grid = ctx_.launch;
  throw f;
}

}  // namespace lockstep::sim
