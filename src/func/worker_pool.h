#pragma once
// Runs a batch of independent tasks on a fixed set of threads, the caller's included, and
// returns when all are done. Both modes use it the same way: the timing model steps its SMs
// through a cycle, the functional model advances its resident blocks through an epoch
// (func/wave_runner.h). The tasks of a batch share nothing while they run, so which thread runs
// which task changes the wall time and nothing else.
//
// The tasks of a batch are split into one contiguous share per thread, in thread order (the
// caller's first), equal or where the caller says. Each thread runs its own share first, then
// helps the others with theirs. A caller that gives the same tasks the same numbers from batch
// to batch (the slots of resident blocks), or the same shares (the SMs of a GPU), so finds each
// task on the thread that ran it last time, with its state still in that core's caches, and a
// thread that finishes early still takes work off the others. A share is one atomic word (its
// end, high 32 bits; its next task, low 32 bits); a thread claims by advancing it and runs the
// task; when it finds no more work it adds the tasks it ran to done_ (one shared write per
// thread and batch), and the caller returns when done_ reaches the count. A thread still
// looking for work of a finished batch can only claim tasks of the next one once its shares are
// published, and then runs them for it: the caller waits only for tasks being run, never for a
// thread that has not woken up, so running more threads than cores stays safe. Idle threads
// spin briefly, then yield, then sleep on the generation word.
#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <span>
#include <thread>
#include <vector>

namespace lockstep::func {

class WorkerPool {
 public:
  // Enough for every block of the largest cooperative grid the engine takes (a task each).
  static constexpr uint32_t kMaxTasks = uint32_t{1} << 16;

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
  // `starts`: where each thread's share begins (threads() entries, the first 0, ascending, none
  // past count), for a caller whose tasks are a changing subset of fixed items (the SMs awake
  // this cycle) and that wants each item on the same thread from batch to batch; empty: equal
  // shares.
  void run(uint32_t count, const std::function<void(uint32_t)>& task, std::span<const uint32_t> starts = {});

 private:
  // One thread's share of a batch, on a cache line of its own (threads claim from it at once).
  struct alignas(64) Share {
    std::atomic<uint64_t> range{0};  // end << 32 | next
  };

  void work(uint32_t thread);
  void worker_loop(uint32_t thread);

  const std::function<void(uint32_t)>* task_ = nullptr;  // this batch's
  std::vector<std::exception_ptr> errors_;               // per task, this batch
  std::vector<Share> shares_;                            // per thread, the caller's first
  std::atomic<uint32_t> generation_word_{0};             // the batch threads wait for
  std::atomic<uint32_t> done_{0};
  std::atomic<uint32_t> sleepers_{0};
  std::atomic<bool> stop_{false};
  uint32_t generation_ = 0;  // the caller's
  std::vector<std::thread> workers_;
};

}  // namespace lockstep::func
