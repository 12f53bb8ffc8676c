#pragma once
// What one DRAM channel counts (plain data; stats/ prints it). Bandwidth used over a run is
// (bytes_read + bytes_written) / elapsed core cycles; bus utilisation is bus_busy_cycles() /
// elapsed.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace lockstep::mem {

struct DramStats {
  static constexpr std::size_t kLatencyBuckets = 16;

  uint64_t reads = 0;   // completed read requests
  uint64_t writes = 0;  // completed write requests
  uint64_t bytes_read = 0;
  uint64_t bytes_written = 0;
  // Each request is classified once, by the first command issued for it.
  uint64_t row_hits = 0;       // its row was open: straight to the column command
  uint64_t row_misses = 0;     // its bank was closed: activate first
  uint64_t row_conflicts = 0;  // another row was open: precharge first
  uint64_t activations = 0;
  uint64_t precharges = 0;
  // can_accept calls answered "full" (a producer asks once a cycle while it stalls, so this
  // counts its stalled cycles).
  uint64_t read_refusals = 0;
  uint64_t write_refusals = 0;
  // Data-bus busy time, exactly: bus_busy_units / units_per_cycle core cycles.
  uint64_t bus_busy_units = 0;
  uint64_t units_per_cycle = 1;
  // Read latency in core cycles, push to completion.
  uint64_t read_latency_total = 0;
  // Bucket 0: latency 0-1; bucket i: [2^i, 2^(i+1)); the last bucket also holds everything above.
  std::array<uint64_t, kLatencyBuckets> read_latency_histogram{};

  double bus_busy_cycles() const {
    return static_cast<double>(bus_busy_units) / static_cast<double>(units_per_cycle);
  }
  static std::size_t latency_bucket(uint64_t latency) {
    if (latency < 2) return 0;
    const auto bucket = static_cast<std::size_t>(std::bit_width(latency) - 1);
    return bucket < kLatencyBuckets ? bucket : kLatencyBuckets - 1;
  }
};

}  // namespace lockstep::mem
