#pragma once
// The cycle loop of a timed launch (timing_launch.h): steps the SMs cycle by cycle until the
// host-launched grid and every grid it launched are complete. Everything between the steps
// (commits, block placement, child grids, idle skipping) goes in SM order, so a run is
// deterministic for any number of stepping threads.
//
// An SM is built when its first block comes, for that block's grid: until then it is null,
// idle, and costs nothing, so a launch of a few blocks, such as most child grids, does not build
// all of the GPU's SMs. An SM runs blocks of one grid at a time (its tenant). When a grid
// launched from device code starts, it takes the SMs no grid holds; an SM another grid holds
// passes to the earliest grid still placing blocks once its tenant has no block left on it and
// places no more there (the tenant's figures so far stay the tenant's).
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "mem/memory_system.h"
#include "sim/child_grids.h"
#include "sim/grid_run.h"
#include "sim/launch_watchdog.h"
#include "sim/sm.h"
#include "sim/sm_stepper.h"

namespace lockstep::sim {

class LaunchDriver {
 public:
  // `grids` holds the host-launched grid (0); child grids join it as device code launches them.
  // `sms` has one null entry per SM of the GPU.
  LaunchDriver(std::vector<std::unique_ptr<Sm>>& sms, std::vector<std::unique_ptr<GridRun>>& grids,
               const TimingLaunch& launch);

  // Places grid 0's first blocks at cycle 0; throws std::invalid_argument for a cooperative
  // launch larger than the GPU holds at once.
  void start();
  // Returns the last cycle.
  uint64_t run();

  const std::vector<uint64_t>& sm_free() const { return free_; }
  uint64_t now() const { return now_; }  // the cycle run() is in, or returned
  // Per SM, the grid it holds (kNoGrid: none), and from which cycle an SM no grid holds has not
  // been charged (its schedulers had no warp since then).
  const std::vector<uint32_t>& tenants() const { return tenant_; }
  const std::vector<uint64_t>& unheld_from() const { return unheld_from_; }

 private:
  // The first cycle SM `sm` may take a block of this launch (TimingLaunch::sm_available).
  uint64_t available(size_t sm) const;
  void place(uint32_t grid, const CtaPlacement& p, uint64_t cycle);
  // A block of `grid` for SM `sm` in `cycle`: a sleeping SM wakes. What its last step recorded
  // (SmStepper::StepView) no longer holds: the SM is read again.
  void start_block(uint32_t grid, uint32_t sm, uint64_t block, uint64_t cycle);
  // Child grids: those device code launched in the cycle's commit join; a grid starts placing
  // blocks in `cycle` on the SMs no grid holds; completions reach the parents and start the
  // grids that waited for them.
  void take_child_launches(uint64_t now);
  void start_grid(uint32_t grid, uint64_t cycle);
  bool ready(uint32_t grid) const;
  void start_ready_grids(uint64_t cycle);
  void blocks_done(uint32_t grid, uint64_t now);
  void complete_if_done(uint32_t grid, uint64_t now);
  // SM `sm` (idle) lets its tenant go when the tenant has no block on it and places no more there
  // and some grid may want it; it is then offered to the earliest grid still placing blocks.
  bool releasable(uint32_t sm) const;
  void release(uint32_t sm, uint64_t now);
  // The memory hierarchy's phase: each SM's misses enter the memory system in SM order, the
  // memory system steps the cycle (its partitions side by side on the stepping threads), and
  // the responses reach their SMs' LD/ST units in SM order.
  bool exchange_memory(uint64_t now);

  std::vector<std::unique_ptr<Sm>>& sms_;
  std::vector<std::unique_ptr<GridRun>>& grids_;
  SmStepper stepper_;
  const TimingLaunch& launch_;
  ChildGridSource* children_;
  uint64_t done_ = 0;  // blocks done, every grid's
  uint64_t now_ = 0;
  std::vector<uint32_t> stepping_;  // this cycle: the SMs not idle, ascending
  std::vector<uint32_t> committing_;  // this cycle: the SMs with accesses to commit, ascending
  std::vector<std::vector<uint64_t>> waiting_;  // per SM: grid 0's blocks waiting for it to free
  std::vector<uint64_t> free_;
  std::vector<uint64_t> wake_;       // per SM: the first cycle it needs a step again
  std::vector<uint32_t> tenant_;     // per SM: the grid whose blocks it runs (kNoGrid: none)
  std::vector<uint64_t> unheld_from_;  // per SM no grid holds: the first cycle not yet charged
  // Per SM, kept by the serial phase so that it reads an SM only where it has work with it
  // (SmStepper::StepView says why): Sm::idle(); whether its LD/ST unit may hold misses to send;
  // whether the serial phase changed it (a commit, a block) since its last step.
  std::vector<uint8_t> idle_;
  std::vector<uint8_t> has_outbound_;
  std::vector<uint8_t> touched_;
  std::vector<uint8_t> delivered_;     // responses reached it in this cycle's memory phase
  std::vector<uint32_t> delivered_to_;  // this cycle: the SMs with delivered_ set
  std::vector<uint32_t> finished_grids_;  // this cycle: grids whose last block finished
  std::vector<uint32_t> waiting_grids_;   // launched, not started, in launch order
  mem::MemorySystem* memory_;
  uint64_t memory_clock_;
  LaunchWatchdog watchdog_;
  mem::ParallelFor parallel_;  // the memory partitions on the stepping threads; empty: one thread
};

}  // namespace lockstep::sim
