#include "sim/timing_launch.h"

#include <cassert>
#include <memory>
#include <stdexcept>
#include <vector>

#include "fmt/format.h"
#include "func/shared_layout.h"
#include "sim/cta_scheduler/cta_scheduler.h"
#include "sim/instruction_timing.h"
#include "sim/launch_watchdog.h"
#include "sim/memory_config.h"
#include "sim/memory_figures.h"
#include "sim/occupancy.h"
#include "sim/sm_stepper.h"

namespace lockstep::sim {

namespace {

// The first cycle SM `sm` may take a block of this launch (TimingLaunch::sm_available).
uint64_t available_from(const TimingLaunch& l, size_t sm) { return l.sm_available.empty() ? 0 : l.sm_available[sm]; }

// Steps the SMs cycle by cycle until every block of the launch is done; everything between the
// steps (commits, block placement, idle skipping) goes in SM order, so a run is deterministic
// for any number of stepping threads. An SM the launch before still holds takes its first
// blocks when it frees. An SM is built when its first block comes (`build`): until then it is
// null in `sms`, idle, and costs nothing, so a launch of a few blocks, such as most child grids,
// does not build all of the GPU's SMs.
class Driver {
 public:
  Driver(std::vector<std::unique_ptr<Sm>>& sms, std::function<std::unique_ptr<Sm>(uint32_t)> build,
         CtaScheduler& blocks, const TimingLaunch& launch, uint64_t total_blocks)
      : sms_(sms),
        build_(std::move(build)),
        stepper_(sms, launch.threads, launch.memory != nullptr ? launch.memory->partition_count() : 0),
        blocks_(blocks),
        launch_(launch),
        total_blocks_(total_blocks),
        waiting_(sms.size()),
        free_(sms.size(), 0),
        wake_(sms.size(), 0),
        idle_(sms.size(), 0),
        has_outbound_(sms.size(), 0),
        touched_(sms.size(), 0),
        delivered_(sms.size(), 0),
        memory_(launch.memory),
        memory_clock_(launch.memory_clock),
        watchdog_(launch.launch != nullptr && launch.launch->memory != nullptr ? &launch.launch->memory->memory()
                                                                               : nullptr,
                  launch.watchdog) {
    stepping_.reserve(sms.size());
    committing_.reserve(sms.size());
    delivered_to_.reserve(sms.size());
    for (size_t i = 0; i < sms.size(); ++i) {
      free_[i] = available(i);
      idle_[i] = sms[i] == nullptr || sms[i]->idle();
    }
    if (stepper_.threads() > 1)
      parallel_ = [this](uint32_t count, const std::function<void(uint32_t)>& task) { stepper_.run(count, task); };
  }

  uint64_t available(size_t sm) const { return available_from(launch_, sm); }

  void place(const CtaPlacement& p, uint64_t cycle) {
    if (available(p.sm) > cycle) {
      waiting_[p.sm].push_back(p.block);
    } else {
      start(p.sm, p.block, cycle);
    }
  }

