#pragma once
// Grids that device code launches while a timed launch runs (CUDA dynamic parallelism): the
// engine turns each launch the device runtime recorded into a grid the timing launch can run,
// and the timing launch runs it beside the grids already running (docs/timing-model.md,
// "Child grids"). A launch is made at the commit of its cudaLaunchDevice, so the grids, their
// order and every result are the same for any number of stepping threads.
//
// When a child grid may start follows its stream (CDP2):
//  - launched into a stream the parent already launched into: after the grid launched before it
//    into that stream is complete;
//  - cudaStreamTailLaunch: once its parent's blocks are done and every other grid the parent
//    launched is complete, its tail launches one after another in launch order;
//  - otherwise (a new stream, fire-and-forget): at once.
// A grid is complete once its blocks are done and every grid it launched is complete; the
// timed launch ends when its host-launched grid is complete.
#include <cstdint>
#include <vector>

#include "sim/kernel_timing.h"

namespace lockstep::sim {

struct TimingLaunch;

inline constexpr uint32_t kNoGrid = UINT32_MAX;

// One launch made from device code. Grids are numbered in the order they are launched: 0 is the
// host-launched grid, its children follow.
struct ChildGridLaunch {
  const TimingLaunch* grid = nullptr;  // its kernel, launch state and occupancy request; lives until the launch ends
  uint32_t parent = 0;                 // the grid that launched it
  uint32_t after = kNoGrid;            // a grid it starts after (the last launched into its stream)
  bool tail = false;                   // cudaStreamTailLaunch
};

class ChildGridSource {
 public:
  virtual ~ChildGridSource() = default;
  // Whether device code launched grids in the cycle just committed; cheap, asked every cycle.
  virtual bool has_launches() const = 0;
  // Those launches, in the order they were made. `first_index` is the number the first of them
  // gets (the grids launched so far, the host's included).
  virtual std::vector<ChildGridLaunch> take_launches(uint32_t first_index) = 0;
  // Grid `index` (not 0) starts (its stream's order allows it), or is a tail launch whose
  // parent's blocks are done: its launch no longer counts as pending. May come twice.
  virtual void started(uint32_t index) = 0;
  // Grid `index` (not 0) is complete: its parameter buffer is free.
  virtual void completed(uint32_t index) = 0;
  // Once the launch ends: what grid `index` measured, its start and end cycles on the launch's clock.
  virtual void figures(uint32_t index, const KernelTiming& timing) = 0;
};

}  // namespace lockstep::sim
