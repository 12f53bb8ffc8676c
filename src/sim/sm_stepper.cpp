#include "sim/sm_stepper.h"

#include <algorithm>

namespace lockstep::sim {

namespace {

// A cycle of a large GPU takes microseconds, less than a sleep and a wake-up cost, so a waiting
// thread first spins, then yields its core, and only then sleeps.
constexpr uint32_t kSpinRounds = 256;
constexpr uint32_t kYieldRounds = 4096;

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// One round of waiting; false once it is time to sleep.
bool wait_round(uint32_t round) {
  if (round < kSpinRounds) {
    cpu_relax();
    return true;
  }
  std::this_thread::yield();
  return round < kYieldRounds;
}

}  // namespace

SmStepper::SmStepper(std::vector<std::unique_ptr<Sm>>& sms, uint32_t threads)
    : sms_(sms), changed_(sms.size(), 0), errors_(sms.size()) {
  const uint32_t usable = std::max<uint32_t>(1, static_cast<uint32_t>(sms.size()));
  const uint32_t helpers = std::clamp<uint32_t>(threads, 1, usable) - 1;
  workers_.reserve(helpers);
  for (uint32_t i = 0; i < helpers; ++i) workers_.emplace_back([this] { worker_loop(); });
}

SmStepper::~SmStepper() {
  stop_.store(true);
  generation_.fetch_add(1);
  generation_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void SmStepper::work() {
  const std::vector<uint32_t>& which = *which_;
  for (uint32_t k = next_.fetch_add(1); k < which.size(); k = next_.fetch_add(1)) {
    const uint32_t i = which[k];
    try {
      changed_[i] = sms_[i]->cycle(now_) ? 1 : 0;
    } catch (...) {
      errors_[i] = std::current_exception();
    }
  }
}

void SmStepper::worker_loop() {
  uint64_t seen = 0;
  while (true) {
    uint32_t round = 0;
    uint64_t g = generation_.load();
    while (g == seen) {
      if (!wait_round(round++)) {
        // Dekker with the publisher in step(): it bumps the generation, then looks for
        // sleepers; a sleeper counts itself, then looks at the generation once more.
        sleepers_.fetch_add(1);
        generation_.wait(seen);
        sleepers_.fetch_sub(1);
        round = 0;
      }
      g = generation_.load();
    }
    seen = g;
    if (stop_.load()) return;
    work();
    finished_.fetch_add(1);
  }
}

bool SmStepper::step(uint64_t now, const std::vector<uint32_t>& which) {
  which_ = &which;
  now_ = now;
  for (uint32_t i : which) changed_[i] = 0;
  if (workers_.empty()) {
    next_.store(0);
    work();
  } else {
    next_.store(0);
    finished_.store(0);
    generation_.fetch_add(1);
    if (sleepers_.load() != 0) generation_.notify_all();
    work();
    const uint32_t helpers = static_cast<uint32_t>(workers_.size());
    for (uint32_t round = 0; finished_.load() != helpers; ++round)
      if (round < kSpinRounds) cpu_relax(); else std::this_thread::yield();
  }
  bool changed = false;
  std::exception_ptr first;
  for (uint32_t i : which) {
    changed |= changed_[i] != 0;
    if (errors_[i] && !first) first = errors_[i];
    errors_[i] = nullptr;
  }
  if (first) std::rethrow_exception(first);
  return changed;
}

}  // namespace lockstep::sim
