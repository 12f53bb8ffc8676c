#pragma once
// What the memory hierarchy did during one launch (memory.model = hierarchy): the LD/ST units'
// coalescing and bank conflicts, the L1s, the L2 slices and the DRAM channels. Counts are the
// launch's own (the L2 and DRAM outlive launches: their counters are differences).
#include <array>
#include <cstdint>

namespace lockstep::sim {

struct CacheFigures {
  uint64_t accesses = 0;           // reads looked up (retries after a reservation failure included)
  uint64_t hits = 0;
  uint64_t hit_reserved = 0;       // missing sectors already on their way: merged into an MSHR
  uint64_t misses = 0;             // line absent
  uint64_t sector_misses = 0;      // line present or pending, some sectors missing
  uint64_t reservation_fails = 0;  // no MSHR free: the access waited
  uint64_t mshr_merges = 0;
  uint64_t writes = 0, write_hits = 0;
  uint64_t evictions = 0, dirty_evictions = 0;
  friend bool operator==(const CacheFigures&, const CacheFigures&) = default;
  double hit_rate() const { return accesses ? double(hits) / double(accesses) : 0.0; }
};

struct MemoryTiming {
  bool modelled = false;  // false: fixed latencies, nothing below is counted
  // LD/ST units.
  uint64_t global_accesses = 0;   // warp-level global and local accesses
  uint64_t transactions = 0;      // after coalescing
  uint64_t sectors = 0;
  uint64_t shared_accesses = 0;
  uint64_t shared_passes = 0;
  std::array<uint64_t, 33> shared_conflict_degree{};  // accesses by worst bank degree (index 32: 32 or more)
  uint64_t throttle_cycles = 0;   // SM-cycles the LD/ST unit's head transaction waited
  uint64_t loads = 0;
  uint64_t load_latency_total = 0;  // issue to result, summed over global, local and shared loads
  CacheFigures l1, l2;
  uint64_t l2_far_hits = 0;  // L2 misses the far partition answered (l2.sides = 2), not counted in l2.hits
  CacheFigures constant;  // the SMs' constant caches (ld.const)
  // DRAM.
  uint64_t dram_reads = 0, dram_writes = 0, dram_bytes = 0;
  uint64_t dram_row_hits = 0, dram_row_misses = 0, dram_row_conflicts = 0;
  double dram_bus_busy_cycles = 0;  // summed over channels
  uint32_t dram_channels = 0;
  uint64_t dram_read_latency_total = 0;
  std::array<uint64_t, 16> dram_read_latency_histogram{};  // bucket i: [2^i, 2^(i+1)) cycles
  friend bool operator==(const MemoryTiming&, const MemoryTiming&) = default;

  double average_load_latency() const { return loads ? double(load_latency_total) / double(loads) : 0.0; }
  double transactions_per_access() const {
    return global_accesses ? double(transactions) / double(global_accesses) : 0.0;
  }
  double row_buffer_hit_rate() const {
    const uint64_t n = dram_row_hits + dram_row_misses + dram_row_conflicts;
    return n ? double(dram_row_hits) / double(n) : 0.0;
  }
  // Data-bus busy time over the channels' time: bandwidth use.
  double dram_utilisation(uint64_t cycles) const {
    return cycles && dram_channels ? dram_bus_busy_cycles / (double(cycles) * dram_channels) : 0.0;
  }
};

}  // namespace lockstep::sim
