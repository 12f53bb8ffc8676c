#include "sim/timing_launch.h"

#include <memory>
#include <stdexcept>
#include <vector>

#include "fmt/format.h"
#include "sim/cta_scheduler.h"
#include "sim/instruction_timing.h"
#include "sim/occupancy.h"

namespace lockstep::sim {

namespace {

// Steps the SMs cycle by cycle until every block of the launch is done; `now` ends at the last
// cycle.
void run_cycles(std::vector<std::unique_ptr<Sm>>& sms, CtaScheduler& blocks, const TimingLaunch& l, uint64_t& now,
                uint64_t& done, uint64_t total_blocks) {
  std::vector<bool> stepped(sms.size(), false);
  while (true) {
    bool changed = false;
    for (size_t i = 0; i < sms.size(); ++i) {
      stepped[i] = !sms[i]->idle();
      if (stepped[i]) changed |= sms[i]->cycle(now);
    }
    for (size_t s = 0; s < sms.size(); ++s) {
      if (!stepped[s]) continue;  // its finished_blocks() are from an earlier cycle
      const auto& sm = sms[s];
      for (size_t i = 0; i < sm->finished_blocks().size(); ++i) {
        ++done;
        if (l.on_block_done) l.on_block_done(done);
        if (auto next = blocks.on_block_done(sm->id(), now)) sms[next->sm]->start_block(next->block, now + 1);
      }
    }
    if (blocks.done()) break;
    if (changed) {
      ++now;
      continue;
    }
    uint64_t next = UINT64_MAX;
    for (const auto& sm : sms)
      if (!sm->idle()) next = std::min(next, sm->next_change(now));
    if (next == UINT64_MAX)
      throw std::logic_error(fmt::format("the timing model stalled at cycle {} with {} of {} blocks done", now, done,
                                         total_blocks));
    for (auto& sm : sms)
      if (!sm->idle()) sm->repeat_last_cycle(next - now - 1);
    now = next;
  }
}

}  // namespace

KernelTiming run_timing_launch(const TimingLaunch& l) {
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
  context.code_base = l.code_base;
  std::vector<std::unique_ptr<Sm>> sms;
  sms.reserve(gpu.gpu.sm_count);
  for (uint32_t i = 0; i < gpu.gpu.sm_count; ++i) sms.push_back(std::make_unique<Sm>(i, context));

  const uint64_t total_blocks = uint64_t{launch.grid[0]} * launch.grid[1] * launch.grid[2];
  std::unique_ptr<CtaScheduler> blocks = make_cta_scheduler(gpu.timing.cta_scheduler, {gpu.gpu.sm_count});
  for (const CtaPlacement& p : blocks->start_launch(total_blocks, occupancy.blocks)) sms[p.sm]->start_block(p.block, 0);

  uint64_t now = 0, done = 0;
  try {
    run_cycles(sms, *blocks, l, now, done, total_blocks);
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
  return t;
}

}  // namespace lockstep::sim
