// The channel's queues and its event contract: writes drained in batches between the watermarks,
// bounded queues that refuse (and count it) when full, next_event exact (tick does something in
// exactly the cycles it names) and ticking only at those cycles giving the same results as
// ticking every cycle.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "dram_harness.h"
#include "mem/dram/dram_channel.h"

namespace lockstep::mem {
namespace {

using dram_test::address_of;
using dram_test::Completion;
using dram_test::read_of;
using dram_test::run_until_idle;
using dram_test::small_options;
using dram_test::write_of;

// Queues of `depth` requests each with the given write watermarks, and bus turnarounds between
// reads and writes: the channels the event tests drive with mixed random traffic.
DramOptions turnaround_options(const char* policy, uint32_t depth, uint32_t high, uint32_t low) {
  DramOptions o = small_options(policy);
  o.read_queue = depth;
  o.write_queue = depth;
  o.write_high_watermark = high;
  o.write_low_watermark = low;
  o.timing.tWTR = 2;
  o.timing.tRTW = 3;
  return o;
}

std::vector<uint64_t> tokens(const std::vector<Completion>& log) {
  std::vector<uint64_t> out;
  for (const Completion& c : log) out.push_back(c.token);
  return out;
}

// Write queue of 8, high mark 6, low mark 2. Rows open beforehand (bank 0 for reads, bank 1 for
// writes), so every access below is a hit. Ten reads (tokens 0-9) and five writes (100-104) wait
// in cycle 100: reads go first, writes wait below the high mark. The sixth write (105) in cycle
// 101 starts a drain: four writes (down to the low mark), then the reads, then the last two
// writes once no read waits.
TEST(DramQueues, WritesDrainInBatchesBetweenTheWatermarks) {
  DramOptions o = small_options();
  o.write_queue = 8;
  o.write_high_watermark = 6;
  o.write_low_watermark = 2;
  DramChannel channel(o);
  std::vector<Completion> log;
  channel.push(read_of(address_of(o, 0, 0), 900), 0);
  channel.push(write_of(address_of(o, 1, 0), 901), 0);  // served once no read waits
  run_until_idle(channel, 0, log);
  ASSERT_EQ(tokens(log), (std::vector<uint64_t>{900, 901}));
  log.clear();

  for (uint32_t i = 0; i < 10; ++i) channel.push(read_of(address_of(o, 0, 0, 32 * i), i), 100);
  for (uint32_t i = 0; i < 5; ++i) channel.push(write_of(address_of(o, 1, 0, 32 * i), 100 + i), 100);
  EXPECT_FALSE(channel.draining_writes());
  std::vector<DramRequest> done;
  channel.tick(100, done);  // read 0 issues
  channel.push(write_of(address_of(o, 1, 0, 32 * 5), 105), 101);
  EXPECT_TRUE(channel.draining_writes());
  run_until_idle(channel, 101, log);
  EXPECT_FALSE(channel.draining_writes());
  EXPECT_EQ(tokens(log), (std::vector<uint64_t>{0, 100, 101, 102, 103, 1, 2, 3, 4, 5, 6, 7, 8, 9, 104, 105}));
  // Read 0: RD 100, done 112. The writes' data (tWL 4) must follow it on the bus: WR at 108, 110,
  // 112, 114 (done 114 .. 120); then reads from 116 (tCCD after the last write), done 128 ...
  EXPECT_EQ(log[0].cycle, 112u);
  EXPECT_EQ(log[1].cycle, 114u);
  EXPECT_EQ(log[4].cycle, 120u);
  EXPECT_EQ(log[5].cycle, 128u);
  EXPECT_EQ(channel.stats().writes, 7u);
}

TEST(DramQueues, FullQueueRefusesAndCountsUntilACommandFreesASlot) {
  DramOptions o = small_options();
  o.read_queue = 4;
  o.write_queue = 2;
  o.write_high_watermark = 2;
  o.write_low_watermark = 0;
  DramChannel channel(o);
  for (uint32_t i = 0; i < 4; ++i) {
    ASSERT_TRUE(channel.can_accept(false));
    channel.push(read_of(address_of(o, i, 3), i), 0);
  }
  EXPECT_FALSE(channel.can_accept(false));
  EXPECT_FALSE(channel.can_accept(false));
  EXPECT_TRUE(channel.can_accept(true));  // the write queue is separate
  EXPECT_EQ(channel.stats().read_refusals, 2u);
  EXPECT_EQ(channel.queued(false), 4u);
  // Activates (0-3) leave the requests queued; the first read command (10) frees a slot.
  std::vector<DramRequest> done;
  for (uint64_t now = 0; now < 10; ++now) {
    channel.tick(now, done);
    EXPECT_FALSE(channel.can_accept(false)) << now;
  }
  channel.tick(10, done);
  EXPECT_TRUE(channel.can_accept(false));
  EXPECT_EQ(channel.queued(false), 3u);
  EXPECT_EQ(channel.stats().read_refusals, 12u);
  channel.push(write_of(0, 50), 10);
  channel.push(write_of(32, 51), 10);
  EXPECT_FALSE(channel.can_accept(true));
  EXPECT_EQ(channel.stats().write_refusals, 1u);
}

TEST(DramQueues, RejectsRequestsThatAreEmptyOrCrossARow) {
  const DramOptions o = small_options();
  DramChannel channel(o);
  EXPECT_THROW(channel.push(read_of(address_of(o, 0, 0, 1000), 1, 32), 0), std::invalid_argument);
  EXPECT_THROW(channel.push(read_of(0, 1, 0), 0), std::invalid_argument);
  channel.push(read_of(address_of(o, 0, 0, 992), 1, 32), 0);  // the last sector of the row
  EXPECT_EQ(channel.queued(false), 1u);
}

// A deterministic mixed workload (reads and writes, hits, misses and conflicts over 4 banks and
// 3 rows, bursts of arrivals), under each policy and three clock ratios. Channel A is ticked every
// cycle: tick must report work exactly in the cycles next_event named. Channel B is ticked only in
// those cycles (and in cycles with a push): it must return the same requests in the same cycles.
TEST(DramEvents, NextEventIsExactAndSkippingToItChangesNothing) {
  for (const char* policy : {"fr-fcfs", "fcfs"}) {
    for (double dram_mhz : {1000.0, 500.0, 1325.0}) {
      DramOptions o = turnaround_options(policy, 6, 4, 1);
      o.dram_clock_mhz = dram_mhz;
      DramChannel every(o), skipping(o);
      std::vector<Completion> log_every, log_skipping;
      std::vector<DramRequest> done;
      uint64_t seed = 12345, token = 0, expected_every = 0, expected_skipping = 0;
      for (uint64_t now = 0; now < 6000; ++now) {
        bool push_now = false;
        DramRequest request;
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        if (now < 5000 && (seed >> 60) < 6) {
          const auto bank = static_cast<uint32_t>((seed >> 20) % 4);
          const uint64_t row = (seed >> 24) % 3;
          const auto column = static_cast<uint32_t>((seed >> 28) % 32) * 32;
          const bool write = (seed >> 34) % 4 == 0;
          request = write ? write_of(address_of(o, bank, row, column), token) : read_of(address_of(o, bank, row, column), token);
          push_now = every.can_accept(write) && skipping.can_accept(write);
        }
        if (push_now) {
          ++token;
          every.push(request, now);
          skipping.push(request, now);
        }
        // Channel A: every cycle.
        done.clear();
        const bool worked = every.tick(now, done);
        // A push in this cycle may change what happens in it; otherwise the last prediction holds.
        if (!push_now && now > 0) {
          EXPECT_EQ(worked, now == expected_every) << policy << " " << dram_mhz << " cycle " << now;
        }
        for (const DramRequest& r : done) log_every.push_back({r.request.token, now});
        expected_every = every.next_event(now);
        if (expected_every != UINT64_MAX) {
          EXPECT_GT(expected_every, now);
        }
        // Channel B: only when something is due or arrives.
        if (push_now || now == expected_skipping) {
          done.clear();
          skipping.tick(now, done);
          for (const DramRequest& r : done) log_skipping.push_back({r.request.token, now});
          expected_skipping = skipping.next_event(now);
        }
      }
      EXPECT_TRUE(every.idle());
      EXPECT_TRUE(skipping.idle());
      EXPECT_EQ(log_every.size(), token);
      EXPECT_EQ(log_every, log_skipping) << policy << " " << dram_mhz;
      EXPECT_GT(every.stats().row_conflicts, 0u);
      EXPECT_GT(every.stats().row_hits, 0u);
    }
  }
}

// The channel keeps its scheduling answer and its scanned candidates between calls, and a push
// only extends them (a request joining the queue being served) or leaves them standing (one
// joining the other queue). Asking after every push of a cycle must change nothing against
// asking once the cycle's pushes are in: bursts of mixed reads and writes, both policies.
TEST(DramEvents, AskingBetweenPushesChangesNothing) {
  // Load below each policy's service rate (fcfs serves conflicts in order, far slower), so that
  // reads are often being served while writes arrive below the high mark.
  for (auto [policy, busy_cycles_in_32] : {std::pair{"fr-fcfs", 5ull}, std::pair{"fcfs", 2ull}}) {
    const DramOptions o = turnaround_options(policy, 12, 9, 3);
    DramChannel asking(o), quiet(o);
    std::vector<Completion> log_asking, log_quiet;
    std::vector<DramRequest> done;
    uint64_t seed = 777, token = 0, writes_beside_reads = 0;
    for (uint64_t now = 0; now < 8000; ++now) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      const uint64_t burst = now < 7000 && (seed >> 59) < busy_cycles_in_32 ? 1 + (seed >> 40) % 3 : 0;  // 1 to 3
      for (uint64_t k = 0; k < burst; ++k) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        const auto bank = static_cast<uint32_t>((seed >> 20) % 6);
        const uint64_t row = (seed >> 24) % 3;
        const auto column = static_cast<uint32_t>((seed >> 28) % 32) * 32;
        const bool write = (seed >> 34) % 3 == 0;
        if (!asking.can_accept(write) || !quiet.can_accept(write)) continue;
        const DramRequest request =
            write ? write_of(address_of(o, bank, row, column), token) : read_of(address_of(o, bank, row, column), token);
        ++token;
        // A write joining while reads are served: the case where the answer is kept.
        if (write && asking.queued(false) != 0 && !asking.draining_writes()) ++writes_beside_reads;
        asking.push(request, now);
        quiet.push(request, now);
        asking.next_event(now);
      }
      done.clear();
      asking.tick(now, done);
      for (const DramRequest& r : done) log_asking.push_back({r.request.token, now});
      done.clear();
      quiet.tick(now, done);
      for (const DramRequest& r : done) log_quiet.push_back({r.request.token, now});
    }
    EXPECT_TRUE(asking.idle());
    EXPECT_EQ(log_asking.size(), token);
    EXPECT_EQ(log_asking, log_quiet) << policy;
    EXPECT_GT(writes_beside_reads, 100u) << policy;
    EXPECT_GT(asking.stats().row_conflicts, 0u);
  }
}

TEST(DramEvents, IdleChannelHasNoEvent) {
  const DramOptions o = small_options();
  DramChannel channel(o);
  EXPECT_EQ(channel.next_event(0), UINT64_MAX);
  channel.push(read_of(0, 1), 7);
  EXPECT_EQ(channel.next_event(6), 7u);  // the activate can issue in cycle 7
  std::vector<DramRequest> done;
  EXPECT_TRUE(channel.tick(7, done));
  EXPECT_EQ(channel.next_event(7), 17u);  // the read command
  EXPECT_FALSE(channel.tick(16, done));
  EXPECT_TRUE(channel.tick(17, done));
  EXPECT_EQ(channel.next_event(17), 29u);  // the burst ends
  EXPECT_TRUE(channel.tick(40, done));     // late: still returned
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].request.token, 1u);
  EXPECT_EQ(channel.next_event(40), UINT64_MAX);
  EXPECT_EQ(channel.stats().read_latency_total, 22u);  // by the completion time, not the tick
}

}  // namespace
}  // namespace lockstep::mem
