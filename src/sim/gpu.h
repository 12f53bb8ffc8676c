#pragma once
// The cycle-level GPU of a run (docs/timing-model.md, "Gpu"): built once from the preset, it
// owns what outlives one kernel launch, so launches meet the state the ones before left behind:
//  - the device clock, and per SM the cycle it frees (timing.kernel_overlap = tail lets the
//    next launch start on an SM as soon as the last one's blocks leave it);
//  - the memory system past the L1s (memory.model = hierarchy) with its own clock, so the L2
//    and the DRAM row buffers stay warm from launch to launch, as on hardware (the L1s and the
//    instruction caches start each launch cold: a GPU invalidates them at a kernel boundary).
// Each launch then runs on SMs built for its kernel (timing_launch.h), placed by the preset's
// CTA scheduler, with the stepping threads the Gpu was built with.
#include <cstdint>
#include <memory>
#include <vector>

#include "config/gpu_config.h"
#include "mem/memory_system.h"
#include "sim/timing_launch.h"

namespace lockstep::sim {

class Gpu {
 public:
  // `threads`: how many threads step SMs (sm_stepper.h); results do not depend on it.
  Gpu(std::shared_ptr<const config::GpuConfig> config, uint32_t threads);

  // Runs one launch to completion from where the device stands; `launch.gpu`, `threads`,
  // `sm_available`, `memory` and `memory_clock` are the Gpu's to fill. The result's
  // start_cycle and end_cycle are on the device clock. Throws what run_timing_launch throws;
  // after a TimingFault the memory system is rebuilt empty (it may hold the faulted launch's
  // requests), the clocks stay.
  KernelTiming run(TimingLaunch launch);

  const config::GpuConfig& config() const { return *config_; }
  // The cycle after the last launch's last one.
  uint64_t clock() const { return device_clock_; }
  // Null until the first launch with memory.model = hierarchy.
  const mem::MemorySystem* memory_system() const { return memory_system_.get(); }

 private:
  std::shared_ptr<const config::GpuConfig> config_;
  uint32_t threads_;
  uint64_t device_clock_ = 0;
  std::vector<uint64_t> sm_free_;  // per SM, on the device clock; empty before the first launch
  std::unique_ptr<mem::MemorySystem> memory_system_;
  uint64_t memory_clock_ = 0;      // the memory system's cycle after its last one; never goes back
};

}  // namespace lockstep::sim
