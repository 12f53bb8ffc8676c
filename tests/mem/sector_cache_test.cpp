// SectorCache: hits, sector misses, MSHR merging and back-pressure, replacement, both write
// policies, and exact statistics.
#include "mem/sector_cache.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace lockstep::mem {
namespace {

using Tokens = std::vector<uint64_t>;

SectorCacheOptions small(uint32_t sets, uint32_t ways, const char* replacement = "lru",
                         WritePolicy write = WritePolicy::kWriteThroughNoAllocate) {
  SectorCacheOptions o;
  o.sets = sets;
  o.ways = ways;
  o.replacement = replacement;
  o.write = write;
  o.mshr_entries = 4;
  o.mshr_max_merge = 4;
  return o;
}

// Fills `sectors` of `line` and returns the tokens it released.
Tokens fill(SectorCache& cache, uint64_t line, uint32_t sectors, Eviction* evicted = nullptr) {
  Tokens ready;
  cache.fill(line, sectors, ready, evicted);
  return ready;
}

TEST(SectorCache, ColdMissThenHitAfterFill) {
  SectorCache cache(small(4, 2));
  EXPECT_EQ(cache.read(10, 0b0001, 7), (ReadResult{ReadOutcome::kMiss, 0b0001}));
  EXPECT_FALSE(cache.probe(10, 0b0001));
  EXPECT_EQ(fill(cache, 10, 0b0001), Tokens{7});
  EXPECT_TRUE(cache.probe(10, 0b0001));
  EXPECT_EQ(cache.read(10, 0b0001, 8), (ReadResult{ReadOutcome::kHit, 0}));
}

TEST(SectorCache, SectorMissOnAPresentLineFetchesOnlyTheMissingSectors) {
  SectorCache cache(small(4, 2));
  cache.read(10, 0b0001, 1);
  fill(cache, 10, 0b0001);
  EXPECT_EQ(cache.read(10, 0b0011, 2), (ReadResult{ReadOutcome::kSectorMiss, 0b0010}));
  EXPECT_EQ(cache.read(10, 0b1110, 3), (ReadResult{ReadOutcome::kSectorMiss, 0b1100}));
  EXPECT_EQ(cache.unrequested(10, 0b1111), 0u);
  EXPECT_EQ(fill(cache, 10, 0b1110), (Tokens{2, 3}));
  EXPECT_TRUE(cache.probe(10, 0b1111));
}

TEST(SectorCache, TwoReadsOfOneMissingSectorMergeIntoOneFetch) {
  SectorCache cache(small(4, 2));
  EXPECT_EQ(cache.read(10, 0b0100, 1), (ReadResult{ReadOutcome::kMiss, 0b0100}));
  EXPECT_EQ(cache.read(10, 0b0100, 2), (ReadResult{ReadOutcome::kHitReserved, 0}));
  EXPECT_EQ(fill(cache, 10, 0b0100), (Tokens{1, 2}));
  EXPECT_EQ(cache.stats().mshr_merges, 1u);
  // The entry is free again: a new miss on the line allocates one.
  EXPECT_EQ(cache.read(10, 0b1000, 3), (ReadResult{ReadOutcome::kSectorMiss, 0b1000}));
}

TEST(SectorCache, PendingLineWithNewSectorsIsASectorMiss) {
  SectorCache cache(small(4, 2));
  cache.read(10, 0b0001, 1);
  EXPECT_EQ(cache.read(10, 0b0011, 2), (ReadResult{ReadOutcome::kSectorMiss, 0b0010}));
  EXPECT_EQ(fill(cache, 10, 0b0001), Tokens{1});
  EXPECT_EQ(fill(cache, 10, 0b0010), Tokens{2});
}

TEST(SectorCache, ATokenOnTwoSectorsIsReadyOnlyWhenBothArrived) {
  SectorCache cache(small(4, 2));
  EXPECT_EQ(cache.read(10, 0b0011, 5), (ReadResult{ReadOutcome::kMiss, 0b0011}));
  EXPECT_EQ(cache.read(10, 0b0010, 6), (ReadResult{ReadOutcome::kHitReserved, 0}));
  EXPECT_EQ(fill(cache, 10, 0b0001), Tokens{});
  EXPECT_EQ(fill(cache, 10, 0b0010), (Tokens{5, 6}));
}

TEST(SectorCache, LaterWaiterReadyFirstKeepsTheOthersInOrder) {
  SectorCache cache(small(4, 2));
  cache.read(10, 0b0010, 1);
  cache.read(10, 0b0001, 2);
  cache.read(10, 0b0010, 3);
  EXPECT_EQ(fill(cache, 10, 0b0001), Tokens{2});
  EXPECT_EQ(fill(cache, 10, 0b0010), (Tokens{1, 3}));
}

TEST(SectorCache, MshrFullIsAReservationFailThatChangesNothing) {
  SectorCacheOptions o = small(4, 2);
  o.mshr_entries = 1;
  SectorCache cache(o);
  cache.read(10, 0b0001, 1);
  const SectorCacheStats before = cache.stats();
  EXPECT_EQ(cache.read(20, 0b0001, 2), (ReadResult{ReadOutcome::kReservationFail, 0}));
  EXPECT_EQ(cache.stats().reservation_fails, before.reservation_fails + 1);
  EXPECT_EQ(cache.stats().misses, before.misses);
  EXPECT_EQ(cache.unrequested(20, 0b0001), 0b0001u);
  EXPECT_EQ(fill(cache, 10, 0b0001), Tokens{1});  // token 2 was never recorded
  EXPECT_EQ(cache.read(20, 0b0001, 2), (ReadResult{ReadOutcome::kMiss, 0b0001}));
}

TEST(SectorCache, MergeLimitIsAReservationFail) {
  SectorCacheOptions o = small(4, 2);
  o.mshr_max_merge = 2;
  SectorCache cache(o);
  EXPECT_EQ(cache.read(10, 0b0001, 1).outcome, ReadOutcome::kMiss);
  EXPECT_EQ(cache.read(10, 0b0001, 2).outcome, ReadOutcome::kHitReserved);
  EXPECT_EQ(cache.read(10, 0b0001, 3).outcome, ReadOutcome::kReservationFail);
  EXPECT_EQ(cache.read(10, 0b0010, 4).outcome, ReadOutcome::kReservationFail);
  EXPECT_EQ(cache.unrequested(10, 0b0011), 0b0010u);  // the failed sector miss requested nothing
  EXPECT_EQ(cache.read(30, 0b0001, 5).outcome, ReadOutcome::kMiss);  // other lines unaffected
  EXPECT_EQ(fill(cache, 10, 0b0001), (Tokens{1, 2}));
}

// 1 set, 2 ways: install A then B, hit A, install C. LRU evicts B (A was used since); FIFO evicts
// A (installed first, hits do not count).
uint64_t evicted_by_c(const char* replacement) {
  SectorCache cache(small(1, 2, replacement));
  fill(cache, 1, 0b0001);
  fill(cache, 2, 0b0001);
  EXPECT_EQ(cache.read(1, 0b0001, 0).outcome, ReadOutcome::kHit);
  Eviction evicted;
  fill(cache, 3, 0b0001, &evicted);
  EXPECT_TRUE(evicted.evicted);
  EXPECT_EQ(evicted.dirty_sectors, 0u);
  EXPECT_TRUE(cache.present(3));
  EXPECT_FALSE(cache.present(evicted.line));
  return evicted.line;
}

TEST(SectorCache, LruAndFifoEvictInTheirOrder) {
  EXPECT_EQ(evicted_by_c("lru"), 2u);
  EXPECT_EQ(evicted_by_c("fifo"), 1u);
}

TEST(SectorCache, ALineWaitingForSectorsIsNotAVictim) {
  SectorCache cache(small(1, 2, "fifo"));
  fill(cache, 1, 0b0001);
  fill(cache, 2, 0b0001);
  EXPECT_EQ(cache.read(1, 0b0010, 9).outcome, ReadOutcome::kSectorMiss);  // line 1 now pending
  Eviction evicted;
  fill(cache, 3, 0b0001, &evicted);
  EXPECT_EQ(evicted.line, 2u);  // FIFO alone would pick line 1
  EXPECT_EQ(fill(cache, 1, 0b0010), Tokens{9});
}

TEST(SectorCache, WriteThroughNeverAllocates) {
  SectorCache cache(small(4, 2));
  EXPECT_EQ(cache.write(10, 0b0001), WriteResult{});
  EXPECT_FALSE(cache.present(10));
  EXPECT_EQ(cache.read(10, 0b0001, 1).outcome, ReadOutcome::kMiss);
  fill(cache, 10, 0b0001);
  EXPECT_EQ(cache.write(10, 0b0011), (WriteResult{.hit = true, .evicted = {}}));
  EXPECT_TRUE(cache.probe(10, 0b0001));
  EXPECT_FALSE(cache.probe(10, 0b0010));  // a written sector that was absent stays absent
}

TEST(SectorCache, WriteBackAllocatesAndReportsTheDirtyVictim) {
  SectorCache cache(small(1, 1, "lru", WritePolicy::kWriteBackAllocate));
  EXPECT_EQ(cache.write(10, 0b0101), WriteResult{});
  EXPECT_EQ(cache.read(10, 0b0101, 1), (ReadResult{ReadOutcome::kHit, 0}));  // no fetch needed
  EXPECT_EQ(cache.read(10, 0b0010, 2).fetch, 0b0010u);
  fill(cache, 10, 0b0010);
  EXPECT_EQ(cache.write(10, 0b1000), (WriteResult{.hit = true, .evicted = {}}));
  EXPECT_EQ(cache.write(20, 0b0001), (WriteResult{false, Eviction{true, 10, 0b1101, 0b1111}}));
  Eviction evicted;
  fill(cache, 30, 0b0010, &evicted);
  EXPECT_EQ(evicted, (Eviction{true, 20, 0b0001, 0b0001}));
  fill(cache, 40, 0b0010, &evicted);
  EXPECT_EQ(evicted, (Eviction{true, 30, 0, 0b0010}));
  EXPECT_EQ(cache.stats().evictions, 3u);
  EXPECT_EQ(cache.stats().dirty_evictions, 2u);
}

TEST(SectorCache, InvalidateAllKeepsOutstandingMisses) {
  SectorCache cache(small(4, 2));
  fill(cache, 10, 0b0001);
  cache.read(11, 0b0001, 4);
  cache.invalidate_all();
  EXPECT_FALSE(cache.present(10));
  EXPECT_EQ(cache.read(10, 0b0001, 5).outcome, ReadOutcome::kMiss);
  EXPECT_EQ(cache.read(11, 0b0001, 6).outcome, ReadOutcome::kHitReserved);
  EXPECT_EQ(fill(cache, 11, 0b0001), (Tokens{4, 6}));
}

TEST(SectorCache, StatsCountExactly) {
  SectorCacheOptions o = small(1, 1, "lru", WritePolicy::kWriteBackAllocate);
  o.mshr_entries = 1;
  SectorCache cache(o);
  cache.read(1, 0b0001, 1);  // miss
  cache.read(1, 0b0001, 2);  // hit reserved (merge)
  cache.read(1, 0b0010, 3);  // sector miss (merge)
  cache.read(2, 0b0001, 4);  // reservation fail
  fill(cache, 1, 0b0011);    // fill, releases 1 2 3
  cache.read(1, 0b0011, 5);  // hit
  cache.read(1, 0b0100, 6);  // sector miss on a present line
  cache.write(1, 0b1000);    // write hit
  cache.write(2, 0b0001);    // write miss: evicts dirty line 1
  SectorCacheStats expected;
  expected.accesses = 6;
  expected.hits = 1;
  expected.hit_reserved = 1;
  expected.misses = 1;
  expected.sector_misses = 2;
  expected.reservation_fails = 1;
  expected.mshr_merges = 2;
  expected.fills = 1;
  expected.evictions = 1;
  expected.dirty_evictions = 1;
  expected.writes = 2;
  expected.write_hits = 1;
  const SectorCacheStats& s = cache.stats();
  EXPECT_EQ(s.accesses, expected.accesses);
  EXPECT_EQ(s.hits, expected.hits);
  EXPECT_EQ(s.hit_reserved, expected.hit_reserved);
  EXPECT_EQ(s.misses, expected.misses);
  EXPECT_EQ(s.sector_misses, expected.sector_misses);
  EXPECT_EQ(s.reservation_fails, expected.reservation_fails);
  EXPECT_EQ(s.mshr_merges, expected.mshr_merges);
  EXPECT_EQ(s.fills, expected.fills);
  EXPECT_EQ(s.evictions, expected.evictions);
  EXPECT_EQ(s.dirty_evictions, expected.dirty_evictions);
  EXPECT_EQ(s.writes, expected.writes);
  EXPECT_EQ(s.write_hits, expected.write_hits);
}

TEST(SectorCache, RejectsBadOptions) {
  auto rejects = [](auto change) {
    SectorCacheOptions o;
    change(o);
    EXPECT_THROW(SectorCache{o}, std::invalid_argument);
  };
  rejects([](SectorCacheOptions& o) { o.sets = 0; });
  rejects([](SectorCacheOptions& o) { o.ways = 65; });
  rejects([](SectorCacheOptions& o) { o.sector_bytes = 48; });
  rejects([](SectorCacheOptions& o) { o.sector_bytes = 2; });  // 64 sectors
  rejects([](SectorCacheOptions& o) { o.mshr_entries = 0; });
  rejects([](SectorCacheOptions& o) { o.mshr_max_merge = 0; });
  rejects([](SectorCacheOptions& o) { o.replacement = "random"; });
  SectorCacheOptions o;
  o.sector_bytes = 4;  // 32 sectors: the widest mask
  SectorCache cache(o);
  EXPECT_EQ(cache.read(0, 0x80000000u, 1), (ReadResult{ReadOutcome::kMiss, 0x80000000u}));
}

}  // namespace
}  // namespace lockstep::mem
