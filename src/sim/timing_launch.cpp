#include "sim/timing_launch.h"

#include <memory>
#include <vector>

#include "sim/grid_run.h"
#include "sim/launch_driver.h"
#include "sim/memory_figures.h"

namespace lockstep::sim {

TimingLaunchResult run_timing_launch(const TimingLaunch& l) {
  const config::GpuConfig& gpu = *l.gpu;
  std::vector<std::unique_ptr<GridRun>> grids;
  grids.push_back(prepare_grid(l, l));
  std::vector<std::unique_ptr<Sm>> sms(gpu.gpu.sm_count);
  LaunchDriver driver(sms, grids, l);
  driver.start();

  const MemoryTiming memory_before = l.memory != nullptr ? memory_system_figures(*l.memory) : MemoryTiming{};
  // Every grid's figures once the launch has run through cycle `now`: what the SMs that let a
  // grid go charged it, and what the SMs that still hold it have charged so far. The stretches
  // no grid held an SM are the host-launched grid's, as are the memory system's figures.
  const auto figures = [&](uint64_t now) {
    std::vector<KernelTiming> all;
    for (const auto& g : grids) {
      all.push_back(g->figures);
      describe_grid(*g, gpu, all.back());
    }
    all[0].cycles = now + 1;
    for (uint32_t i = 0; i < sms.size(); ++i) {
      const uint32_t tenant = driver.tenants()[i];
      if (tenant == kNoGrid) {
        Sm::add_unbuilt_stats(all[0], gpu, driver.unheld_from()[i], now + 1);
        continue;
      }
      sms[i]->charge_until(now + 1);
      sms[i]->add_stats(all[tenant]);
    }
    for (size_t g = 1; g < grids.size(); ++g) {
      const uint64_t end = grids[g]->state == GridRun::State::kComplete ? grids[g]->end : now;
      all[g].start_cycle = grids[g]->start;
      all[g].end_cycle = end + 1;
      all[g].cycles = end + 1 - grids[g]->start;
    }
    if (l.memory != nullptr)
      add_memory_system_difference(memory_system_figures(*l.memory), memory_before, all[0].memory);
    return all;
  };
  uint64_t now = 0;
  try {
    now = driver.run();
  } catch (TimingFault& f) {
    if (f.fault.fault.kind == func::FaultKind::Interrupted) {
      f.partial = std::move(figures(driver.now())[0]);
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
  std::vector<KernelTiming> all = figures(now);
  TimingLaunchResult result;
  result.timing = std::move(all[0]);
  result.children.assign(std::make_move_iterator(all.begin() + 1), std::make_move_iterator(all.end()));
  result.sm_free = driver.sm_free();
  result.memory_clock_end = l.memory_clock + now + 1;
  return result;
}

}  // namespace lockstep::sim
