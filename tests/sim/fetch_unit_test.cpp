// The fetch unit in isolation (fixed-latency I-cache misses): one warp per partition and cycle
// fetches, round robin from the one after the last to fetch; a miss holds only its own warp for
// the miss latency; a full I-buffer, an exited warp or the end of the code leaves a warp out until
// its I-buffer frees an entry or it is redirected; a redirect ends a wait for a fill.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "sim/fetch_unit.h"

namespace lockstep::sim {
namespace {

constexpr uint32_t kCodeSize = 64;  // 8 instructions of 16 bytes per 128-byte line: 8 lines
constexpr uint32_t kMissLatency = 20;

class FetchUnitTest : public ::testing::Test {
 protected:
  explicit FetchUnitTest(uint32_t partitions = 2, uint32_t warps = 8, uint32_t entries = 2, uint32_t width = 2)
      : timing_(kCodeSize), ibuffer_({warps, entries}) {
    for (uint32_t pc = 0; pc < kCodeSize; ++pc) next_pc_.push_back(pc + 1);
    ScoreboardOptions sb;
    sb.warps = warps;
    sb.registers_per_warp = 4;
    sb.decoded_per_warp = entries;
    scoreboard_ = make_scoreboard("bitmap", sb);
    FetchUnitOptions o;
    o.partitions = partitions;
    o.warp_slots = warps;
    o.fetch_width = width;
    o.next_pc = &next_pc_;
    o.timing = &timing_;
    fetch_ = std::make_unique<FetchUnit>(o, InstructionCacheOptions{4, 4, 128, kMissLatency, "lru", false},
                                         ibuffer_, *scoreboard_);
  }
  // The warps the last tick fetched for or missed on.
  std::vector<uint32_t> touched() const { return fetch_->touched(); }
  // Issues the warp's I-buffer head, as the SM does.
  void issue(uint32_t slot) {
    ibuffer_.set_ready(slot, 0, true);
    scoreboard_->discard(slot, ibuffer_.pop(slot).token);
    fetch_->on_room(slot);
  }

  std::vector<InstTiming> timing_;
  std::vector<uint32_t> next_pc_;
  InstructionBuffer ibuffer_;
  std::unique_ptr<Scoreboard> scoreboard_;
  std::unique_ptr<FetchUnit> fetch_;
};

TEST_F(FetchUnitTest, AMissHoldsOnlyItsWarpAndEachPartitionFetchesForOneWarpACycle) {
  fetch_->add_warp(0, 0, 0);   // partition 0
  fetch_->add_warp(2, 0, 0);   // partition 0
  fetch_->add_warp(1, 16, 0);  // partition 1, on another line
  EXPECT_TRUE(fetch_->tick(0));
  EXPECT_EQ(touched(), (std::vector<uint32_t>{0, 1}));  // both miss
  EXPECT_EQ(fetch_->ready_at(0), kMissLatency);
  EXPECT_EQ(fetch_->ready_at(1), kMissLatency);
  EXPECT_TRUE(fetch_->tick(1));
  EXPECT_EQ(touched(), (std::vector<uint32_t>{2}));  // merges with warp 0's miss
  EXPECT_EQ(fetch_->ready_at(2), kMissLatency);
  EXPECT_FALSE(fetch_->tick(2));  // every warp waits for a fill
  EXPECT_EQ(fetch_->next_event(2), kMissLatency);
  EXPECT_TRUE(fetch_->tick(kMissLatency));
  // Round robin in partition 0: warp 2 missed last, so warp 0 (local 0) comes after it.
  EXPECT_EQ(touched(), (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(ibuffer_.count(0), 2u);  // two instructions of the line
  EXPECT_EQ(ibuffer_.entry(0, 1).pc, 1u);
  EXPECT_EQ(fetch_->fetch_pc(0), 2u);
  EXPECT_EQ(fetch_->fetch_pc(1), 18u);
  EXPECT_TRUE(fetch_->tick(kMissLatency + 1));
  EXPECT_EQ(touched(), (std::vector<uint32_t>{2}));  // warp 1's I-buffer is full
  EXPECT_EQ(fetch_->icache().stats().misses, 3u);
  EXPECT_EQ(fetch_->icache().stats().merged_misses, 1u);
}

TEST_F(FetchUnitTest, AFullIBufferWaitsForAnIssue) {
  fetch_->add_warp(0, 0, 0);
  fetch_->tick(0);                // miss
  fetch_->tick(kMissLatency);     // two instructions: full
  EXPECT_FALSE(fetch_->tick(kMissLatency + 1));
  EXPECT_FALSE(fetch_->tick(kMissLatency + 2));
  issue(0);
  EXPECT_TRUE(fetch_->tick(kMissLatency + 3));
  EXPECT_EQ(touched(), (std::vector<uint32_t>{0}));
  EXPECT_EQ(ibuffer_.entry(0, 1).pc, 2u);
}

TEST_F(FetchUnitTest, ABlockLaunchHoldsItsWarpsUntilTheirReadyCycle) {
  fetch_->add_warp(3, 0, 10);
  EXPECT_FALSE(fetch_->tick(0));
  EXPECT_EQ(fetch_->next_event(0), 10u);
  EXPECT_FALSE(fetch_->tick(9));
  EXPECT_TRUE(fetch_->tick(10));
  EXPECT_EQ(touched(), (std::vector<uint32_t>{3}));
}

TEST_F(FetchUnitTest, ARedirectEndsTheWaitForAFillAndFetchesFromTheNewPc) {
  fetch_->add_warp(0, 0, 0);
  fetch_->tick(0);  // miss on line 0
  fetch_->redirect({0, 40});
  EXPECT_EQ(fetch_->ready_at(0), 0u);
  EXPECT_TRUE(fetch_->tick(1));  // misses on line 5 at once
  EXPECT_EQ(fetch_->ready_at(0), 1 + kMissLatency);
  EXPECT_TRUE(fetch_->tick(1 + kMissLatency));
  EXPECT_EQ(ibuffer_.entry(0, 0).pc, 40u);
}

TEST_F(FetchUnitTest, AStoppedWarpAndTheEndOfTheCodeFetchNothing) {
  fetch_->add_warp(0, kCodeSize - 1, 0);
  fetch_->add_warp(2, 0, 0);
  fetch_->stop(2);
  EXPECT_TRUE(fetch_->tick(0));
  EXPECT_EQ(touched(), (std::vector<uint32_t>{0}));
  fetch_->tick(kMissLatency);
  EXPECT_EQ(ibuffer_.count(0), 1u);  // the last instruction only
  EXPECT_EQ(fetch_->fetch_pc(0), kCodeSize);
  EXPECT_FALSE(fetch_->tick(kMissLatency + 1));
  EXPECT_EQ(ibuffer_.count(2), 0u);
  fetch_->remove_warp(0);
  EXPECT_EQ(fetch_->next_event(kMissLatency + 1), UINT64_MAX);
}

}  // namespace
}  // namespace lockstep::sim
