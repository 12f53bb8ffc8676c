#include "sim/memory_config.h"

#include <algorithm>
#include <bit>

namespace lockstep::sim {

namespace {

mem::CoalescingRules coalescing(const std::string& name) {
  if (name == "gt200") return mem::CoalescingRules::kGt200;
  if (name == "g80") return mem::CoalescingRules::kG80;
  return mem::CoalescingRules::kSectored;
}

}  // namespace

mem::MemorySystemOptions memory_system_options(const config::GpuConfig& g) {
  mem::MemorySystemOptions o;
  o.sms = g.gpu.sm_count;
  o.line_bytes = g.l1.line_bytes;
  o.sector_bytes = g.l1.sector_bytes;
  o.slices = g.l2.slices;
  mem::SectorCacheOptions& c = o.slice.cache;
  c.ways = g.l2.ways;
  c.line_bytes = g.l1.line_bytes;
  c.sector_bytes = g.l1.sector_bytes;
  c.sets = static_cast<uint32_t>(uint64_t{g.gpu.l2_kib} * 1024 / g.l2.slices / (uint64_t{c.line_bytes} * c.ways));
  c.replacement = g.l2.replacement;
  c.write = mem::WritePolicy::kWriteBackAllocate;
  c.mshr_entries = g.l2.mshr_entries;
  c.mshr_max_merge = g.l2.mshr_max_merge;
  o.slice.latency = g.l2.hit_latency;
  o.slice.atomic_latency = g.l2.atomic_latency;
  o.slice.input_queue = g.l2.queue;
  o.slice.output_queue = g.l2.queue;
  o.slice.dram_queue = g.l2.queue;
  o.channels = g.dram.channels;
  mem::DramOptions& d = o.dram;
  d.core_clock_mhz = g.gpu.core_clock_mhz;
  d.dram_clock_mhz = g.gpu.memory_clock_mhz;
  d.bus_bytes = g.dram.bus_bytes;
  d.transfers_per_clock = 2;
  d.banks = g.dram.banks;
  d.row_bytes = g.dram.row_bytes;
  d.timing.tRCD = g.dram.t_rcd;
  d.timing.tRP = g.dram.t_rp;
  d.timing.tRAS = g.dram.t_ras;
  d.timing.tCL = g.dram.t_cl;
  d.timing.tWL = g.dram.t_wl;
  d.timing.tCCD = g.dram.t_ccd;
  d.read_queue = g.dram.read_queue;
  d.write_queue = g.dram.write_queue;
  // Writes drain in batches from three quarters full down to a quarter.
  d.write_high_watermark = std::max<uint32_t>(2, g.dram.write_queue * 3 / 4);
  d.write_low_watermark = std::min(d.write_high_watermark - 1, g.dram.write_queue / 4);
  d.scheduler = g.dram.scheduler;
  o.controller_latency = g.dram.controller_latency;
  o.network.latency = g.interconnect.latency;
  o.network.flit_bytes = g.interconnect.flit_bytes;
  o.network.input_queue = g.interconnect.queue;
  o.network.output_queue = g.interconnect.queue;
  o.xor_hash = g.l2.xor_hash;
  o.sides = g.l2.sides;
  o.far_latency = g.l2.far_latency;
  return o;
}

uint32_t shared_carveout_kib(const config::GpuConfig& g, uint32_t blocks_per_sm, uint32_t shared_per_block) {
  const uint64_t unit = std::max<uint32_t>(1, g.sm.shared_alloc_unit);
  const uint64_t per_block =
      shared_per_block == 0 ? 0 : (uint64_t{shared_per_block} + g.sm.shared_reserved_per_block + unit - 1) / unit * unit;
  const uint64_t needed = per_block * blocks_per_sm;
  for (uint32_t kib : g.sm.shared_carveouts_kib)
    if (uint64_t{kib} * 1024 >= needed) return kib;
  return g.sm.shared_carveouts_kib.back();
}

LdstUnitOptions ldst_unit_options(const config::GpuConfig& g, uint32_t warp_size, uint32_t blocks_per_sm,
                                  uint32_t shared_per_block, uint32_t local_bytes_per_thread) {
  LdstUnitOptions o;
  o.warp_size = warp_size;
  o.local_bytes_per_thread = local_bytes_per_thread;
  o.coalescer.rules = coalescing(g.memory.coalescing);
  o.coalescer.line_bytes = g.l1.line_bytes;
  o.coalescer.sector_bytes = g.l1.sector_bytes;
  o.coalescer.group_lanes = std::min<uint32_t>(16, std::max<uint32_t>(1, warp_size / 2));
  o.coalescer.min_segment_bytes = std::min<uint32_t>(32, g.l1.line_bytes);
  o.banks.banks = g.memory.shared_banks;
  o.banks.bank_bytes = g.memory.shared_bank_bytes;
  o.banks.group_lanes = std::min(g.memory.shared_group_lanes, std::bit_ceil(std::max<uint32_t>(1, warp_size)));
  const uint64_t l1_bytes =
      uint64_t{g.l1.unified_kib - shared_carveout_kib(g, blocks_per_sm, shared_per_block)} * 1024;
  o.l1.ways = g.l1.ways;
  o.l1.line_bytes = g.l1.line_bytes;
  o.l1.sector_bytes = g.l1.sector_bytes;
  o.l1.sets = static_cast<uint32_t>(std::max<uint64_t>(1, l1_bytes / (uint64_t{g.l1.line_bytes} * g.l1.ways)));
  o.l1.replacement = g.l1.replacement;
  o.l1.write = mem::WritePolicy::kWriteThroughNoAllocate;
  o.l1.mshr_entries = g.l1.mshr_entries;
  o.l1.mshr_max_merge = g.l1.mshr_max_merge;
  o.constant_cache.ways = g.memory.constant_cache_ways;
  o.constant_cache.line_bytes = g.l1.line_bytes;
  o.constant_cache.sector_bytes = g.l1.sector_bytes;
  o.constant_cache.sets = std::max<uint32_t>(
      1, g.memory.constant_cache_kib * 1024 / (g.l1.line_bytes * g.memory.constant_cache_ways));
  o.constant_cache.replacement = "lru";
  o.constant_cache.write = mem::WritePolicy::kWriteThroughNoAllocate;
  o.constant_cache.mshr_entries = 8;
  o.constant_cache.mshr_max_merge = g.l1.mshr_max_merge;
  o.constant_latency = g.memory.constant_latency;
  o.l1_hit_latency = g.l1.hit_latency;
  o.shared_latency = g.memory.shared_latency;
  o.miss_queue = g.l1.miss_queue;
  o.queue = g.l1.lsu_queue;
  o.in_flight = g.sm.max_warps * 4;  // four memory instructions in flight per warp slot
  o.inbound = std::max<uint32_t>(64, g.l1.mshr_entries);
  return o;
}

}  // namespace lockstep::sim
