// Warp scheduler policies: the registry, a contract every registered policy keeps, and each
// policy's behaviour (seed 001 §3.4.2-3.4.3). The worked figures are in
// warp_scheduler_figures_test.cpp.
#include "sim/warp_scheduler/warp_scheduler.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <stdexcept>
#include <string>

namespace lockstep::sim {
namespace {

WarpSet warps(uint32_t capacity, std::initializer_list<uint32_t> members) {
  WarpSet set(capacity);
  for (uint32_t w : members) set.set(w);
  return set;
}

// A scheduler with `slots` resident warps, all of age 0.
std::unique_ptr<WarpScheduler> full(std::string_view name, uint32_t slots, uint32_t group = 8) {
  auto s = make_warp_scheduler(name, {.warp_slots = slots, .fetch_group_size = group});
  for (uint32_t w = 0; w < slots; ++w) s->on_warp_added(w, 0);
  return s;
}

TEST(WarpSet, NextCrossesWordsAndStopsAtCapacity) {
  WarpSet set = warps(130, {3, 64, 129});
  EXPECT_EQ(set.count(), 3u);
  EXPECT_EQ(set.next(0), 3u);
  EXPECT_EQ(set.next(4), 64u);
  EXPECT_EQ(set.next(65), 129u);
  EXPECT_EQ(set.next(130), kNoWarp);
  set.reset(129);
  EXPECT_EQ(set.next(65), kNoWarp);
  set.clear();
  EXPECT_TRUE(set.empty());
  EXPECT_EQ(set.next(0), kNoWarp);
}

TEST(WarpSchedulerRegistry, NamesInOrder) {
  std::string names;
  for (const WarpSchedulerInfo& info : warp_schedulers()) names += std::string(info.name) + " ";
  EXPECT_EQ(names, "lrr gto two-level ");
}

TEST(WarpSchedulerRegistry, UnknownNameListsTheAcceptedOnes) {
  try {
    make_warp_scheduler("rr", {.warp_slots = 4});
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "unknown warp scheduler 'rr' (accepted: lrr, gto, two-level)");
  }
}

TEST(WarpSchedulerRegistry, OptionsAPolicyCannotUse) {
  try {
    make_warp_scheduler("gto", {.warp_slots = 0});
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "warp scheduler 'gto' needs at least one warp slot");
  }
  try {
    make_warp_scheduler("two-level", {.warp_slots = 4, .fetch_group_size = 0});
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "warp scheduler 'two-level' needs a fetch group of at least one warp");
  }
}

// The contract of WarpScheduler::select, for every registered policy: none exactly when nothing
// is ready, otherwise a ready warp; select alone changes nothing. Ready sets from a fixed LCG.
TEST(WarpSchedulerContract, EveryPolicyPicksAReadyWarpWheneverOneIsReady) {
  for (const WarpSchedulerInfo& info : warp_schedulers()) {
    SCOPED_TRACE(std::string(info.name));
    auto s = full(info.name, 12, 4);
    WarpSet ready(12);
    EXPECT_EQ(s->select(ready), kNoWarp);
    uint32_t seed = 12345;
    for (int step = 0; step < 500; ++step) {
      ready.clear();
      for (uint32_t w = 0; w < 12; ++w) {
        seed = seed * 1103515245u + 12345u;
        if ((seed >> 16) % 3 == 0) ready.set(w);
      }
      const uint32_t chosen = s->select(ready);
      if (ready.empty()) {
        EXPECT_EQ(chosen, kNoWarp);
        continue;
      }
      ASSERT_NE(chosen, kNoWarp);
      EXPECT_TRUE(ready.test(chosen));
      EXPECT_EQ(s->select(ready), chosen);
      s->on_issue(chosen, static_cast<uint64_t>(step));
      if (step % 7 == 0) s->on_long_latency(chosen);
      if (step % 7 == 3) s->on_long_latency_done((chosen + 5) % 12);
    }
  }
}

TEST(LrrWarpScheduler, FirstReadyAfterTheLastIssuedWrappingAround) {
  auto s = full("lrr", 8);
  EXPECT_EQ(s->select(warps(8, {0, 5})), 0u);  // the first turn is warp 0's
  s->on_issue(6, 0);
  EXPECT_EQ(s->select(warps(8, {1, 3, 7})), 7u);
  s->on_issue(7, 1);
  EXPECT_EQ(s->select(warps(8, {1, 3, 7})), 1u);  // wraps past the last slot
  s->on_issue(1, 2);
  EXPECT_EQ(s->select(warps(8, {1, 3, 7})), 3u);
  s->on_issue(3, 3);
  EXPECT_EQ(s->select(warps(8, {3})), 3u);  // the only ready warp, even the one just issued
}

