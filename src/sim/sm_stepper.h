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
  // Whether SM `sm` changed in the last step (it was in `which`).
  bool changed(uint32_t sm) const { return changed_[sm] != 0; }

 private:
  // Claims SMs of cycle generation `generation` and steps them until none is left.
  void work(uint32_t generation);
  void worker_loop();

  std::vector<std::unique_ptr<Sm>>& sms_;
  std::vector<uint8_t> changed_;               // per SM, this cycle
  std::vector<std::exception_ptr> errors_;     // per SM, this cycle
  const std::vector<uint32_t>* which_ = nullptr;
  uint64_t now_ = 0;

  // The hand-off, once per cycle. The caller writes which_ and now_, then publishes the claim
  // word: generation (high 32 bits), SMs to step (16 bits), next to claim (low 16 bits). A
  // thread claims an SM by advancing the word while it still names its generation, steps it and
  // counts it in done_; the caller, which claims too, returns when done_ reaches the count.
  // So a late thread can never claim into the next cycle, and the caller waits only for SMs
  // being stepped, never for a thread that has not woken up. Idle threads spin briefly, then
  // sleep on the claim word.
  std::atomic<uint64_t> claim_{0};
  std::atomic<uint32_t> done_{0};
  std::atomic<uint32_t> sleepers_{0};
  std::atomic<bool> stop_{false};
  uint32_t generation_ = 0;  // the caller's
  std::vector<std::thread> workers_;
};

}  // namespace lockstep::sim
