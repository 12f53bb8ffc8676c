#include "func/worker_pool.h"

#include <algorithm>
#include <stdexcept>

#include "fmt/format.h"

namespace lockstep::func {

namespace {

// A batch (a cycle of a large GPU, an epoch of resident blocks) takes microseconds, less than
// a sleep and a wake-up cost, so a waiting thread first spins, then yields its core, and only
// then sleeps.
constexpr uint32_t kSpinRounds = 256;
constexpr uint32_t kYieldRounds = 4096;

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

uint64_t share_range(uint32_t begin, uint32_t end) { return uint64_t{end} << 32 | begin; }

}  // namespace

WorkerPool::WorkerPool(uint32_t threads, uint32_t max_tasks) {
  if (max_tasks > kMaxTasks)
    throw std::invalid_argument(fmt::format("{} tasks: a worker pool runs at most {} at once", max_tasks, kMaxTasks));
  errors_.resize(max_tasks);
  const uint32_t helpers = std::clamp<uint32_t>(threads, 1, std::max<uint32_t>(1, max_tasks)) - 1;
  shares_ = std::vector<Share>(helpers + 1);
  workers_.reserve(helpers);
  for (uint32_t i = 0; i < helpers; ++i) workers_.emplace_back([this, i] { worker_loop(i + 1); });
}

WorkerPool::~WorkerPool() {
  stop_.store(true);
  generation_word_.store(generation_ + 1);
  generation_word_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void WorkerPool::work(uint32_t thread) {
  const uint32_t n = static_cast<uint32_t>(shares_.size());
  // The tasks this thread ran, counted into done_ once at the end: one shared write per thread
  // and batch, not one per task (done_'s line would otherwise move between cores with every
  // task of a cycle).
  uint32_t ran = 0;
  for (uint32_t k = 0; k < n; ++k) {
    std::atomic<uint64_t>& range = shares_[(thread + k) % n].range;
    // Look before claiming: an exhausted share is only read, so threads passing over the
    // others' finished shares do not bounce their cache lines between cores.
    for (uint64_t seen = range.load(std::memory_order_relaxed);
         static_cast<uint32_t>(seen) < static_cast<uint32_t>(seen >> 32);
         seen = range.load(std::memory_order_relaxed)) {
      const uint64_t claimed = range.fetch_add(1);
      const uint32_t i = static_cast<uint32_t>(claimed);
      if (i >= static_cast<uint32_t>(claimed >> 32)) break;
      // Claimed: the caller cannot start another batch before this task is counted done, so
      // task_ stays as published.
      try {
        (*task_)(i);
      } catch (...) {
        errors_[i] = std::current_exception();
      }
      ++ran;
    }
  }
  if (ran != 0) done_.fetch_add(ran);
}

void WorkerPool::worker_loop(uint32_t thread) {
  uint32_t seen = 0;
  while (true) {
    uint32_t g = generation_word_.load();
    for (uint32_t round = 0; g == seen; ++round) {
      if (round < kSpinRounds) {
        cpu_relax();
      } else if (round < kYieldRounds) {
        std::this_thread::yield();
      } else {
        // Dekker with run(): it publishes the generation, then looks for sleepers; a sleeper
        // counts itself, then sleeps only if the word is still the one it saw.
        sleepers_.fetch_add(1);
        generation_word_.wait(g);
        sleepers_.fetch_sub(1);
        round = 0;
      }
      g = generation_word_.load();
    }
    seen = g;
    if (stop_.load()) return;
    work(thread);
  }
}

void WorkerPool::run(uint32_t count, const std::function<void(uint32_t)>& task, std::span<const uint32_t> starts) {
  if (count > errors_.size())
    throw std::invalid_argument(fmt::format("a batch of {} tasks exceeds the pool's {}", count, errors_.size()));
  const uint32_t n = static_cast<uint32_t>(shares_.size());
  if (!starts.empty()) {
    bool ordered = starts.size() == n && starts[0] == 0;
    for (uint32_t k = 1; ordered && k < n; ++k) ordered = starts[k - 1] <= starts[k] && starts[k] <= count;
    if (!ordered)
      throw std::invalid_argument(fmt::format("share starts must be {} ascending indices from 0 to at most {}", n, count));
  }
  if (workers_.empty() || count == 1) {
    // One thread or one task: the same order and the same first exception, without the hand-off.
    std::exception_ptr first;
    for (uint32_t i = 0; i < count; ++i) {
      try {
        task(i);
      } catch (...) {
        if (!first) first = std::current_exception();
      }
    }
    if (first) std::rethrow_exception(first);
    return;
  }
  task_ = &task;
  done_.store(0);
  const auto start = [&](uint32_t k) {
    if (k == n) return count;
    return starts.empty() ? static_cast<uint32_t>(uint64_t{count} * k / n) : starts[k];
  };
  for (uint32_t k = 0; k < n; ++k) shares_[k].range.store(share_range(start(k), start(k + 1)));
  generation_word_.store(++generation_);
  if (sleepers_.load() != 0) generation_word_.notify_all();
  work(0);
  for (uint32_t round = 0; done_.load() != count; ++round) {
    if (round < kSpinRounds) cpu_relax();
    else std::this_thread::yield();
  }
  std::exception_ptr first;
  for (uint32_t i = 0; i < count; ++i) {
    if (errors_[i] && !first) first = errors_[i];
    errors_[i] = nullptr;
  }
  if (first) std::rethrow_exception(first);
}

}  // namespace lockstep::func
