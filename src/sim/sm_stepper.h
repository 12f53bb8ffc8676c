#pragma once
// Steps the SMs of a launch through one cycle, on one thread or several (func/worker_pool.h).
// SMs share nothing while they step (sm.h: reads of device memory only, everything launch-wide
// waits for Sm::commit), so which thread steps which SM changes the wall time and nothing else:
// the same run gives bit-identical results and statistics for any number of threads.
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "func/worker_pool.h"
#include "sim/sm.h"

namespace lockstep::sim {

class SmStepper {
 public:
  // `threads`: how many threads step SMs, the caller's included (1: the caller alone).
  // `other_tasks`: the largest batch run() will be given.
  SmStepper(std::vector<std::unique_ptr<Sm>>& sms, uint32_t threads, uint32_t other_tasks = 0);

  // Runs Sm::cycle(now) on every SM whose index is in `which` (ascending); true when any
  // changed. Every listed SM steps even when one throws; then the exception of the
  // lowest-numbered SM that threw is rethrown, as a serial run in SM order would have
  // stopped at it.
  bool step(uint64_t now, const std::vector<uint32_t>& which);
  // Runs Sm::commit_accesses on every SM in `which` (ascending), side by side; exceptions as step.
  void commit_accesses(const std::vector<uint32_t>& which);
  // Runs another batch of independent tasks on the same threads (the memory system's
  // partitions): task(i) for every i in [0, count), count <= the constructor's other_tasks.
  void run(uint32_t count, const std::function<void(uint32_t)>& task) { pool_.run(count, task); }
  uint32_t threads() const { return pool_.threads(); }
  // Whether SM `sm` changed in the last step (it was in `which`).
  bool changed(uint32_t sm) const { return changed_[sm] != 0; }

 private:
  std::vector<std::unique_ptr<Sm>>& sms_;
  std::vector<uint8_t> changed_;  // per SM, this cycle
  func::WorkerPool pool_;
  // The task of a step, made once: it reads which_ and now_, so no cycle builds a function.
  const std::vector<uint32_t>* which_ = nullptr;
  uint64_t now_ = 0;
  std::function<void(uint32_t)> step_one_;
  std::function<void(uint32_t)> commit_one_;
};

}  // namespace lockstep::sim
