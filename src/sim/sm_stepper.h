#pragma once
// Steps the SMs of a launch through one cycle, on one thread or several. SMs share nothing
// while they step (sm.h: reads of device memory only, everything launch-wide waits for
// Sm::commit), so which thread steps which SM changes the wall time and nothing else: the
// same run gives bit-identical results and statistics for any number of threads.
#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <thread>
#include <vector>

#include "sim/sm.h"

namespace lockstep::sim {

class SmStepper {
 public:
  // `threads`: how many threads step SMs, the caller's included (1: the caller alone).
  SmStepper(std::vector<std::unique_ptr<Sm>>& sms, uint32_t threads);
  ~SmStepper();
  SmStepper(const SmStepper&) = delete;
  SmStepper& operator=(const SmStepper&) = delete;

  // Runs Sm::cycle(now) on every SM whose index is in `which` (ascending); true when any
  // changed. Every listed SM steps even when one throws; then the exception of the
  // lowest-numbered SM that threw is rethrown, as a serial run in SM order would have
  // stopped at it.
  bool step(uint64_t now, const std::vector<uint32_t>& which);

 private:
  void work();          // steps SMs from the shared work list until it is empty
  void worker_loop();

  std::vector<std::unique_ptr<Sm>>& sms_;
  std::vector<uint8_t> changed_;               // per SM, this cycle
  std::vector<std::exception_ptr> errors_;     // per SM, this cycle
  const std::vector<uint32_t>* which_ = nullptr;
  uint64_t now_ = 0;

  // Hand-off between the caller and the workers, once per cycle: the caller publishes a new
  // generation, every thread takes SMs off `next_` until the list is used up, the workers
  // count themselves into `finished_`. Workers spin briefly, then sleep on `generation_`.
  std::atomic<uint64_t> generation_{0};
  std::atomic<uint32_t> next_{0};
  std::atomic<uint32_t> finished_{0};
  std::atomic<uint32_t> sleepers_{0};
  std::atomic<bool> stop_{false};
  std::vector<std::thread> workers_;
};

}  // namespace lockstep::sim
