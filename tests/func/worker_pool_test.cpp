// The worker pool both modes run their parallel phases on: every task of a batch runs exactly
// once, batches follow each other, and a task's exception reaches the caller as a serial run
// would raise it (the lowest-numbered task's).
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

#include "func/worker_pool.h"

namespace lockstep::func {
namespace {

TEST(WorkerPool, RunsEveryTaskOnceInEveryBatch) {
  for (uint32_t threads : {1u, 2u, 3u, 8u}) {
    WorkerPool pool(threads, 100);
    std::vector<std::atomic<uint32_t>> runs(100);
    for (uint32_t batch = 0; batch < 500; ++batch) {
      const uint32_t count = 1 + batch % 100;
      pool.run(count, [&](uint32_t i) { runs[i].fetch_add(1); });
    }
    // Task i runs in every batch of more than i tasks.
    for (uint32_t i = 0; i < 100; ++i) {
      uint32_t expected = 0;
      for (uint32_t batch = 0; batch < 500; ++batch) expected += i < 1 + batch % 100 ? 1 : 0;
      EXPECT_EQ(runs[i].load(), expected) << "task " << i << ", " << threads << " threads";
    }
  }
}

TEST(WorkerPool, UsesNoMoreThreadsThanTasks) {
  EXPECT_EQ(WorkerPool(8, 3).threads(), 3u);
  EXPECT_EQ(WorkerPool(2, 100).threads(), 2u);
  EXPECT_EQ(WorkerPool(0, 100).threads(), 1u);
}

TEST(WorkerPool, RethrowsTheLowestNumberedTasksExceptionAfterAllRan) {
  for (uint32_t threads : {1u, 2u, 4u}) {
    WorkerPool pool(threads, 64);
    std::atomic<uint32_t> ran{0};
    try {
      pool.run(64, [&](uint32_t i) {
        ran.fetch_add(1);
        if (i == 17 || i == 40) throw std::runtime_error("task " + std::to_string(i));
      });
      ADD_FAILURE() << "no exception";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "task 17");
    }
    EXPECT_EQ(ran.load(), 64u);
    // The pool is usable afterwards, and the old exception is gone.
    EXPECT_NO_THROW(pool.run(64, [](uint32_t) {}));
  }
}

TEST(WorkerPool, RunsEveryTaskOnceWithTheCallersShares) {
  // Uneven shares, empty ones and one that starts at the end, over many batches: a thread that
  // finishes its share takes tasks off the others', and every task still runs exactly once.
  WorkerPool pool(3, 100);
  ASSERT_EQ(pool.threads(), 3u);
  std::vector<std::atomic<uint32_t>> runs(100);
  uint32_t batches = 0;
  for (uint32_t count : {1u, 7u, 50u, 100u}) {
    for (const std::vector<uint32_t>& starts : std::vector<std::vector<uint32_t>>{
             {0, 0, 0}, {0, 0, count}, {0, count / 3, count / 2}, {0, count, count}}) {
      for (uint32_t batch = 0; batch < 50; ++batch, ++batches)
        pool.run(count, [&](uint32_t i) { runs[i].fetch_add(1); }, starts);
      for (uint32_t i = 0; i < 100; ++i) runs[i].store(runs[i].load() - (i < count ? 50 : 0));
    }
  }
  EXPECT_EQ(batches, 4u * 4u * 50u);
  for (uint32_t i = 0; i < 100; ++i) EXPECT_EQ(runs[i].load(), 0u) << "task " << i;
}

TEST(WorkerPool, RefusesSharesThatDoNotCoverTheBatchInOrder) {
  WorkerPool pool(3, 100);
  const std::string expected = "share starts must be 3 ascending indices from 0 to at most 10";
  for (const std::vector<uint32_t>& starts :
       std::vector<std::vector<uint32_t>>{{0, 5}, {1, 5, 7}, {0, 7, 5}, {0, 5, 11}, {0, 1, 2, 3}}) {
    try {
      pool.run(10, [](uint32_t) {}, starts);
      ADD_FAILURE() << "no exception";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(e.what(), expected);
    }
  }
}

TEST(WorkerPool, RefusesABatchLargerThanItWasBuiltFor) {
  WorkerPool pool(2, 4);
  EXPECT_THROW(pool.run(5, [](uint32_t) {}), std::invalid_argument);
  EXPECT_THROW(WorkerPool(2, WorkerPool::kMaxTasks + 1), std::invalid_argument);
}

}  // namespace
}  // namespace lockstep::func