  // Returns the last cycle.
  uint64_t run() {
    uint64_t& now = now_;
    while (true) {
      for (uint32_t i = 0; i < sms_.size(); ++i) {
        if (waiting_[i].empty() || available(i) > now) continue;
        for (uint64_t block : waiting_[i]) start(i, block, now);
        waiting_[i].clear();
      }
      stepping_.clear();
      for (uint32_t i = 0; i < sms_.size(); ++i) {
        assert(idle_[i] == (sms_[i] == nullptr || sms_[i]->idle()));
        if (idle_[i] || wake_[i] > now) continue;
        stepping_.push_back(i);
      }
      const bool changed = stepper_.step(now, stepping_);
      // The cycle's fixed point: what changes launch-wide state lands, SM by SM; then each SM's
      // stores and atomics enter its own LD/ST unit, SMs side by side.
      committing_.clear();
      for (uint32_t s : stepping_) {
        if (!stepper_.view(s).commits) continue;
        touched_[s] = 1;
        if (sms_[s]->commit()) committing_.push_back(s);
      }
      stepper_.commit_accesses(committing_);
      const bool memory_moved = exchange_memory(now);
      for (uint32_t s : stepping_) {  // the others' finished_blocks() are from an earlier cycle
        const SmStepper::StepView& view = stepper_.view(s);
        if (view.finished || touched_[s]) {
          Sm& sm = *sms_[s];
          for (size_t i = 0; i < sm.finished_blocks().size(); ++i) {
            ++done_;
            if (launch_.on_block_done) launch_.on_block_done(done_);
            if (auto next = blocks_.on_block_done(sm.id(), now)) place(*next, now + 1);
          }
        }
        // What the step saw holds unless the serial phase has changed the SM since: a commit or
        // a block placed on it (here, or by an SM before it in this loop) is read from the SM
        // again. Responses change it in a known way: its LD/ST unit is busy, and has work for
        // the next cycle (LdstUnit::next_event).
        const bool fresh = touched_[s] == 0;
        touched_[s] = 0;
        idle_[s] = fresh ? view.idle && !delivered_[s] : sms_[s]->idle();
        assert(idle_[s] == sms_[s]->idle());
        if (idle_[s]) free_[s] = now + 1;
        // An SM whose cycle changed nothing repeats it until its next change: it sleeps till
        // then, unless a response or a block wakes it first. The cycles it sleeps through are
        // charged the reasons its last scans found, when it scans again (Sm::charge_scan).
        if (!view.changed && !idle_[s]) {
          const uint64_t next = !fresh           ? sms_[s]->next_change(now)
                                : delivered_[s] ? std::min(view.next_change, now + 1)
                                                : view.next_change;
          assert(next == sms_[s]->next_change(now));
          wake_[s] = std::max(wake_[s], next);
        }
      }
      for (uint32_t s : delivered_to_) delivered_[s] = 0;
      delivered_to_.clear();
      if (blocks_.done()) return now;
      watchdog_.check(now, done_, sms_);
      if (changed || memory_moved) {
        ++now;
        continue;
      }
      uint64_t next = UINT64_MAX;
      if (memory_ != nullptr) {
        const uint64_t m = memory_->next_event(memory_clock_ + now);
        if (m != UINT64_MAX) next = m - memory_clock_;
      }
      for (size_t i = 0; i < sms_.size(); ++i) {
        if (!idle_[i]) next = std::min(next, std::max(now + 1, wake_[i]));
        if (!waiting_[i].empty()) next = std::min(next, available(i));
      }
      if (next == UINT64_MAX)
        throw std::logic_error(fmt::format("the timing model stalled at cycle {} with {} of {} blocks done", now, done_,
                                           total_blocks_));
      now = next;
    }
  }

  const std::vector<uint64_t>& sm_free() const { return free_; }
  uint64_t now() const { return now_; }  // the cycle run() is in, or returned

 private:
  // A block for SM `sm` in `cycle`: a sleeping SM wakes.
  // What its last step recorded (SmStepper::StepView) no longer holds: the SM is read again.
  void start(uint32_t sm, uint64_t block, uint64_t cycle) {
    if (sms_[sm] == nullptr) sms_[sm] = build_(sm);
    sms_[sm]->place_block(block, cycle);
    wake_[sm] = std::min(wake_[sm], cycle);
    touched_[sm] = 1;
    idle_[sm] = sms_[sm]->idle();
  }

