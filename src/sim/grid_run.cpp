#include "sim/grid_run.h"

#include <stdexcept>

#include "fmt/format.h"
#include "func/shared_layout.h"
#include "sim/memory_config.h"
#include "sim/timing_launch.h"

namespace lockstep::sim {

std::unique_ptr<GridRun> prepare_grid(const TimingLaunch& l, const TimingLaunch& launch) {
  const config::GpuConfig& gpu = *launch.gpu;
  const func::LaunchState& state = *l.launch;
  auto g = std::make_unique<GridRun>();
  g->launch = &l;
  const uint64_t threads = uint64_t{state.block[0]} * state.block[1] * state.block[2];
  OccupancyRequest request;
  request.block_size = static_cast<uint32_t>(threads);
  request.registers_per_thread = l.registers_per_thread;
  request.static_shared = l.static_shared;
  // The reserved region the buffer may hold is the preset's shared_reserved_per_block, which the
  // calculator adds itself: only the kernel's own dynamic part (with its alignment) counts here.
  request.dynamic_shared = func::shared_layout(*l.kernel, state.dynamic_shared).user_bytes - l.static_shared;
  request.max_dynamic_shared = gpu.sm.shared_per_block_optin_bytes();
  g->occupancy = compute_occupancy(gpu, request);
  if (g->occupancy.blocks == 0)
    throw std::invalid_argument(fmt::format(
        "a block of {} threads with {} registers per thread and {} bytes of shared memory does not fit an SM "
        "of the {} preset (limited by {})",
        threads, l.registers_per_thread, l.shared_size, gpu.preset, limit_names(g->occupancy.limited_by)));

  const RegisterSpace regs{l.kernel->slot_count, l.kernel->pred_count};
  const uint32_t dst_limit = gpu.timing.scoreboard == "rid-table" ? gpu.timing.rid_entries : kMaxDstRanges;
  g->table = instruction_timing(*l.kernel->program, gpu, regs, dst_limit);

  SmContext& context = g->context;
  context.gpu = &gpu;
  context.kernel = l.kernel;
  context.launch = l.launch;
  context.run = l.run;
  context.trace = l.trace;
  context.timing = &g->table;
  context.regs = regs;
  context.blocks_per_sm = g->occupancy.blocks;
  context.shared_size = l.shared_size;
  if (launch.memory != nullptr) {
    g->ldst = ldst_unit_options(gpu, l.run.warp_size, g->occupancy.blocks, l.shared_size, state.stack_size);
    context.ldst = &g->ldst;
  }
  g->total_blocks = uint64_t{state.grid[0]} * state.grid[1] * state.grid[2];
  g->blocks = make_cta_scheduler(gpu.timing.cta_scheduler, {gpu.gpu.sm_count});
  return g;
}

void describe_grid(const GridRun& g, const config::GpuConfig& gpu, KernelTiming& t) {
  t.warp_size = g.launch->run.warp_size;
  t.sm_count = gpu.gpu.sm_count;
  t.schedulers_per_sm = gpu.sm.schedulers;
  t.issue_width = gpu.sm.issue_width;
  t.max_warps_per_sm = gpu.sm.max_warps;
  t.blocks_per_sm = g.occupancy.blocks;
  t.occupancy_limited_by = limit_names(g.occupancy.limited_by);
  t.registers_per_thread = g.launch->registers_per_thread;
  t.registers_estimated = g.launch->registers_estimated;
}

}  // namespace lockstep::sim
