// The plan of an epoch's commit (func/commit_plan.h): which parked stores may run side by side.
// Exact sets, so that a change to the rule shows here before it shows as a wrong result.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "func/commit_plan.h"

namespace lockstep::func {
namespace {

ParkedFootprint store(uint64_t lo, uint64_t hi) { return {true, lo, hi}; }

std::vector<uint8_t> plan(const std::vector<ParkedFootprint>& parked, size_t* count = nullptr) {
  CommitPlanner planner;
  std::vector<uint8_t> independent{9, 9, 9};  // stale contents are replaced
  const size_t n = planner.plan(parked, independent);
  if (count != nullptr) *count = n;
  return independent;
}

TEST(CommitPlan, DisjointStoresAreAllIndependent) {
  size_t count = 0;
  // Touching ranges ([0,128) and [128,256)) share no byte.
  EXPECT_EQ(plan({store(0, 128), store(128, 256), store(512, 640)}, &count), (std::vector<uint8_t>{1, 1, 1}));
  EXPECT_EQ(count, 3u);
}

TEST(CommitPlan, UnsortedRangesArePlannedTheSame) {
  EXPECT_EQ(plan({store(512, 640), store(0, 128), store(128, 256)}), (std::vector<uint8_t>{1, 1, 1}));
  EXPECT_EQ(plan({store(512, 640), store(0, 128), store(100, 256)}), (std::vector<uint8_t>{1, 0, 0}));
}

TEST(CommitPlan, OverlappingStoresStaySerial) {
  // One shared byte is enough.
  EXPECT_EQ(plan({store(0, 129), store(128, 256), store(256, 300)}), (std::vector<uint8_t>{0, 0, 1}));
  // The same range twice (two blocks writing the same element).
  EXPECT_EQ(plan({store(64, 68), store(0, 4), store(64, 68)}), (std::vector<uint8_t>{0, 1, 0}));
  // A wide range that covers others far from its start.
  EXPECT_EQ(plan({store(0, 1000), store(10, 20), store(990, 995), store(1000, 1004)}),
            (std::vector<uint8_t>{0, 0, 0, 1}));
}

TEST(CommitPlan, AnInstructionOfUnknownBytesKeepsTheWholeEpochSerial) {
  size_t count = 7;
  EXPECT_EQ(plan({store(0, 128), ParkedFootprint{}, store(512, 640)}, &count), (std::vector<uint8_t>{0, 0, 0}));
  EXPECT_EQ(count, 0u);
}

TEST(CommitPlan, AnEmptyEpochPlansNothing) {
  size_t count = 7;
  EXPECT_TRUE(plan({}, &count).empty());
  EXPECT_EQ(count, 0u);
}

TEST(CommitPlan, ThePlannerCanBeReused) {
  CommitPlanner planner;
  std::vector<uint8_t> independent;
  EXPECT_EQ(planner.plan({store(0, 8), store(4, 12)}, independent), 0u);
  EXPECT_EQ(planner.plan({store(8, 16), store(0, 8), store(16, 24)}, independent), 3u);
  EXPECT_EQ(independent, (std::vector<uint8_t>{1, 1, 1}));
}

}  // namespace
}  // namespace lockstep::func
