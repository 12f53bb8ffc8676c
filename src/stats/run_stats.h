#pragma once
// What a run did, launch by launch: the figures `lockstep run` prints at the end and writes to
// --stats-json. Filled by whoever runs kernels (the drop-in runtime today); knows nothing about
// how they ran beyond the plain figures below.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "func/divergence/divergence_counters.h"
#include "sim/kernel_timing.h"

namespace lockstep::stats {

struct LaunchRecord {
  std::string kernel;
  std::array<uint32_t, 3> grid{1, 1, 1};
  std::array<uint32_t, 3> block{1, 1, 1};
  uint32_t dynamic_shared = 0;
  uint32_t warp_size = 32;
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  std::string fault;  // the device fault report, "" when the launch finished cleanly
  // What the cycle-level model measured; absent when the launch ran in functional mode.
  std::optional<sim::KernelTiming> timing;
  // What the warps' divergence units did (either mode). Last, so records built without it
  // start at zero.
  func::DivergenceCounters divergence{};

  // Active lanes per issued warp instruction over the warp width (1.0 when nothing ran).
  double simt_efficiency() const;
  // Active lanes per issued warp instruction: simt_efficiency()'s figure before the division by
  // the warp width (0 when nothing ran).
  double average_active_lanes() const;
};

class RunStats {
 public:
  void add(LaunchRecord r) {
    total_thread_instructions_ += r.thread_instructions;
    total_warp_instructions_ += r.warp_instructions;
    launches_.push_back(std::move(r));
  }
  const std::vector<LaunchRecord>& launches() const { return launches_; }
  uint64_t total_thread_instructions() const { return total_thread_instructions_; }
  uint64_t total_warp_instructions() const { return total_warp_instructions_; }
  // One line per launch: "lockstep: kernel <name> grid (x,y,z) block (x,y,z) <n> warp
  // instructions <m> thread instructions\n". A launch whose warps diverged (any divergence count
  // not 0) adds one indented line of divergence figures; a launch with timing then adds one
  // indented line of cycle-level figures; when several launches have timing, a final line totals
  // their cycles.
  std::string summary() const;

 private:
  std::vector<LaunchRecord> launches_;
  uint64_t total_thread_instructions_ = 0;
  uint64_t total_warp_instructions_ = 0;
};

}  // namespace lockstep::stats
