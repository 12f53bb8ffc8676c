#pragma once
// Runs a batch of independent tasks on a fixed set of threads, the caller's included, and
// returns when all are done. Both modes use it the same way: the timing model steps its SMs
// through a cycle, the functional model advances its resident blocks through an epoch
// (func/wave_runner.h). The tasks of a batch share nothing while they run, so which thread runs
// which task changes the wall time and nothing else.
//
// A batch is handed over through one claim word: generation (high 32 bits), task count (16
// bits), next task to claim (low 16 bits). A thread claims a task by advancing the word while it
// still names its generation, runs it and counts it in done_; the caller claims too and returns
// when done_ reaches the count. So a late thread can never claim into the next batch, and the
// caller waits only for tasks being run, never for a thread that has not woken up: running more
// threads than cores stays safe. Idle threads spin briefly, then yield, then sleep on the word.
#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <thread>
#include <vector>

namespace lockstep::func {

class WorkerPool {
 public:
  static constexpr uint32_t kMaxTasks = 0xffff;

  // `threads`: how many threads run tasks, the caller's included (1: the caller alone). Never
  // more than `max_tasks` (a batch of n tasks keeps at most n threads busy).
  WorkerPool(uint32_t threads, uint32_t max_tasks);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  uint32_t threads() const { return static_cast<uint32_t>(workers_.size()) + 1; }

  // Calls task(i) for every i in [0, count) (count <= kMaxTasks). Every task runs even when
  // one throws; then the exception of the lowest-numbered task that threw is rethrown, as a
  // serial run in task order would have stopped at it.
  void run(uint32_t count, const std::function<void(uint32_t)>& task);

 private:
  void work(uint32_t generation);
  void worker_loop();

  const std::function<void(uint32_t)>* task_ = nullptr;  // this batch's
  std::vector<std::exception_ptr> errors_;               // per task, this batch
  std::atomic<uint64_t> claim_{0};
  std::atomic<uint32_t> done_{0};
  std::atomic<uint32_t> sleepers_{0};
  std::atomic<bool> stop_{false};
  uint32_t generation_ = 0;  // the caller's
  std::vector<std::thread> workers_;
};

}  // namespace lockstep::func
