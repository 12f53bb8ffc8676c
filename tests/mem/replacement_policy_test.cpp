// The replacement policy contract, run over every registered policy, then one behaviour test per
// policy, then the registry's errors.
#include "mem/replacement/replacement_policy.h"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace lockstep::mem {
namespace {

constexpr uint32_t kSets = 4;
constexpr uint32_t kWays = 8;

uint32_t line(uint32_t set, uint32_t way) {
  return set * kWays + way;
}

class ReplacementContract : public testing::TestWithParam<std::string_view> {
 protected:
  std::unique_ptr<ReplacementPolicy> policy_ = make_replacement_policy(GetParam(), kSets, kWays);
};

TEST_P(ReplacementContract, VictimIsAlwaysACandidate) {
  uint64_t seed = 12345;
  auto next = [&seed] { return seed = seed * 6364136223846793005u + 1442695040888963407u; };
  for (int step = 0; step < 2000; ++step) {
    const uint64_t r = next();
    const auto set = static_cast<uint32_t>((r >> 33) % kSets);
    const auto way = static_cast<uint32_t>((r >> 40) % kWays);
    switch ((r >> 50) % 3) {
      case 0:
        policy_->on_fill(line(set, way));
        break;
      case 1:
        policy_->on_hit(line(set, way));
        break;
      default:
        break;
    }
    const uint64_t mask = ((r >> 20) & 0xffu) | (uint64_t{1} << way);  // never zero
    const uint32_t victim = policy_->victim(set, mask);
    ASSERT_LT(victim, kWays);
    ASSERT_TRUE((mask >> victim) & 1u) << "step " << step << " mask " << mask;
  }
}

TEST_P(ReplacementContract, EmptyWaysComeFirstLowestOne) {
  policy_->on_fill(line(1, 0));
  policy_->on_fill(line(1, 2));
  EXPECT_EQ(policy_->victim(1, 0xff), 1u);
  EXPECT_EQ(policy_->victim(1, 0b1101), 3u);  // way 1 is empty but not a candidate
  for (uint32_t way = 0; way < kWays; ++way) policy_->on_fill(line(1, way));
  policy_->on_hit(line(1, 5));
  policy_->on_invalidate(line(1, 6));
  EXPECT_EQ(policy_->victim(1, 0xff), 6u);  // invalidated: empty again
}

TEST_P(ReplacementContract, VictimChangesNothingAndSetsAreIndependent) {
  for (uint32_t way = 0; way < kWays; ++way) policy_->on_fill(line(2, way));
  const uint32_t before = policy_->victim(2, 0xff);
  EXPECT_EQ(policy_->victim(2, 0xff), before);
  for (uint32_t way = 0; way < kWays; ++way) policy_->on_fill(line(3, kWays - 1 - way));
  policy_->on_hit(line(3, 0));
  EXPECT_EQ(policy_->victim(2, 0xff), before);
  EXPECT_EQ(policy_->victim(0, 0xff), 0u);  // untouched set: all empty
}

TEST_P(ReplacementContract, SingleCandidateIsChosen) {
  for (uint32_t way = 0; way < kWays; ++way) policy_->on_fill(line(0, way));
  for (uint32_t way = 0; way < kWays; ++way) EXPECT_EQ(policy_->victim(0, uint64_t{1} << way), way);
}

INSTANTIATE_TEST_SUITE_P(EveryPolicy, ReplacementContract,
                         testing::ValuesIn(replacement_policy_names()),
                         [](const testing::TestParamInfo<std::string_view>& param) {
                           return std::string(param.param);
                         });

TEST(LruReplacement, EvictsTheLeastRecentlyUsed) {
  auto lru = make_replacement_policy("lru", 1, 4);
  for (uint32_t way = 0; way < 4; ++way) lru->on_fill(way);
  EXPECT_EQ(lru->victim(0, 0xf), 0u);
  lru->on_hit(0);
  EXPECT_EQ(lru->victim(0, 0xf), 1u);
  lru->on_hit(1);
  lru->on_hit(2);
  EXPECT_EQ(lru->victim(0, 0xf), 3u);
  EXPECT_EQ(lru->victim(0, 0b0111), 0u);
}

TEST(FifoReplacement, EvictsTheOldestFillRegardlessOfHits) {
  auto fifo = make_replacement_policy("fifo", 1, 4);
  for (uint32_t way = 0; way < 4; ++way) fifo->on_fill(way);
  fifo->on_hit(0);
  fifo->on_hit(0);
  EXPECT_EQ(fifo->victim(0, 0xf), 0u);
  fifo->on_fill(0);  // re-installed: now the newest
  EXPECT_EQ(fifo->victim(0, 0xf), 1u);
  EXPECT_EQ(fifo->victim(0, 0b1001), 3u);
}

TEST(ReplacementRegistry, ListsEveryPolicyByName) {
  EXPECT_EQ(replacement_policy_names(), (std::vector<std::string_view>{"fifo", "lru"}));
  for (const ReplacementPolicyInfo& info : replacement_policies())
    EXPECT_FALSE(info.description.empty());
}

TEST(ReplacementRegistry, UnknownNameListsTheKnownOnes) {
  try {
    make_replacement_policy("plru", 1, 4);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "unknown replacement policy 'plru' (accepted: fifo, lru)");
  }
}

TEST(ReplacementRegistry, RejectsBadGeometry) {
  EXPECT_THROW(make_replacement_policy("lru", 0, 4), std::invalid_argument);
  EXPECT_THROW(make_replacement_policy("lru", 1, 0), std::invalid_argument);
  EXPECT_THROW(make_replacement_policy("lru", 1, kMaxReplacementWays + 1), std::invalid_argument);
  EXPECT_NE(make_replacement_policy("fifo", 1, kMaxReplacementWays), nullptr);
}

}  // namespace
}  // namespace lockstep::mem
