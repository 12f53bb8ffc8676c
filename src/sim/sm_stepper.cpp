#include "sim/sm_stepper.h"

#include <algorithm>
#include <stdexcept>

#include "fmt/format.h"

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

uint32_t generation_of(uint64_t claim) { return static_cast<uint32_t>(claim >> 32); }
uint32_t count_of(uint64_t claim) { return static_cast<uint32_t>(claim >> 16) & 0xffff; }
uint32_t next_of(uint64_t claim) { return static_cast<uint32_t>(claim) & 0xffff; }

}  // namespace

SmStepper::SmStepper(std::vector<std::unique_ptr<Sm>>& sms, uint32_t threads)
    : sms_(sms), changed_(sms.size(), 0), errors_(sms.size()) {
  if (sms.size() > 0xffff) throw std::invalid_argument(fmt::format("{} SMs: at most 65535 can be stepped", sms.size()));
  const uint32_t usable = std::max<uint32_t>(1, static_cast<uint32_t>(sms.size()));
  const uint32_t helpers = std::clamp<uint32_t>(threads, 1, usable) - 1;
  workers_.reserve(helpers);
  for (uint32_t i = 0; i < helpers; ++i) workers_.emplace_back([this] { worker_loop(); });
}

SmStepper::~SmStepper() {
  stop_.store(true);
  claim_.store(uint64_t{generation_ + 1} << 32);
  claim_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void SmStepper::work(uint32_t generation) {
  uint64_t c = claim_.load();
  while (generation_of(c) == generation && next_of(c) < count_of(c)) {
    if (!claim_.compare_exchange_weak(c, c + 1)) continue;
    // Claimed: the caller cannot start another cycle before this SM is counted done, so
    // which_ and now_ stay as published.
    const uint32_t i = (*which_)[next_of(c)];
    try {
      changed_[i] = sms_[i]->cycle(now_) ? 1 : 0;
    } catch (...) {
      errors_[i] = std::current_exception();
    }
    done_.fetch_add(1);
    c = claim_.load();
  }
}

void SmStepper::worker_loop() {
  uint32_t seen = 0;
  while (true) {
    uint64_t c = claim_.load();
    for (uint32_t round = 0; generation_of(c) == seen; ++round) {
      if (round < kSpinRounds) {
        cpu_relax();
      } else if (round < kYieldRounds) {
        std::this_thread::yield();
      } else {
        // Dekker with step(): it publishes the claim word, then looks for sleepers; a
        // sleeper counts itself, then sleeps only if the word is still the one it saw.
        sleepers_.fetch_add(1);
        claim_.wait(c);
        sleepers_.fetch_sub(1);
        round = 0;
      }
      c = claim_.load();
    }
    seen = generation_of(c);
    if (stop_.load()) return;
    work(seen);
  }
}

bool SmStepper::step(uint64_t now, const std::vector<uint32_t>& which) {
  which_ = &which;
  now_ = now;
  for (uint32_t i : which) changed_[i] = 0;
  ++generation_;
  const auto count = static_cast<uint32_t>(which.size());
  done_.store(0);
  claim_.store(uint64_t{generation_} << 32 | uint64_t{count} << 16);
  if (sleepers_.load() != 0) claim_.notify_all();
  work(generation_);
  for (uint32_t round = 0; done_.load() != count; ++round) {
    if (round < kSpinRounds) cpu_relax();
    else std::this_thread::yield();
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
