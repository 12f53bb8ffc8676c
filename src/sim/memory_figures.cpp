#include "sim/memory_figures.h"

namespace lockstep::sim {

namespace {

CacheFigures minus(const CacheFigures& a, const CacheFigures& b) {
  CacheFigures d;
  d.accesses = a.accesses - b.accesses;
  d.hits = a.hits - b.hits;
  d.hit_reserved = a.hit_reserved - b.hit_reserved;
  d.misses = a.misses - b.misses;
  d.sector_misses = a.sector_misses - b.sector_misses;
  d.reservation_fails = a.reservation_fails - b.reservation_fails;
  d.mshr_merges = a.mshr_merges - b.mshr_merges;
  d.writes = a.writes - b.writes;
  d.write_hits = a.write_hits - b.write_hits;
  d.evictions = a.evictions - b.evictions;
  d.dirty_evictions = a.dirty_evictions - b.dirty_evictions;
  return d;
}

}  // namespace

void add_cache_figures(const mem::SectorCacheStats& s, CacheFigures& into) {
  into.accesses += s.accesses;
  into.hits += s.hits;
  into.hit_reserved += s.hit_reserved;
  into.misses += s.misses;
  into.sector_misses += s.sector_misses;
  into.reservation_fails += s.reservation_fails;
  into.mshr_merges += s.mshr_merges;
  into.writes += s.writes;
  into.write_hits += s.write_hits;
  into.evictions += s.evictions;
  into.dirty_evictions += s.dirty_evictions;
}

void add_ldst_figures(const LdstUnit& unit, MemoryTiming& into) {
  const LdstUnitStats& s = unit.stats();
  into.modelled = true;
  into.global_accesses += s.global_accesses;
  into.transactions += s.transactions;
  into.sectors += s.sectors;
  into.shared_accesses += s.shared_accesses;
  into.shared_passes += s.shared_passes;
  for (size_t i = 0; i < s.conflict_degree.size(); ++i) into.shared_conflict_degree[i] += s.conflict_degree[i];
  into.throttle_cycles += s.throttle_cycles;
  into.loads += s.loads;
  into.load_latency_total += s.load_latency_total;
  add_cache_figures(unit.l1_stats(), into.l1);
  add_cache_figures(unit.constant_stats(), into.constant);
}

MemoryTiming memory_system_figures(const mem::MemorySystem& memory) {
  MemoryTiming m;
  for (const mem::L2Slice& slice : memory.slices()) add_cache_figures(slice.cache_stats(), m.l2);
  m.l2_far_hits = memory.stats().far_hits;
  m.dram_channels = memory.channel_count();
  for (uint32_t c = 0; c < memory.channel_count(); ++c) {
    const mem::DramStats& d = memory.channel(c).stats();
    m.dram_reads += d.reads;
    m.dram_writes += d.writes;
    m.dram_bytes += d.bytes_read + d.bytes_written;
    m.dram_row_hits += d.row_hits;
    m.dram_row_misses += d.row_misses;
    m.dram_row_conflicts += d.row_conflicts;
    m.dram_bus_busy_cycles += d.bus_busy_cycles();
    m.dram_read_latency_total += d.read_latency_total;
    for (size_t i = 0; i < d.read_latency_histogram.size(); ++i)
      m.dram_read_latency_histogram[i] += d.read_latency_histogram[i];
  }
  return m;
}

void add_memory_system_difference(const MemoryTiming& after, const MemoryTiming& before, MemoryTiming& into) {
  into.modelled = true;
  into.l2 = minus(after.l2, before.l2);
  into.l2_far_hits = after.l2_far_hits - before.l2_far_hits;
  into.dram_channels = after.dram_channels;
  into.dram_reads = after.dram_reads - before.dram_reads;
  into.dram_writes = after.dram_writes - before.dram_writes;
  into.dram_bytes = after.dram_bytes - before.dram_bytes;
  into.dram_row_hits = after.dram_row_hits - before.dram_row_hits;
  into.dram_row_misses = after.dram_row_misses - before.dram_row_misses;
  into.dram_row_conflicts = after.dram_row_conflicts - before.dram_row_conflicts;
  into.dram_bus_busy_cycles = after.dram_bus_busy_cycles - before.dram_bus_busy_cycles;
  into.dram_read_latency_total = after.dram_read_latency_total - before.dram_read_latency_total;
  for (size_t i = 0; i < into.dram_read_latency_histogram.size(); ++i)
    into.dram_read_latency_histogram[i] = after.dram_read_latency_histogram[i] - before.dram_read_latency_histogram[i];
}

}  // namespace lockstep::sim
