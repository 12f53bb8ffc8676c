#pragma once
// The configuration of one DRAM channel (HBM-style: one channel of a stack, 64 data bits).
// Timings are in DRAM clocks; the channel converts them once, at construction.
#include <cstdint>
#include <string>

#include "mem/dram/dram_timing.h"

namespace lockstep::mem {

struct DramOptions {
  double core_clock_mhz = 1000;  // the SM clock the simulator counts cycles in
  double dram_clock_mhz = 1000;  // the DRAM command clock (not the data rate)
  uint32_t bus_bytes = 8;        // bytes per transfer (64-bit channel)
  uint32_t transfers_per_clock = 2;  // DDR
  uint32_t banks = 16;           // all banks of the channel (bank groups flattened); power of two
  uint32_t row_bytes = 1024;     // bytes per row (page); power of two
  DramTiming timing;
  uint32_t read_queue = 64;   // bounded request queues
  uint32_t write_queue = 64;
  // Writes wait in their queue and are drained in a batch once it holds write_high_watermark,
  // until it is down to write_low_watermark; they are also served whenever no read waits.
  // Requires write_low_watermark < write_high_watermark <= write_queue.
  uint32_t write_high_watermark = 48;
  uint32_t write_low_watermark = 16;
  std::string scheduler = "fr-fcfs";  // see scheduler/dram_scheduler.h
};

// Throws std::invalid_argument naming the first field that breaks its rule (the clocks and the
// scheduler name are checked where they are used: DramClock, make_dram_scheduler).
void validate_dram_options(const DramOptions& options);

// The peak data rate in bytes per core cycle: bus_bytes * transfers_per_clock * dram / core.
inline double dram_peak_bytes_per_cycle(const DramOptions& options) {
  return options.bus_bytes * options.transfers_per_clock * options.dram_clock_mhz / options.core_clock_mhz;
}

}  // namespace lockstep::mem
