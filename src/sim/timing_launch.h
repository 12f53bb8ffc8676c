#pragma once
// One kernel launch on the cycle-level GPU (docs/timing-model.md, "Gpu"): the CTA scheduler
// places blocks on SMs as the occupancy calculator allows, every SM steps cycle by cycle, and
// when no SM can change state before cycle T the clock jumps to T (idle skipping), charging the
// skipped cycles' stalls at once. SMs are stepped in index order each cycle, and block
// completions of one cycle reach the CTA scheduler in SM order, so a run is deterministic.
#include <cstdint>
#include <functional>
#include <vector>

#include "config/gpu_config.h"
#include "func/bound_kernel.h"
#include "func/cta_runner.h"
#include "func/warp.h"
#include "mem/memory_system.h"
#include "sim/child_grids.h"
#include "sim/kernel_timing.h"
#include "sim/launch_watchdog.h"
#include "sim/sm.h"

namespace lockstep::sim {

struct TimingLaunch {
  const config::GpuConfig* gpu = nullptr;
  const func::BoundKernel* kernel = nullptr;
  const func::LaunchState* launch = nullptr;
  func::RunOptions run;
  const func::TraceHook* trace = nullptr;
  uint32_t shared_size = 0;            // bytes per block, static and dynamic
  uint32_t static_shared = 0;          // of those, static (the occupancy request)
  uint32_t registers_per_thread = 0;
  bool registers_estimated = false;
  std::function<void(uint64_t blocks_done)> on_block_done;  // may be empty
  // Per SM, the first cycle (of this launch's clock) it may take a block: the launch before
  // still runs there (timing.kernel_overlap = tail). Empty: every SM from cycle 0.
  std::vector<uint64_t> sm_available;
  // A cooperative launch: every block must be resident at once (grid-wide barriers), so a grid
  // larger than the GPU holds is refused rather than left to spin forever.
  bool all_resident = false;
  // Threads that step SMs, the caller's included (sm_stepper.h); results do not depend on it.
  uint32_t threads = 1;
  // The memory system past the L1s (memory.model = hierarchy), kept by the caller from launch to
  // launch; null: fixed latencies. memory_clock: its cycle at this launch's cycle 0 (its clock
  // never goes back, even when launches overlap).
  mem::MemorySystem* memory = nullptr;
  uint64_t memory_clock = 0;
  // Dynamic parallelism: where the grids device code launches come from (child_grids.h); they
  // run beside this one, and the launch ends when they are all complete. Null: none may come.
  ChildGridSource* children = nullptr;
  // The deadlock watchdog's intervals and limit (run.watchdog_interval_cycles and
  // run.watchdog_limit_cycles, through watchdog_options()).
  WatchdogOptions watchdog;
};

struct TimingLaunchResult {
  KernelTiming timing;  // the host-launched grid's; the memory system's figures are of every grid
  // Per child grid, in launch order (grid i + 1): its SMs' figures, its cycles on this
  // launch's clock.
  std::vector<KernelTiming> children;
  // Per SM, the first cycle (of this launch's clock) from which it holds none of this launch's
  // blocks: where the next launch may start on it.
  std::vector<uint64_t> sm_free;
  uint64_t memory_clock_end = 0;  // the memory system's cycle after the launch's last one
};

// Runs the launch to completion; throws TimingFault for a device fault or deadlock, and
// std::invalid_argument when not one block fits an SM.
TimingLaunchResult run_timing_launch(const TimingLaunch& launch);

}  // namespace lockstep::sim
