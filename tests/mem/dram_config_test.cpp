// The DRAM channel's building blocks: the address map (column lowest, then bank, then row), the
// fixed-point clock (exact units for 1:1, 2:1 and 1.325:1 ratios; too fine a ratio refused), the
// option checks, and the latency histogram's buckets.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "mem/dram/dram_address.h"
#include "mem/dram/dram_channel.h"
#include "mem/dram/dram_clock.h"
#include "mem/dram/dram_stats.h"

namespace lockstep::mem {
namespace {

TEST(DramAddressMap, ColumnThenBankThenRow) {
  const DramAddressMap map(16, 1024);
  EXPECT_EQ(map.decode(0), (DramAddress{0, 0, 0}));
  EXPECT_EQ(map.decode(1023), (DramAddress{0, 0, 1023}));
  EXPECT_EQ(map.decode(1024), (DramAddress{0, 1, 0}));
  EXPECT_EQ(map.decode(15 * 1024 + 32), (DramAddress{0, 15, 32}));
  EXPECT_EQ(map.decode(16 * 1024), (DramAddress{1, 0, 0}));
  EXPECT_EQ(map.decode((uint64_t{12345} * 16 + 7) * 1024 + 96), (DramAddress{12345, 7, 96}));
  const DramAddressMap wide(64, 2048);
  EXPECT_EQ(wide.decode((uint64_t{3} * 64 + 63) * 2048 + 2047), (DramAddress{3, 63, 2047}));
}

TEST(DramClock, UnitsMakeCoreCyclesDramClocksAndBeatsWhole) {
  const DramClock same(1000, 1000, 2);  // a core cycle = a DRAM clock = 2 beats
  EXPECT_EQ(same.units_per_cycle(), 2u);
  EXPECT_EQ(same.units_per_beat(), 1u);
  EXPECT_EQ(same.units_per_clock(), 2u);
  const DramClock half(2000, 1000, 2);  // a DRAM clock = 2 core cycles
  EXPECT_EQ(half.units_per_cycle(), 1u);
  EXPECT_EQ(half.units_per_clock(), 2u);
  const DramClock odd(1000, 1325, 2);  // a core cycle = 2.65 beats = 53/20
  EXPECT_EQ(odd.units_per_cycle(), 53u);
  EXPECT_EQ(odd.units_per_beat(), 20u);
  EXPECT_EQ(odd.units_per_clock(), 40u);
  EXPECT_EQ(odd.cycle_holding(52), 0u);
  EXPECT_EQ(odd.cycle_holding(53), 1u);
  EXPECT_EQ(odd.cycle_after(53), 1u);
  EXPECT_EQ(odd.cycle_after(54), 2u);
  EXPECT_EQ(odd.edge_at_or_after(53), 80u);
  EXPECT_EQ(odd.edge_at_or_after(80), 80u);
  const DramClock fractional(1410, 1593.75, 2);  // H100-like core against a 1593.75 MHz clock
  EXPECT_EQ(fractional.units_per_cycle() * 1410000, fractional.units_per_beat() * 3187500);
  EXPECT_THROW(DramClock(1000, 0, 2), std::invalid_argument);
  EXPECT_THROW(DramClock(-5, 1000, 2), std::invalid_argument);
  EXPECT_THROW(DramClock(1000, 1000, 0), std::invalid_argument);
  EXPECT_THROW(DramClock(1000.001, 999.999, 2), std::invalid_argument);  // 1000001 : 1999998
}

TEST(DramOptionsCheck, NamesTheBadField) {
  const auto message = [](DramOptions o) -> std::string {
    try {
      DramChannel channel(o);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(message(DramOptions{}), "");
  DramOptions o;
  o.banks = 12;
  EXPECT_EQ(message(o), "dram option banks must be a power of two");
  o = {};
  o.row_bytes = 1000;
  EXPECT_EQ(message(o), "dram option row_bytes must be a power of two");
  o = {};
  o.bus_bytes = 0;
  EXPECT_EQ(message(o), "dram option bus_bytes must be at least 1");
  o = {};
  o.read_queue = 0;
  EXPECT_EQ(message(o), "dram option read_queue must be at least 1");
  o = {};
  o.write_high_watermark = 65;
  EXPECT_EQ(message(o), "dram option write_high_watermark must be from 1 to write_queue");
  o = {};
  o.write_low_watermark = 48;
  EXPECT_EQ(message(o), "dram option write_low_watermark must be below write_high_watermark");
  o = {};
  o.scheduler = "fifo";
  EXPECT_EQ(message(o), "unknown dram scheduler 'fifo' (known: fr-fcfs, fcfs)");
}

TEST(DramStatsHistogram, PowerOfTwoBuckets) {
  EXPECT_EQ(DramStats::latency_bucket(0), 0u);
  EXPECT_EQ(DramStats::latency_bucket(1), 0u);
  EXPECT_EQ(DramStats::latency_bucket(2), 1u);
  EXPECT_EQ(DramStats::latency_bucket(3), 1u);
  EXPECT_EQ(DramStats::latency_bucket(4), 2u);
  EXPECT_EQ(DramStats::latency_bucket(1023), 9u);
  EXPECT_EQ(DramStats::latency_bucket(1024), 10u);
  EXPECT_EQ(DramStats::latency_bucket(uint64_t{1} << 15), 15u);
  EXPECT_EQ(DramStats::latency_bucket(UINT64_MAX), 15u);
}

}  // namespace
}  // namespace lockstep::mem