  // The memory hierarchy's phase: each SM's misses enter the memory system in SM order, the
  // memory system steps the cycle (its partitions side by side on the stepping threads), and
  // the responses reach their SMs' LD/ST units in SM order.
  bool exchange_memory(uint64_t now) {
    if (memory_ == nullptr) return false;
    const uint64_t clock = memory_clock_ + now;
    bool moved = false;
    for (uint32_t s : stepping_)
      if (stepper_.view(s).outbound) has_outbound_[s] = 1;
    for (uint32_t s = 0; s < sms_.size(); ++s) {
      if (!has_outbound_[s]) continue;  // also misses left by a full crossbar port before
      mem::RingBuffer<mem::MemRequest>& out = sms_[s]->ldst()->outbound();
      while (!out.empty() && memory_->can_send(s)) {
        memory_->send(s, out.front(), clock);
        out.pop();
        moved = true;
      }
      has_outbound_[s] = out.empty() ? 0 : 1;
    }
    moved |= memory_->tick(clock, parallel_ ? &parallel_ : nullptr);
    for (uint32_t s = 0; s < sms_.size(); ++s) {
      if (!memory_->has_response(s, clock)) continue;
      LdstUnit* unit = sms_[s]->ldst();
      bool delivered = false;
      while (memory_->has_response(s, clock) && unit->can_deliver()) {
        unit->deliver(memory_->response(s));
        memory_->pop_response(s);
        wake_[s] = std::min(wake_[s], now + 1);
        delivered = true;
      }
      if (delivered) {
        // Its LD/ST unit now holds responses: busy, so not idle (the rest: run()'s last loop).
        idle_[s] = 0;
        delivered_[s] = 1;
        delivered_to_.push_back(s);
        moved = true;
      }
    }
    return moved;
  }

