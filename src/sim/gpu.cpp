#include "sim/gpu.h"

#include <algorithm>

#include "sim/memory_config.h"

namespace lockstep::sim {

Gpu::Gpu(std::shared_ptr<const config::GpuConfig> config, uint32_t threads)
    : config_(std::move(config)), threads_(threads) {}

KernelTiming Gpu::run(TimingLaunch t) {
  t.gpu = config_.get();
  t.threads = threads_;
  // Where this launch starts: when the last one ended, or (tail overlap) when the first SM
  // freed, each SM taking blocks from the cycle it freed.
  const bool overlap = config_->timing.kernel_overlap && !sm_free_.empty();
  const uint64_t start = overlap ? *std::min_element(sm_free_.begin(), sm_free_.end()) : device_clock_;
  t.sm_available.clear();
  if (overlap)
    for (uint64_t free_at : sm_free_) t.sm_available.push_back(free_at - start);
  t.memory = nullptr;
  if (config_->memory.hierarchy) {
    if (!memory_system_) memory_system_ = std::make_unique<mem::MemorySystem>(memory_system_options(*config_));
    t.memory = memory_system_.get();
    t.memory_clock = std::max(memory_clock_, start);
  }
  TimingLaunchResult r;
  try {
    r = run_timing_launch(t);
  } catch (TimingFault& f) {
    if (f.partial) {
      f.partial->start_cycle = start;
      f.partial->end_cycle = start + f.partial->cycles;
    }
    memory_system_.reset();
    throw;
  } catch (...) {
    memory_system_.reset();  // a child grid that could not start: the launch's requests may be in it
    throw;
  }
  memory_clock_ = r.memory_clock_end;
  r.timing.start_cycle = start;
  r.timing.end_cycle = start + r.timing.cycles;
  for (size_t i = 0; i < r.children.size(); ++i) {
    r.children[i].start_cycle += start;
    r.children[i].end_cycle += start;
    t.children->figures(static_cast<uint32_t>(i + 1), r.children[i]);
  }
  device_clock_ = std::max(device_clock_, r.timing.end_cycle);
  sm_free_.resize(r.sm_free.size());
  for (size_t i = 0; i < r.sm_free.size(); ++i) sm_free_[i] = start + r.sm_free[i];
  return std::move(r.timing);
}

}  // namespace lockstep::sim
