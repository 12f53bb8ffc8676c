#pragma once
// Per-kernel figures the runtime collects for `lockstep run`'s summary.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/engine.h"

namespace lockstep::runtime {

struct KernelStat {
  std::string name;
  Dim3 grid, block;
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
};

class KernelStats {
 public:
  void add(KernelStat s) {
    total_thread_instructions_ += s.thread_instructions;
    launches_.push_back(std::move(s));
  }
  const std::vector<KernelStat>& launches() const { return launches_; }
  uint64_t total_thread_instructions() const { return total_thread_instructions_; }
  // One line per launch: "lockstep: kernel <name> grid (x,y,z) block (x,y,z) <n> warp
  // instructions <m> thread instructions\n".
  std::string summary() const;

 private:
  std::vector<KernelStat> launches_;
  uint64_t total_thread_instructions_ = 0;
};

}  // namespace lockstep::runtime
