// The DRAM channel's timing, cycle-exact: a row miss, hit and conflict each complete when the
// formulae of dram_channel.h say (1:1, 2:1 and 1.325:1 DRAM-to-core clock ratios), tRAS holds a
// precharge back, back-to-back hits are limited by the data bus, and activations to different
// banks overlap.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dram_harness.h"
#include "mem/dram/dram_channel.h"

namespace lockstep::mem {
namespace {

using dram_test::address_of;
using dram_test::Completion;
using dram_test::cycle_of;
using dram_test::read_of;
using dram_test::run_until_idle;
using dram_test::small_options;
using dram_test::write_of;

// With 1:1 clocks: miss = tRCD + tCL + burst = 10 + 10 + 2, hit = tCL + burst = 12,
// conflict = tRP + tRCD + tCL + burst = 32 cycles after the push.
TEST(DramChannelTiming, MissHitAndConflictCompleteAtTheFormulaCycles) {
  const DramOptions o = small_options();
  DramChannel channel(o);
  std::vector<Completion> log;

  channel.push(read_of(address_of(o, 0, 0), 1), 5);
  run_until_idle(channel, 5, log);
  EXPECT_EQ(cycle_of(log, 1), 5u + 22);

  channel.push(read_of(address_of(o, 0, 0, 32), 2), 100);
  run_until_idle(channel, 100, log);
  EXPECT_EQ(cycle_of(log, 2), 100u + 12);

  channel.push(read_of(address_of(o, 0, 1), 3), 200);
  run_until_idle(channel, 200, log);
  EXPECT_EQ(cycle_of(log, 3), 200u + 32);

  const DramStats& s = channel.stats();
  EXPECT_EQ(s.row_misses, 1u);
  EXPECT_EQ(s.row_hits, 1u);
  EXPECT_EQ(s.row_conflicts, 1u);
  EXPECT_EQ(s.activations, 2u);
  EXPECT_EQ(s.precharges, 1u);
  EXPECT_EQ(s.reads, 3u);
  EXPECT_EQ(s.bytes_read, 96u);
  EXPECT_EQ(s.read_latency_total, 22u + 12 + 32);
  EXPECT_EQ(s.read_latency_histogram[3], 1u);  // 12 in [8, 16)
  EXPECT_EQ(s.read_latency_histogram[4], 1u);  // 22 in [16, 32)
  EXPECT_EQ(s.read_latency_histogram[5], 1u);  // 32 in [32, 64)
  EXPECT_DOUBLE_EQ(s.bus_busy_cycles(), 6.0);  // three 2-cycle bursts
}

// A write: tWL + burst after its column command.
TEST(DramChannelTiming, WriteMissCompletesAfterActivateWriteLatencyAndBurst) {
  const DramOptions o = small_options();
  DramChannel channel(o);
  std::vector<Completion> log;
  channel.push(write_of(address_of(o, 3, 7), 1), 0);
  run_until_idle(channel, 0, log);
  EXPECT_EQ(cycle_of(log, 1), 10u + 4 + 2);
  EXPECT_EQ(channel.stats().writes, 1u);
  EXPECT_EQ(channel.stats().bytes_written, 32u);
  EXPECT_EQ(channel.stats().read_latency_total, 0u);
}

// Two requests to one bank, pushed together: the second's row conflicts with the first's, and its
// precharge must wait tRAS (20) after the activation at 0 even though the first's read issued at
// 10. Then tRP + tRCD + tCL + burst.
TEST(DramChannelTiming, ConflictPrechargeWaitsForTras) {
  for (const char* policy : {"fr-fcfs", "fcfs"}) {
    DramOptions o = small_options(policy);
    DramChannel channel(o);
    std::vector<Completion> log;
    channel.push(read_of(address_of(o, 0, 0), 1), 0);
    channel.push(read_of(address_of(o, 0, 1), 2), 0);
    run_until_idle(channel, 0, log);
    EXPECT_EQ(cycle_of(log, 1), 22u) << policy;
    EXPECT_EQ(cycle_of(log, 2), 20u + 10 + 10 + 10 + 2) << policy;
  }
}

// Core clock twice the DRAM clock: every DRAM clock is 2 core cycles and commands issue on DRAM
// clock edges (even cycles). Pushed in cycle 3, the request is first seen at the edge in cycle 4.
TEST(DramChannelTiming, TwoToOneClockRatio) {
  DramOptions o = small_options();
  o.core_clock_mhz = 2000;
  DramChannel channel(o);
  std::vector<Completion> log;
  channel.push(read_of(address_of(o, 0, 0), 1), 3);
  run_until_idle(channel, 3, log);
  EXPECT_EQ(cycle_of(log, 1), 4u + 2 * 22);
  channel.push(read_of(address_of(o, 0, 0, 64), 2), 100);
  run_until_idle(channel, 100, log);
  EXPECT_EQ(cycle_of(log, 2), 100u + 2 * 12);
  EXPECT_EQ(channel.stats().read_latency_total, 45u + 24);
}

// DRAM at 1325 MHz under a 1000 MHz core: 21.2 bytes per core cycle, a DRAM clock is 40/53 of a
// core cycle. A stream of hits to one open row keeps the bus busy back to back; request k (from 0)
// completes exactly at DRAM clock 22 + 2k, observed in core cycle ceil((22 + 2k) * 1000 / 1325).
// Rounding each 1.509-cycle burst (to 1/256 of a cycle, say) would drift by cycles over this run.
TEST(DramChannelTiming, NonIntegerRatioStaysExactOverALongStream) {
  DramOptions o = small_options();
  o.dram_clock_mhz = 1325;
  DramChannel channel(o);
  EXPECT_DOUBLE_EQ(dram_peak_bytes_per_cycle(o), 21.2);
  constexpr uint64_t kRequests = 20000;
  std::vector<Completion> log;
  std::vector<DramRequest> done;
  uint64_t pushed = 0;
  for (uint64_t now = 0; log.size() < kRequests && now < 100000; ++now) {
    while (pushed < kRequests && channel.can_accept(false)) {
      channel.push(read_of(address_of(o, 0, 0, static_cast<uint32_t>(pushed % 32) * 32), pushed), now);
      ++pushed;
    }
    done.clear();
    channel.tick(now, done);
    for (const DramRequest& r : done) log.push_back({r.request.token, now});
  }
  ASSERT_EQ(log.size(), kRequests);
  for (uint64_t k = 0; k < kRequests; ++k) {
    const uint64_t dram_clock = 22 + 2 * k;
    ASSERT_EQ(log[k].token, k);
    ASSERT_EQ(log[k].cycle, (dram_clock * 1000 + 1324) / 1325) << "request " << k;
  }
}

// Eight hits to an open row, pushed together, tCCD = 1: the bus is the limit, one 2-cycle burst
// after another; 64-byte requests take 4 cycles each.
TEST(DramChannelTiming, BackToBackHitsAreLimitedByTheDataBus) {
  for (uint32_t bytes : {32u, 64u}) {
    DramOptions o = small_options();
    o.timing.tCCD = 1;
    DramChannel channel(o);
    std::vector<Completion> log;
    channel.push(read_of(address_of(o, 2, 5), 100), 0);  // opens the row
    run_until_idle(channel, 0, log);
    for (uint32_t i = 0; i < 8; ++i) channel.push(read_of(address_of(o, 2, 5, i * bytes), i, bytes), 50);
    run_until_idle(channel, 50, log);
    const uint64_t burst = bytes / 16;
    for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(cycle_of(log, i), 50 + 10 + burst * (i + 1)) << bytes;
    EXPECT_EQ(channel.stats().row_hits, 8u);
  }
}

// Four misses to four banks, pushed together: the activations issue one a clock (0, 1, 2, 3) and
// overlap; the reads follow tCCD apart and the bursts back to back: 22, 24, 26, 28 (one bank after
// another would take 22 each).
TEST(DramChannelTiming, ActivationsToDifferentBanksOverlap) {
  for (const char* policy : {"fr-fcfs", "fcfs"}) {
    DramOptions o = small_options(policy);
    DramChannel channel(o);
    std::vector<Completion> log;
    for (uint32_t bank = 0; bank < 4; ++bank) channel.push(read_of(address_of(o, bank, 9), bank), 0);
    run_until_idle(channel, 0, log);
    if (std::string(policy) == "fr-fcfs") {
      for (uint32_t bank = 0; bank < 4; ++bank) EXPECT_EQ(cycle_of(log, bank), 22u + 2 * bank);
    } else {
      // fcfs: a younger request's activate waits until the older one's read has issued.
      for (uint32_t bank = 0; bank < 4; ++bank) EXPECT_EQ(cycle_of(log, bank), 22u + 11 * bank);
    }
    EXPECT_EQ(channel.stats().row_misses, 4u);
  }
}

// The optional turnarounds, measured on the data bus (tCL = tWL = 4 here so that commands do not
// hide them): a read's data starts tWTR after a write's data ends, a write's tRTW after a read's.
TEST(DramChannelTiming, BusTurnaroundsGapTheDataBus) {
  DramOptions o = small_options();
  o.timing.tCL = 4;
  o.timing.tWTR = 3;
  o.timing.tRTW = 5;
  DramChannel channel(o);
  std::vector<Completion> log;
  channel.push(write_of(address_of(o, 1, 0), 1), 0);  // opens bank 1 row 0: WR 10, data 14-16
  run_until_idle(channel, 0, log);
  channel.push(read_of(address_of(o, 0, 0), 2), 20);  // opens bank 0 row 0: RD 30, data 34-36
  run_until_idle(channel, 20, log);
  EXPECT_EQ(cycle_of(log, 1), 16u);
  EXPECT_EQ(cycle_of(log, 2), 36u);
  // Write then read: WR 50, data 54-56. The read would go at 52 (tCCD) with data at 56, but its
  // data must wait until 56 + tWTR = 59: RD 55, done 61.
  channel.push(write_of(address_of(o, 1, 0, 32), 3), 50);
  run_cycles(channel, 50, 51, log);
  channel.push(read_of(address_of(o, 0, 0, 32), 4), 51);
  run_cycles(channel, 51, 57, log);
  // Read then write: a write at 57 would have data at 61, right after the read's; it must wait
  // until 61 + tRTW = 66: WR 62, done 68.
  channel.push(write_of(address_of(o, 1, 0, 64), 5), 57);
  run_until_idle(channel, 57, log);
  EXPECT_EQ(cycle_of(log, 3), 56u);
  EXPECT_EQ(cycle_of(log, 4), 61u);
  EXPECT_EQ(cycle_of(log, 5), 68u);
}

}  // namespace
}  // namespace lockstep::mem
