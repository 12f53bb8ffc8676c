// Bandwidth: a long stream of sequential 32-byte reads through a channel with HBM2-class timing
// (the DramOptions defaults) reaches at least 90% of the channel's peak over the run and never
// exceeds it, for 1 KiB and 2 KiB rows and a 1325 MHz DRAM clock under a 1000 MHz core (21.2
// bytes per core cycle) as well as 1:1 clocks. The producer pushes whenever the read queue has
// room, so the channel alone sets the pace.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "dram_harness.h"
#include "mem/dram/dram_channel.h"

namespace lockstep::mem {
namespace {

using dram_test::read_of;

struct StreamResult {
  uint64_t cycles = 0;  // from the first push to the cycle the last request came back
  uint64_t bytes = 0;
};

StreamResult stream_reads(DramChannel& channel, uint64_t requests) {
  std::vector<DramRequest> done;
  done.reserve(64);
  uint64_t pushed = 0, returned = 0, now = 0;
  for (; returned < requests; ++now) {
    while (pushed < requests && channel.can_accept(false)) {
      channel.push(read_of(pushed * 32, pushed), now);
      ++pushed;
    }
    done.clear();
    channel.tick(now, done);
    for (const DramRequest& r : done) EXPECT_EQ(r.request.token, returned++);  // in order
  }
  return {now, requests * 32};
}

TEST(DramBandwidth, SequentialReadsReachNinetyPercentOfPeak) {
  constexpr uint64_t kRequests = uint64_t{1} << 16;  // whole rows
  for (uint32_t row_bytes : {1024u, 2048u}) {
    for (double dram_mhz : {1000.0, 1325.0}) {
      DramOptions o;  // HBM2-class defaults: 16 banks, 8-byte DDR bus, tRCD = tCL = tRP = 14
      o.core_clock_mhz = 1000;
      o.dram_clock_mhz = dram_mhz;
      o.row_bytes = row_bytes;
      DramChannel channel(o);
      const StreamResult r = stream_reads(channel, kRequests);
      const double peak = dram_peak_bytes_per_cycle(o);
      const double achieved = static_cast<double>(r.bytes) / static_cast<double>(r.cycles);
      EXPECT_GE(achieved, 0.9 * peak) << row_bytes << " B rows, " << dram_mhz << " MHz";
      EXPECT_LE(achieved, peak) << row_bytes << " B rows, " << dram_mhz << " MHz";
      const DramStats& s = channel.stats();
      EXPECT_EQ(s.bytes_read, r.bytes);
      EXPECT_LE(s.bus_busy_cycles(), static_cast<double>(r.cycles));
      // The bus carries exactly the bytes moved: busy time x peak rate.
      EXPECT_NEAR(s.bus_busy_cycles() * peak, static_cast<double>(r.bytes), 1e-6 * static_cast<double>(r.bytes));
      // One activation per row touched; every other request a hit.
      EXPECT_EQ(s.activations, kRequests * 32 / row_bytes);
      EXPECT_EQ(s.row_hits + s.row_misses + s.row_conflicts, kRequests);
    }
  }
}

}  // namespace
}  // namespace lockstep::mem
