// The instruction cache: exact hit/miss sequences that tell LRU from FIFO, address mapping,
// merging of misses into one fill, a set with every way filling, and the registry's errors.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <utility>

#include "sim/instruction_cache.h"

namespace lockstep::sim {
namespace {

constexpr FetchOutcome kHit = FetchOutcome::kHit, kMiss = FetchOutcome::kMiss,
                       kMerged = FetchOutcome::kMergedMiss, kSetFull = FetchOutcome::kSetFull;
constexpr uint64_t A = 0x000, B = 0x080, C = 0x100;  // three 128-byte lines

InstructionCacheOptions one_set_two_ways(std::string replacement) {
  return {.sets = 1, .ways = 2, .line_bytes = 128, .miss_latency = 10, .replacement = std::move(replacement)};
}

struct Step {
  uint64_t pc, cycle;
  FetchResult expected;
};

void run_steps(InstructionCache& cache, const std::vector<Step>& steps) {
  for (size_t i = 0; i < steps.size(); ++i) {
    const FetchResult got = cache.access(steps[i].pc, steps[i].cycle);
    EXPECT_EQ(got.outcome, steps[i].expected.outcome) << "step " << i;
    EXPECT_EQ(got.ready_cycle, steps[i].expected.ready_cycle) << "step " << i;
  }
}

// A, B fill the set; A is used again; C must evict: LRU takes B (least recently used), FIFO
// takes A (filled first). The following accesses show which line each kept.
TEST(InstructionCache, LruKeepsTheLineUsedAgain) {
  InstructionCache cache(one_set_two_ways("lru"));
  run_steps(cache, {{A, 0, {kMiss, 10}},
                    {B, 1, {kMiss, 11}},
                    {A, 20, {kHit, 20}},
                    {C, 21, {kMiss, 31}},    // evicts B
                    {A, 40, {kHit, 40}},
                    {B, 41, {kMiss, 51}},    // evicts C (A was used at 40)
                    {A + 64, 60, {kHit, 60}}});
  EXPECT_EQ(cache.stats().hits, 3u);
  EXPECT_EQ(cache.stats().misses, 4u);
  EXPECT_EQ(cache.stats().merged_misses, 0u);
}

TEST(InstructionCache, FifoEvictsTheLineFilledFirst) {
  InstructionCache cache(one_set_two_ways("fifo"));
  run_steps(cache, {{A, 0, {kMiss, 10}},
                    {B, 1, {kMiss, 11}},
                    {A, 20, {kHit, 20}},
                    {C, 21, {kMiss, 31}},    // evicts A although A was just used
                    {A, 40, {kMiss, 50}},    // evicts B
                    {B, 41, {kMiss, 51}},    // evicts C
                    {A + 64, 60, {kHit, 60}}});
  EXPECT_EQ(cache.stats().hits, 2u);
  EXPECT_EQ(cache.stats().misses, 5u);
}

TEST(InstructionCache, AddressesMapToLinesAndSets) {
  // 2 sets x 1 way of 128 bytes: lines 0 and 2 share set 0, line 1 is alone in set 1.
  InstructionCache cache({.sets = 2, .ways = 1, .line_bytes = 128, .miss_latency = 5, .replacement = "lru"});
  run_steps(cache, {{0x000, 0, {kMiss, 5}},
                    {0x080, 0, {kMiss, 5}},
                    {0x07c, 5, {kHit, 5}},     // last instruction of line 0
                    {0x0f8, 6, {kHit, 6}},     // line 1
                    {0x100, 7, {kMiss, 12}},   // line 2 replaces line 0 in set 0
                    {0x0a0, 12, {kHit, 12}},   // line 1 untouched
                    {0x010, 12, {kMiss, 17}}});
}

TEST(InstructionCache, AccessesToALineBeingFilledWaitForTheSameFill) {
  InstructionCache cache(one_set_two_ways("lru"));
  run_steps(cache, {{A, 0, {kMiss, 10}},
                    {A + 8, 3, {kMerged, 10}},
                    {A + 120, 9, {kMerged, 10}},
                    {A + 16, 10, {kHit, 10}}});
  EXPECT_EQ(cache.stats().misses, 3u);
  EXPECT_EQ(cache.stats().merged_misses, 2u);  // one request to the next level
  EXPECT_EQ(cache.stats().hits, 1u);
}

// A merged miss is a use: under LRU it protects its line, under FIFO it does not.
TEST(InstructionCache, MergedMissRenewsTheLineUnderLruOnly) {
  const std::vector<Step> prefix{{A, 0, {kMiss, 10}}, {B, 1, {kMiss, 11}}, {A, 2, {kMerged, 10}},
                                 {C, 20, {kMiss, 30}}};
  InstructionCache lru(one_set_two_ways("lru"));
  run_steps(lru, prefix);
  run_steps(lru, {{A, 30, {kHit, 30}}});  // C evicted B
  InstructionCache fifo(one_set_two_ways("fifo"));
  run_steps(fifo, prefix);
  run_steps(fifo, {{B, 30, {kHit, 30}}});  // C evicted A
}

TEST(InstructionCache, SetWithEveryWayFillingRefusesUntilAFillCompletes) {
  InstructionCache cache(one_set_two_ways("lru"));
  run_steps(cache, {{A, 0, {kMiss, 10}},
                    {B, 4, {kMiss, 14}},
                    {C, 5, {kSetFull, 10}},   // nothing evictable before A's fill at 10
                    {C, 10, {kMiss, 20}},     // A is complete and least recent: evicted
                    {B, 12, {kMerged, 14}},   // B still filling, kept
                    {A, 13, {kSetFull, 14}}});
  EXPECT_EQ(cache.stats().set_full, 2u);
  EXPECT_EQ(cache.stats().misses, 4u);
  EXPECT_EQ(cache.stats().merged_misses, 1u);
}

// The policies are the caches' registry's (mem/replacement/), errors included.
TEST(InstructionCache, RegistryNamesAndErrors) {
  for (const mem::ReplacementPolicyInfo& info : mem::replacement_policies())
    EXPECT_NO_THROW(InstructionCache(one_set_two_ways(std::string(info.name)))) << info.name;
  try {
    InstructionCache cache(one_set_two_ways("random"));
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "unknown replacement policy 'random' (accepted: fifo, lru)");
  }
  EXPECT_THROW(InstructionCache({.sets = 1, .ways = mem::kMaxReplacementWays + 1, .line_bytes = 128,
                                 .miss_latency = 1, .replacement = "lru"}),
               std::invalid_argument);
  EXPECT_THROW(InstructionCache({.sets = 0, .ways = 1, .line_bytes = 128, .miss_latency = 1, .replacement = "lru"}),
               std::invalid_argument);
  EXPECT_THROW(InstructionCache({.sets = 1, .ways = 1, .line_bytes = 128, .miss_latency = 0, .replacement = "lru"}),
               std::invalid_argument);
}

}  // namespace
}  // namespace lockstep::sim