TEST(LrrWarpScheduler, TheTurnStaysWhenTheLastIssuedWarpLeaves) {
  auto s = full("lrr", 8);
  s->on_issue(3, 0);
  s->on_warp_removed(3);
  EXPECT_EQ(s->select(warps(8, {2, 5})), 5u);
  s->on_warp_added(3, 1);  // a new CTA's warp in slot 3 waits for its turn
  EXPECT_EQ(s->select(warps(8, {2, 3, 5})), 5u);
}

TEST(GtoWarpScheduler, GreedyWhileReadyThenOldest) {
  auto s = make_warp_scheduler("gto", {.warp_slots = 8});
  for (uint32_t w = 0; w < 4; ++w) s->on_warp_added(w, 1);  // the second CTA in slots 0-3
  for (uint32_t w = 4; w < 8; ++w) s->on_warp_added(w, 0);  // the first CTA in slots 4-7
  const WarpSet all = warps(8, {0, 1, 2, 3, 4, 5, 6, 7});
  EXPECT_EQ(s->select(all), 4u);  // oldest CTA, its lowest slot
  s->on_issue(2, 0);
  EXPECT_EQ(s->select(all), 2u);                     // greedy
  EXPECT_EQ(s->select(warps(8, {0, 1, 6, 7})), 6u);  // 2 stalled: oldest ready
  EXPECT_EQ(s->select(warps(8, {1, 0})), 0u);        // same age: lower slot
}

TEST(GtoWarpScheduler, ANewWarpInAFreedSlotIsYoungestAndNotGreedy) {
  auto s = full("gto", 4);
  s->on_issue(0, 0);
  s->on_warp_removed(0);
  s->on_warp_added(0, 7);
  EXPECT_EQ(s->select(warps(4, {0, 3})), 3u);
  s->on_issue(0, 1);
  EXPECT_EQ(s->select(warps(4, {0, 3})), 0u);  // greedy once it has issued
}

TEST(TwoLevelWarpScheduler, RoundRobinInsideTheTopGroupOnly) {
  auto s = full("two-level", 8, 4);  // groups 0-3 and 4-7
  const WarpSet all = warps(8, {0, 1, 2, 3, 4, 5, 6, 7});
  EXPECT_EQ(s->select(all), 0u);
  s->on_issue(3, 0);
  EXPECT_EQ(s->select(all), 0u);  // wraps inside group 0, never to warp 4
  s->on_issue(0, 1);
  EXPECT_EQ(s->select(warps(8, {0, 2, 5})), 2u);
  // Nothing of group 0 ready: the lower group's issue slot is not wasted.
  EXPECT_EQ(s->select(warps(8, {5, 6})), 5u);
  s->on_issue(5, 2);
  EXPECT_EQ(s->select(warps(8, {5, 6})), 6u);     // group 1 keeps its own turn
  EXPECT_EQ(s->select(warps(8, {1, 5, 6})), 1u);  // and group 0 still comes first
}

TEST(TwoLevelWarpScheduler, AGroupDropsWhenAllItsWarpsWaitOnLongLatency) {
  auto s = full("two-level", 10, 4);  // groups 0-3, 4-7, 8-9
  const WarpSet all = warps(10, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  for (uint32_t w : {0u, 1u, 2u}) s->on_long_latency(w);
  EXPECT_EQ(s->select(warps(10, {3, 4})), 3u);  // warp 3 does not wait: group 0 stays on top
  s->on_long_latency(9);                        // not the top group: no change
  s->on_long_latency(3);                        // all of group 0 waits: ranks 1, 2, 0
  EXPECT_EQ(s->select(all), 4u);
  s->on_long_latency_done(0);
  EXPECT_EQ(s->select(warps(10, {0, 8})), 8u);  // back from memory, but now ranked last
  for (uint32_t w : {4u, 5u, 6u, 7u}) s->on_long_latency(w);  // ranks 2, 0, 1
  EXPECT_EQ(s->select(warps(10, {0, 4, 8})), 8u);
  s->on_long_latency(8);  // 9 waits too (above): ranks 0, 1, 2
  EXPECT_EQ(s->select(warps(10, {0, 4, 8})), 0u);
}

TEST(TwoLevelWarpScheduler, AGroupLeftWithOnlyWaitingWarpsDrops) {
  auto s = full("two-level", 8, 4);
  s->on_long_latency(0);
  s->on_long_latency(1);
  s->on_warp_removed(2);
  EXPECT_EQ(s->select(warps(8, {3, 4})), 3u);
  s->on_warp_removed(3);  // 0 and 1 wait, 2 and 3 are gone: group 1 on top
  s->on_long_latency_done(0);
  EXPECT_EQ(s->select(warps(8, {0, 4})), 4u);
  s->on_warp_added(2, 1);  // a new CTA in the freed slots joins group 0 where it ranks
  EXPECT_EQ(s->select(warps(8, {2, 5})), 5u);
}

}  // namespace
}  // namespace lockstep::sim
