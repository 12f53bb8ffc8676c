#pragma once
// Steps the SMs of a launch through one cycle, on one thread or several (func/worker_pool.h).
// SMs share nothing while they step (sm.h: reads of device memory only, everything launch-wide
// waits for Sm::commit), so which thread steps which SM changes the wall time and nothing else:
// the same run gives bit-identical results and statistics for any number of threads.
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "func/worker_pool.h"
#include "sim/sm.h"

namespace lockstep::sim {

class SmStepper {
 public:
  // `threads`: how many threads step SMs, the caller's included (1: the caller alone).
  // `other_tasks`: the largest batch run() will be given.
  SmStepper(std::vector<std::unique_ptr<Sm>>& sms, uint32_t threads, uint32_t other_tasks = 0);

  // What the launch's serial phase reads of an SM after its step, recorded by the thread that
  // stepped it, four SMs to a cache line. The serial phase runs on one thread: reading the SMs
  // themselves would pull several cache lines of every stepped SM from the core that stepped it,
  // which on a large host costs more than the phase's own work. It reads these instead, and an
  // SM itself only where it has work with it (a commit, a response, a block).
  struct StepView {
    bool changed = false;   // the cycle changed the SM's state
    bool commits = false;   // Sm::has_commit_work(): commit() has something to do
    bool finished = false;  // blocks finished in the cycle
    bool idle = false;      // Sm::idle()
    bool outbound = false;  // its LD/ST unit holds misses to send (also after commit_accesses)
    uint64_t next_change = UINT64_MAX;  // !changed && !idle: Sm::next_change(now)
  };

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
  // SM `sm` as its last step (and commit_accesses) left it; current while nothing else has
  // touched it since.
  const StepView& view(uint32_t sm) const { return views_[sm]; }

 private:
  std::vector<std::unique_ptr<Sm>>& sms_;
  std::vector<StepView> views_;  // per SM
  func::WorkerPool pool_;
  // The task of a step, made once: it reads which_ and now_, so no cycle builds a function.
  const std::vector<uint32_t>* which_ = nullptr;
  uint64_t now_ = 0;
  std::function<void(uint32_t)> step_one_;
  std::function<void(uint32_t)> commit_one_;
  // Where each thread's share of a batch of SMs begins: SMs split by index, not by position
  // among this cycle's, so an SM stays on one thread (and its state in that core's caches) while
  // the set of SMs awake changes from cycle to cycle.
  std::vector<uint32_t> starts_;
  std::span<const uint32_t> shares_of(const std::vector<uint32_t>& which);
};

}  // namespace lockstep::sim
