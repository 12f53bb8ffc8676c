#include "sim/timing_launch.h"

#include <memory>
#include <stdexcept>
#include <vector>

#include "fmt/format.h"
#include "sim/cta_scheduler.h"
#include "sim/instruction_timing.h"
#include "sim/occupancy.h"
#include "sim/sm_stepper.h"

namespace lockstep::sim {

namespace {

// The first cycle SM `sm` may take a block of this launch (TimingLaunch::sm_available).
uint64_t available_from(const TimingLaunch& l, size_t sm) { return l.sm_available.empty() ? 0 : l.sm_available[sm]; }

// Steps the SMs cycle by cycle until every block of the launch is done; everything between the
// steps (commits, block placement, idle skipping) goes in SM order, so a run is deterministic
// for any number of stepping threads. An SM the launch before still holds takes its first
// blocks when it frees.
class Driver {
 public:
  Driver(std::vector<std::unique_ptr<Sm>>& sms, CtaScheduler& blocks, const TimingLaunch& launch,
         uint64_t total_blocks)
      : sms_(sms),
        stepper_(sms, launch.threads),
        blocks_(blocks),
        launch_(launch),
        total_blocks_(total_blocks),
        waiting_(sms.size()),
        free_(sms.size(), 0) {
    stepping_.reserve(sms.size());
    for (size_t i = 0; i < sms.size(); ++i) free_[i] = available(i);
  }

  uint64_t available(size_t sm) const { return available_from(launch_, sm); }

  void place(const CtaPlacement& p, uint64_t cycle) {
    if (available(p.sm) > cycle) {
      waiting_[p.sm].push_back(p.block);
    } else {
      sms_[p.sm]->start_block(p.block, cycle);
    }
  }

  // Returns the last cycle.
  uint64_t run() {
    uint64_t now = 0;
    while (true) {
      for (size_t i = 0; i < sms_.size(); ++i) {
        if (waiting_[i].empty() || available(i) > now) continue;
        for (uint64_t block : waiting_[i]) sms_[i]->start_block(block, now);
        waiting_[i].clear();
      }
      stepping_.clear();
      for (uint32_t i = 0; i < sms_.size(); ++i)
        if (!sms_[i]->idle()) stepping_.push_back(i);
      const bool changed = stepper_.step(now, stepping_);
      // The cycle's fixed point: what changes launch-wide state lands, SM by SM.
      for (uint32_t s : stepping_) sms_[s]->commit();
      for (uint32_t s : stepping_) {  // the others' finished_blocks() are from an earlier cycle
        Sm& sm = *sms_[s];
        for (size_t i = 0; i < sm.finished_blocks().size(); ++i) {
          ++done_;
          if (launch_.on_block_done) launch_.on_block_done(done_);
          if (auto next = blocks_.on_block_done(sm.id(), now)) place(*next, now + 1);
        }
        if (sm.idle()) free_[s] = now + 1;
      }
      if (blocks_.done()) return now;
      if (changed) {
        ++now;
        continue;
      }
      uint64_t next = UINT64_MAX;
      for (size_t i = 0; i < sms_.size(); ++i) {
        if (!sms_[i]->idle()) next = std::min(next, sms_[i]->next_change(now));
        if (!waiting_[i].empty()) next = std::min(next, available(i));
      }
      if (next == UINT64_MAX)
        throw std::logic_error(fmt::format("the timing model stalled at cycle {} with {} of {} blocks done", now, done_,
                                           total_blocks_));
      for (auto& sm : sms_)
        if (!sm->idle()) sm->repeat_last_cycle(next - now - 1);
      now = next;
    }
  }

  const std::vector<uint64_t>& sm_free() const { return free_; }

 private:
  std::vector<std::unique_ptr<Sm>>& sms_;
  SmStepper stepper_;
  CtaScheduler& blocks_;
  const TimingLaunch& launch_;
  uint64_t total_blocks_;
  uint64_t done_ = 0;
  std::vector<uint32_t> stepping_;  // this cycle: the SMs not idle, ascending
  std::vector<std::vector<uint64_t>> waiting_;  // per SM: placed blocks waiting for it to free
  std::vector<uint64_t> free_;
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
  request.dynamic_shared = l.shared_size - l.static_shared;
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
  std::vector<std::unique_ptr<Sm>> sms;
  sms.reserve(gpu.gpu.sm_count);
  for (uint32_t i = 0; i < gpu.gpu.sm_count; ++i)
    sms.push_back(std::make_unique<Sm>(i, context, available_from(l, i)));

  const uint64_t total_blocks = uint64_t{launch.grid[0]} * launch.grid[1] * launch.grid[2];
  const uint64_t resident_at_once = uint64_t{occupancy.blocks} * gpu.gpu.sm_count;
  if (l.all_resident && total_blocks > resident_at_once)
    throw std::invalid_argument(fmt::format("cooperative launch of {} blocks exceeds the {} the {} preset holds at once",
                                            total_blocks, resident_at_once, gpu.preset));
  std::unique_ptr<CtaScheduler> blocks = make_cta_scheduler(gpu.timing.cta_scheduler, {gpu.gpu.sm_count});
  Driver driver(sms, *blocks, l, total_blocks);
  for (const CtaPlacement& p : blocks->start_launch(total_blocks, occupancy.blocks)) driver.place(p, 0);

  uint64_t now = 0;
  try {
    now = driver.run();
  } catch (TimingFault& f) {
    KernelTiming partial;
    for (const auto& sm : sms) sm->add_stats(partial);
    f.warp_instructions = partial.warp_instructions;
    f.thread_instructions = partial.thread_instructions;
    throw;
  }

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
  for (auto& sm : sms) {
    sm->charge_idle_until(t.cycles);
    sm->add_stats(t);
  }
  return {t, driver.sm_free()};
}

}  // namespace lockstep::sim
