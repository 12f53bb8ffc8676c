// The memory system's configuration keys (docs/timing-model.md, "Memory"): the model, the LD/ST
// unit (coalescing, shared-memory banks), the L1 data cache, the crossbar, the L2 slices and the
// DRAM channels. Cycles are SM-clock cycles unless a key says DRAM clocks.
#include "config/option_builders.h"
#include "config/policy_options.h"
#include "mem/replacement/replacement_policy.h"

namespace lockstep::config {

void add_memory_options(std::vector<OptionSpec>& s) {
  s.push_back(choice("memory.model", {"hierarchy", "fixed-latency"},
                     "hierarchy: coalescing, shared-memory banks, L1, crossbar, L2 slices and DRAM channels; "
                     "fixed-latency: every access of a space takes that space's memory.*_latency"));
  s.push_back(integer("memory.shared_latency", 1, 100000, "cycles of a shared-memory load without bank conflicts"));
  s.push_back(integer("memory.global_latency", 1, 100000, "cycles of a global-memory load (fixed-latency model)"));
  s.push_back(integer("memory.local_latency", 1, 100000, "cycles of a local-memory load (fixed-latency model)"));
  s.push_back(integer("memory.constant_latency", 1, 100000,
                      "cycles of a constant-memory load (hierarchy: a constant-cache hit; kernel parameters always hit)"));
  s.push_back(integer("memory.constant_cache_kib", 1, 1024,
                      "constant cache per SM, KiB (hierarchy): a warp's distinct addresses take a cycle each, "
                      "misses go to the L2 and are charged constant_miss"));
  s.push_back(integer("memory.constant_cache_ways", 1, 64, "constant-cache ways"));
  s.push_back(integer("memory.texture_latency", 1, 100000, "cycles of a texture fetch"));
  s.push_back(choice("memory.coalescing", {"sectored", "gt200", "g80"},
                     "how a warp's global accesses become transactions: sectored (cc 6.0+: 32-byte sectors of "
                     "128-byte lines, the whole warp at once), gt200 or g80 (half-warps, seed 004 §2.5)"));
  s.push_back(integer("memory.shared_banks", 1, 128, "shared-memory banks"));
  s.push_back(one_of("memory.shared_bank_bytes", {4, 8}, "bytes a shared-memory bank serves per access"));
  s.push_back(one_of("memory.shared_group_lanes", {8, 16, 32, 64},
                     "lanes the shared-memory unit serves together (16: a half-warp at a time)"));

  s.push_back(integer("l1.unified_kib", 0, 4096,
                      "L1 data cache and shared memory per SM, KiB: the L1 gets what the kernel's shared-memory "
                      "carve-out leaves"));
  s.push_back(integer("l1.ways", 1, 64, "L1 ways"));
  s.push_back(one_of("l1.line_bytes", {32, 64, 128, 256}, "L1 line, bytes"));
  s.push_back(one_of("l1.sector_bytes", {32, 64, 128, 256}, "L1 sector (the unit of a fill), bytes"));
  add_policy_kind(s, "l1.replacement", mem::replacement_policies(), "L1 victim choice");
  s.push_back(integer("l1.hit_latency", 1, 10000, "cycles from an L1 access (or a fill) to the result"));
  s.push_back(integer("l1.mshr_entries", 1, 4096, "lines with outstanding L1 misses"));
  s.push_back(integer("l1.mshr_max_merge", 1, 64, "requests waiting on one L1 MSHR entry"));
  s.push_back(integer("l1.miss_queue", 1, 4096, "L1 requests waiting for the crossbar; full stalls the LD/ST unit"));
  s.push_back(integer("l1.lsu_queue", 1, 4096,
                      "transactions waiting in the LD/ST unit for the L1; full stalls issue (memory_throttle)"));

  s.push_back(integer("l2.slices", 1, 4096, "L2 slices (gpu.l2_kib is split evenly among them)"));
  s.push_back(integer("l2.ways", 1, 64, "L2 ways"));
  add_policy_kind(s, "l2.replacement", mem::replacement_policies(), "L2 victim choice");
  s.push_back(integer("l2.hit_latency", 1, 10000, "cycles of an L2 slice's tag and data access"));
  s.push_back(integer("l2.atomic_latency", 0, 10000, "extra cycles of an atomic's read-modify-write at the L2"));
  s.push_back(integer("l2.mshr_entries", 1, 4096, "lines with outstanding misses per L2 slice"));
  s.push_back(integer("l2.mshr_max_merge", 1, 64, "requests waiting on one L2 MSHR entry"));
  s.push_back(integer("l2.queue", 1, 4096, "requests each L2 slice's input, output and DRAM queues hold"));
  s.push_back(choice("l2.hash", {"xor", "linear"},
                     "which slice and channel a line belongs to: linear (line modulo the count) or xor (upper "
                     "address bits folded in, so power-of-two strides spread)"));
  s.push_back(integer("l2.sides", 1, 2,
                      "1, or 2: near and far L2 partitions, each the near L2 of half the SMs and the store of what "
                      "the other half replaced"));
  s.push_back(integer("l2.far_latency", 0, 10000, "with 2 sides: cycles from a slice's miss to the far slice's data"));

  s.push_back(integer("interconnect.latency", 1, 10000, "cycles a packet takes through the crossbar, each way"));
  s.push_back(integer("interconnect.flit_bytes", 1, 4096, "bytes a crossbar port moves per cycle"));
  s.push_back(integer("interconnect.queue", 1, 4096, "packets each crossbar port holds"));

  s.push_back(integer("dram.channels", 1, 4096, "DRAM channels (each with its own data bus)"));
  s.push_back(integer("dram.bus_bytes", 1, 256, "bytes a channel transfers per beat (its width)"));
  s.push_back(integer("dram.banks", 1, 1024, "banks per channel"));
  s.push_back(integer("dram.row_bytes", 32, 1 << 20, "bytes of a DRAM row (a page) per bank"));
  s.push_back(integer("dram.t_rcd", 1, 10000, "activate to read/write, DRAM clocks"));
  s.push_back(integer("dram.t_rp", 1, 10000, "precharge to activate, DRAM clocks"));
  s.push_back(integer("dram.t_ras", 1, 10000, "activate to precharge, DRAM clocks"));
  s.push_back(integer("dram.t_cl", 1, 10000, "read to data, DRAM clocks"));
  s.push_back(integer("dram.t_wl", 1, 10000, "write to data, DRAM clocks"));
  s.push_back(integer("dram.t_ccd", 1, 10000, "column command to column command, DRAM clocks"));
  s.push_back(integer("dram.read_queue", 1, 4096, "reads each channel's controller holds"));
  s.push_back(integer("dram.write_queue", 1, 4096, "writes each channel's controller holds"));
  s.push_back(choice("dram.scheduler", {"fr-fcfs", "fcfs"},
                     "the controller's order: first-ready (row hits first) then oldest, or oldest first"));
  s.push_back(integer("dram.controller_latency", 0, 100000,
                      "cycles a request spends in the memory controller and PHY besides the DRAM's own timing"));
}

}  // namespace lockstep::config
