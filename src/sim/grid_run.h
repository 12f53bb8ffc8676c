#pragma once
// One grid of a timed launch (timing_launch.h): the host-launched grid, or a child grid that
// device code launched while it ran (child_grids.h). It holds what the SMs that run its blocks
// are built from (its SmContext, timing table and LD/ST unit options), its CTA scheduler, where
// it stands, and the figures of the SMs that have held it.
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "sim/child_grids.h"
#include "sim/cta_scheduler/cta_scheduler.h"
#include "sim/instruction_timing.h"
#include "sim/kernel_timing.h"
#include "sim/ldst_unit.h"
#include "sim/occupancy.h"
#include "sim/sm.h"

namespace lockstep::sim {

struct TimingLaunch;

struct GridRun {
  enum class State : uint8_t {
    kWaiting,     // launched, waiting for the grid its stream orders it after
    kRunning,     // its CTA scheduler places its blocks
    kBlocksDone,  // every block done; grids it launched still run
    kComplete,
  };
  const TimingLaunch* launch = nullptr;
  Occupancy occupancy;
  std::vector<InstTiming> table;
  LdstUnitOptions ldst;
  SmContext context;  // points into this GridRun: it never moves (held by unique_ptr)
  std::unique_ptr<CtaScheduler> blocks;
  uint64_t total_blocks = 0;
  uint64_t blocks_done = 0;
  uint32_t parent = kNoGrid;
  uint32_t after = kNoGrid;
  bool tail = false;
  State state = State::kWaiting;
  uint32_t open_children = 0;  // grids it launched that are not complete
  uint32_t open_ordinary = 0;  // of those, the ones not tail launches
  std::deque<uint32_t> tails;  // its tail launches not complete, in launch order
  bool placed_any = false;
  uint64_t start = 0;          // the launch cycle its first block was placed in
  uint64_t end = 0;            // the launch cycle it completed in
  KernelTiming figures;        // what the SMs that held it charged, once they let it go
};

// Prepares grid `grid` of the timed launch `launch` (whose GPU, memory and options it shares):
// its occupancy, timing table and SM context. Throws std::invalid_argument when not one block
// fits an SM.
std::unique_ptr<GridRun> prepare_grid(const TimingLaunch& grid, const TimingLaunch& launch);

// The grid's figures that do not come from its SMs: the GPU's shape, its occupancy and registers.
void describe_grid(const GridRun& grid, const config::GpuConfig& gpu, KernelTiming& t);

}  // namespace lockstep::sim