  std::vector<std::unique_ptr<Sm>>& sms_;
  std::function<std::unique_ptr<Sm>(uint32_t)> build_;
  SmStepper stepper_;
  CtaScheduler& blocks_;
  const TimingLaunch& launch_;
  uint64_t total_blocks_;
  uint64_t done_ = 0;
  uint64_t now_ = 0;
  std::vector<uint32_t> stepping_;  // this cycle: the SMs not idle, ascending
  std::vector<uint32_t> committing_;  // this cycle: the SMs with accesses to commit, ascending
  std::vector<std::vector<uint64_t>> waiting_;  // per SM: placed blocks waiting for it to free
  std::vector<uint64_t> free_;
  std::vector<uint64_t> wake_;       // per SM: the first cycle it needs a step again
  // Per SM, kept by the serial phase so that it reads an SM only where it has work with it
  // (SmStepper::StepView says why): Sm::idle(); whether its LD/ST unit may hold misses to send;
  // whether the serial phase changed it (a commit, a block) since its last step.
  std::vector<uint8_t> idle_;
  std::vector<uint8_t> has_outbound_;
  std::vector<uint8_t> touched_;
  std::vector<uint8_t> delivered_;     // responses reached it in this cycle's memory phase
  std::vector<uint32_t> delivered_to_;  // this cycle: the SMs with delivered_ set
  mem::MemorySystem* memory_;
  uint64_t memory_clock_;
  LaunchWatchdog watchdog_;
  mem::ParallelFor parallel_;  // the memory partitions on the stepping threads; empty: one thread
};

}  // namespace

TimingLaunchResult run_timing_launch(const TimingLaunch& l) {
  const config::GpuConfig& gpu = *l.gpu;
  const func::LaunchState& launch = *l.launch;
  const uint64_t threads = uint64_t{launch.block[0]} * launch.block[1] * launch.block[2];
  OccupancyRequest request;
  request.block_size = static_cast<uint32_t>(threads);
  request.registers_per_thread = l.registers_per_thread;
  request.static_shared = l.static_shared;
  // The reserved region the buffer may hold is the preset's shared_reserved_per_block, which the
  // calculator adds itself: only the kernel's own dynamic part (with its alignment) counts here.
  request.dynamic_shared = func::shared_layout(*l.kernel, launch.dynamic_shared).user_bytes - l.static_shared;
  request.max_dynamic_shared = gpu.sm.shared_per_block_optin_bytes();
  const Occupancy occupancy = compute_occupancy(gpu, request);
  if (occupancy.blocks == 0)
    throw std::invalid_argument(fmt::format(
        "a block of {} threads with {} registers per thread and {} bytes of shared memory does not fit an SM "
        "of the {} preset (limited by {})",
        threads, l.registers_per_thread, l.shared_size, gpu.preset, limit_names(occupancy.limited_by)));

  const RegisterSpace regs{l.kernel->slot_count, l.kernel->pred_count};
  const uint32_t dst_limit = gpu.timing.scoreboard == "rid-table" ? gpu.timing.rid_entries : kMaxDstRanges;
  const std::vector<InstTiming> table = instruction_timing(*l.kernel->program, gpu, regs, dst_limit);

  SmContext context;
  context.gpu = &gpu;
  context.kernel = l.kernel;
  context.launch = l.launch;
  context.run = l.run;
  context.trace = l.trace;
  context.timing = &table;
  context.regs = regs;
  context.blocks_per_sm = occupancy.blocks;
  context.shared_size = l.shared_size;
  LdstUnitOptions ldst;
  if (l.memory != nullptr) {
    ldst = ldst_unit_options(gpu, l.run.warp_size, occupancy.blocks, l.shared_size, launch.stack_size);
    context.ldst = &ldst;
  }
  std::vector<std::unique_ptr<Sm>> sms(gpu.gpu.sm_count);
  const auto build = [&](uint32_t i) { return std::make_unique<Sm>(i, context, available_from(l, i)); };

  const uint64_t total_blocks = uint64_t{launch.grid[0]} * launch.grid[1] * launch.grid[2];
  const uint64_t resident_at_once = uint64_t{occupancy.blocks} * gpu.gpu.sm_count;
  if (l.all_resident && total_blocks > resident_at_once)
    throw std::invalid_argument(fmt::format("cooperative launch of {} blocks exceeds the {} the {} preset holds at once",
                                            total_blocks, resident_at_once, gpu.preset));
  std::unique_ptr<CtaScheduler> blocks = make_cta_scheduler(gpu.timing.cta_scheduler, {gpu.gpu.sm_count});
  Driver driver(sms, build, *blocks, l, total_blocks);
  for (const CtaPlacement& p : blocks->start_launch(total_blocks, occupancy.blocks)) driver.place(p, 0);

  const MemoryTiming memory_before = l.memory != nullptr ? memory_system_figures(*l.memory) : MemoryTiming{};
  // The launch's figures once it has run through cycle `now`.
  const auto figures = [&](uint64_t now) {
    KernelTiming t;
    t.cycles = now + 1;
    t.warp_size = l.run.warp_size;
    t.sm_count = gpu.gpu.sm_count;
    t.schedulers_per_sm = gpu.sm.schedulers;
    t.issue_width = gpu.sm.issue_width;
    t.max_warps_per_sm = gpu.sm.max_warps;
    t.blocks_per_sm = occupancy.blocks;
    t.occupancy_limited_by = limit_names(occupancy.limited_by);
    t.registers_per_thread = l.registers_per_thread;
    t.registers_estimated = l.registers_estimated;
    for (uint32_t i = 0; i < sms.size(); ++i) {
      if (sms[i] == nullptr) {
        Sm::add_unbuilt_stats(t, gpu, available_from(l, i), t.cycles);
        continue;
      }
      sms[i]->charge_until(t.cycles);
      sms[i]->add_stats(t);
    }
    if (l.memory != nullptr) add_memory_system_difference(memory_system_figures(*l.memory), memory_before, t.memory);
    return t;
  };
  uint64_t now = 0;
  try {
    now = driver.run();
  } catch (TimingFault& f) {
    if (f.fault.fault.kind == func::FaultKind::Interrupted) {
      f.partial = figures(driver.now());
      f.warp_instructions = f.partial->warp_instructions;
      f.thread_instructions = f.partial->thread_instructions;
      throw;
    }
    KernelTiming partial;
    for (const auto& sm : sms)
      if (sm != nullptr) sm->add_stats(partial);
    f.warp_instructions = partial.warp_instructions;
    f.thread_instructions = partial.thread_instructions;
    f.divergence = partial.divergence;
    throw;
  }
  KernelTiming t = figures(now);
  return {t, driver.sm_free(), l.memory_clock + now + 1};
}

}  // namespace lockstep::sim
