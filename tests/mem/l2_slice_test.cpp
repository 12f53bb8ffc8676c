// L2Slice with a mock DRAM (the test pops the to-DRAM queue and calls dram_fill itself): exact
// cycles of hits, misses, merges, back-pressure, write-backs and atomics.
#include "mem/l2_slice.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace lockstep::mem {
namespace {

constexpr uint32_t kLatency = 10;
constexpr uint32_t kAtomicLatency = 5;

L2SliceOptions options(uint32_t sets = 4, uint32_t ways = 2) {
  L2SliceOptions o;
  o.cache.sets = sets;
  o.cache.ways = ways;
  o.cache.mshr_entries = 4;
  o.cache.mshr_max_merge = 2;
  o.latency = kLatency;
  o.atomic_latency = kAtomicLatency;
  o.input_queue = 4;
  o.output_queue = 4;
  o.dram_queue = 4;
  return o;
}

MemRequest request(uint64_t line, uint32_t sectors, AccessKind kind, uint64_t token) {
  return MemRequest{.line = line, .sectors = sectors, .kind = kind, .source = 3, .token = token};
}

// The first cycle >= from at which a response is ready (searches a bounded window).
uint64_t ready_cycle(const L2Slice& slice, uint64_t from) {
  for (uint64_t c = from; c < from + 1000; ++c)
    if (slice.has_response(c)) return c;
  return UINT64_MAX;
}

MemRequest pop_dram(L2Slice& slice) {
  EXPECT_TRUE(slice.has_dram_request());
  const MemRequest r = slice.dram_front();
  slice.dram_pop();
  return r;
}

TEST(L2Slice, IdleSliceHasNoEvent) {
  L2Slice slice(options());
  EXPECT_EQ(slice.next_event(0), UINT64_MAX);
  EXPECT_FALSE(slice.tick(0));
}

TEST(L2Slice, MissThenDramFillThenHitLatency) {
  L2Slice slice(options());
  slice.accept(request(7, 0b0011, AccessKind::kRead, 1), 0);
  EXPECT_EQ(slice.next_event(0), 0u);
  EXPECT_TRUE(slice.tick(0));
  const MemRequest dram = pop_dram(slice);
  EXPECT_EQ(dram.line, 7u);
  EXPECT_EQ(dram.sectors, 0b0011u);
  EXPECT_EQ(dram.kind, AccessKind::kRead);
  EXPECT_EQ(dram.issued, 0u);
  EXPECT_EQ(slice.next_event(1), UINT64_MAX);  // waiting on DRAM only
  ASSERT_TRUE(slice.can_fill(7));
  slice.dram_fill(7, 0b0011, 100);
  EXPECT_EQ(slice.next_event(100), 100u + kLatency);
  EXPECT_EQ(ready_cycle(slice, 100), 100u + kLatency);
  EXPECT_EQ(slice.response_front().token, 1u);
  EXPECT_EQ(slice.response_front().kind, AccessKind::kRead);
  slice.response_pop();

  slice.accept(request(7, 0b0001, AccessKind::kRead, 2), 200);
  EXPECT_TRUE(slice.tick(200));
  EXPECT_FALSE(slice.has_dram_request());
  EXPECT_EQ(ready_cycle(slice, 200), 200u + kLatency);
  EXPECT_EQ(slice.response_front().token, 2u);
  EXPECT_EQ(slice.stats().reads, 2u);
  EXPECT_EQ(slice.cache_stats().hits, 1u);
}

TEST(L2Slice, RequestIsProcessedNoEarlierThanItsAcceptCycle) {
  L2Slice slice(options());
  slice.accept(request(7, 0b0001, AccessKind::kWrite, 1), 5);
  EXPECT_FALSE(slice.tick(4));
  EXPECT_EQ(slice.next_event(4), 5u);
  EXPECT_TRUE(slice.tick(5));
  EXPECT_EQ(ready_cycle(slice, 5), 5u + kLatency);
}

TEST(L2Slice, TwoRequestsForOneSectorShareOneDramRead) {
  L2Slice slice(options());
  slice.accept(request(7, 0b0100, AccessKind::kRead, 1), 0);
  slice.accept(request(7, 0b0100, AccessKind::kRead, 2), 0);
  EXPECT_TRUE(slice.tick(0));
  EXPECT_TRUE(slice.tick(1));
  pop_dram(slice);
  EXPECT_FALSE(slice.has_dram_request());  // the second one merged
  slice.dram_fill(7, 0b0100, 50);
  EXPECT_EQ(ready_cycle(slice, 0), 50u + kLatency);
  EXPECT_EQ(slice.response_front().token, 1u);
  slice.response_pop();
  EXPECT_TRUE(slice.has_response(50 + kLatency));
  EXPECT_EQ(slice.response_front().token, 2u);
  EXPECT_EQ(slice.cache_stats().mshr_merges, 1u);
}

TEST(L2Slice, NoFreeMshrHoldsTheHeadUntilAFill) {
  L2SliceOptions o = options();
  o.cache.mshr_entries = 1;
  L2Slice slice(o);
  slice.accept(request(1, 0b0001, AccessKind::kRead, 1), 0);
  slice.accept(request(2, 0b0001, AccessKind::kRead, 2), 0);
  EXPECT_TRUE(slice.tick(0));
  EXPECT_FALSE(slice.tick(1));
  EXPECT_FALSE(slice.tick(2));
  EXPECT_EQ(slice.stats().reservation_stalls, 2u);
  pop_dram(slice);
  EXPECT_EQ(slice.next_event(3), UINT64_MAX);  // only the fill can unblock it
  slice.dram_fill(1, 0b0001, 10);
  EXPECT_TRUE(slice.tick(10));
  EXPECT_EQ(pop_dram(slice).line, 2u);
  EXPECT_EQ(slice.stats().reads, 2u);
}

TEST(L2Slice, FullDramQueueHoldsAMissButNotAHit) {
  L2SliceOptions o = options();
  o.dram_queue = 1;
  L2Slice slice(o);
  slice.accept(request(1, 0b0001, AccessKind::kRead, 1), 0);
  slice.accept(request(2, 0b0001, AccessKind::kRead, 2), 0);
  EXPECT_TRUE(slice.tick(0));
  EXPECT_FALSE(slice.tick(1));
  EXPECT_EQ(slice.stats().dram_queue_stalls, 1u);
  EXPECT_EQ(slice.next_event(1), 1u);  // the DRAM request waiting to be taken
  EXPECT_EQ(pop_dram(slice).line, 1u);
  EXPECT_TRUE(slice.tick(2));
  EXPECT_EQ(slice.dram_front().line, 2u);
  slice.accept(request(1, 0b0001, AccessKind::kRead, 3), 3);  // merges: needs no DRAM slot
  EXPECT_TRUE(slice.tick(3));
}

TEST(L2Slice, FullOutputQueueHoldsTheHeadUntilAPop) {
  L2SliceOptions o = options();
  o.output_queue = 2;
  L2Slice slice(o);
  for (uint64_t t = 1; t <= 3; ++t) slice.accept(request(t, 0b0001, AccessKind::kWrite, t), 0);
  EXPECT_TRUE(slice.tick(0));
  EXPECT_TRUE(slice.tick(1));
  EXPECT_FALSE(slice.tick(2));
  EXPECT_EQ(slice.stats().output_queue_stalls, 1u);
  EXPECT_EQ(slice.next_event(2), kLatency);  // the first ack
  EXPECT_TRUE(slice.has_response(kLatency));
  slice.response_pop();
  EXPECT_TRUE(slice.tick(kLatency));
  EXPECT_FALSE(slice.can_fill(99));  // one free slot, fewer than mshr_max_merge
  slice.response_pop();
  EXPECT_EQ(ready_cycle(slice, kLatency), 2u * kLatency);
  EXPECT_EQ(slice.response_front().token, 3u);
}

TEST(L2Slice, InputQueueIsBounded) {
  L2Slice slice(options());
  for (uint64_t t = 0; t < 4; ++t) slice.accept(request(t, 0b0001, AccessKind::kRead, t), 0);
  EXPECT_FALSE(slice.can_accept());
  EXPECT_TRUE(slice.tick(0));
  EXPECT_TRUE(slice.can_accept());
}

TEST(L2Slice, DirtyVictimsBecomeDramWrites) {
  L2Slice slice(options(1, 1));
  slice.accept(request(1, 0b0101, AccessKind::kWrite, 1), 0);
  slice.accept(request(2, 0b0010, AccessKind::kWrite, 2), 0);
  slice.accept(request(3, 0b0001, AccessKind::kRead, 3), 0);
  EXPECT_TRUE(slice.tick(0));  // installs 1, no DRAM traffic (no fetch for a write)
  EXPECT_FALSE(slice.has_dram_request());
  EXPECT_TRUE(slice.tick(1));  // installs 2, evicting dirty 1
  MemRequest wb = pop_dram(slice);
  EXPECT_EQ(wb.line, 1u);
  EXPECT_EQ(wb.sectors, 0b0101u);
  EXPECT_EQ(wb.kind, AccessKind::kWrite);
  EXPECT_EQ(wb.issued, 1u);
  EXPECT_TRUE(slice.tick(2));  // read miss on 3
  EXPECT_EQ(pop_dram(slice).kind, AccessKind::kRead);
  slice.dram_fill(3, 0b0001, 40);  // installs 3, evicting dirty 2
  wb = pop_dram(slice);
  EXPECT_EQ(wb.line, 2u);
  EXPECT_EQ(wb.sectors, 0b0010u);
  EXPECT_EQ(wb.issued, 40u);
  EXPECT_EQ(ready_cycle(slice, 0), kLatency);  // the acks first, in order
  slice.response_pop();
  slice.response_pop();
  EXPECT_EQ(ready_cycle(slice, 0), 40u + kLatency);
  EXPECT_EQ(slice.response_front().token, 3u);
  EXPECT_EQ(slice.stats().dram_writes, 2u);
  EXPECT_EQ(slice.stats().dram_reads, 1u);
}

TEST(L2Slice, AtomicsReadModifyWriteAtTheSlice) {
  L2Slice slice(options(1, 1));
  slice.accept(request(5, 0b0011, AccessKind::kAtomic, 1), 0);
  EXPECT_TRUE(slice.tick(0));  // miss: fetch like a read
  EXPECT_EQ(pop_dram(slice).sectors, 0b0011u);
  slice.dram_fill(5, 0b0011, 20);
  EXPECT_EQ(ready_cycle(slice, 0), 20u + kLatency + kAtomicLatency);
  EXPECT_EQ(slice.response_front().kind, AccessKind::kAtomic);
  slice.response_pop();

  slice.accept(request(5, 0b0001, AccessKind::kAtomic, 2), 100);  // hit
  slice.accept(request(5, 0b0001, AccessKind::kRead, 3), 100);
  EXPECT_TRUE(slice.tick(100));
  EXPECT_TRUE(slice.tick(101));
  // In order: the read's own response is ready at 111 but leaves after the atomic's, at 115.
  EXPECT_EQ(ready_cycle(slice, 100), 100u + kLatency + kAtomicLatency);
  EXPECT_EQ(slice.response_front().token, 2u);
  slice.response_pop();
  EXPECT_EQ(slice.response_front().token, 3u);
  EXPECT_EQ(slice.stats().atomics, 2u);

  // The atomics left their sectors dirty: evicting line 5 writes both back.
  slice.accept(request(6, 0b0001, AccessKind::kWrite, 4), 200);
  EXPECT_TRUE(slice.tick(200));
  const MemRequest wb = pop_dram(slice);
  EXPECT_EQ(wb.line, 5u);
  EXPECT_EQ(wb.sectors, 0b0011u);
}

TEST(L2Slice, RejectsBadOptions) {
  auto rejects = [](auto change) {
    L2SliceOptions o = options();
    change(o);
    EXPECT_THROW(L2Slice{o}, std::invalid_argument);
  };
  rejects([](L2SliceOptions& o) { o.cache.write = WritePolicy::kWriteThroughNoAllocate; });
  rejects([](L2SliceOptions& o) { o.latency = 0; });
  rejects([](L2SliceOptions& o) { o.input_queue = 0; });
  rejects([](L2SliceOptions& o) { o.dram_queue = 0; });
  rejects([](L2SliceOptions& o) { o.output_queue = 1; });  // < mshr_max_merge
  rejects([](L2SliceOptions& o) { o.cache.ways = 0; });
}

}  // namespace
}  // namespace lockstep::mem
