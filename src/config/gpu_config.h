#pragma once
// The modelled GPU as plain typed fields: what the runtime, the occupancy calculator and the
// timing model read. Built once from ConfigValues (a preset plus overrides), checked for
// consistency, then immutable.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "config/config_values.h"

namespace lockstep::config {

struct UnitTiming {
  uint32_t latency = 0;              // cycles from issue until a dependent instruction may issue
  uint32_t initiation_interval = 0;  // cycles between two warp instructions entering the unit
  uint32_t lanes = 0;                // threads served per cycle
};

struct GpuConfig {
  std::string preset;  // the preset it was built from ("h100")

  struct Gpu {
    std::string name;
    uint32_t compute_capability = 0;  // major * 10 + minor
    uint32_t sm_count = 0;
    uint32_t core_clock_mhz = 0;
    uint32_t memory_clock_mhz = 0;
    uint32_t memory_bus_bits = 0;
    double global_memory_gib = 0;
    uint32_t l2_kib = 0;
    // What the runtime reports of the product (no effect on the model).
    uint32_t pci_device_id = 0;
    uint32_t async_engines = 0;
    // The host link per direction (PCIe): the time host<->device copies take (event times).
    uint32_t host_link_mb_s = 0;
    bool ecc_enabled = false;
    uint32_t fp32_to_fp64_ratio = 0;
    uint64_t global_memory_bytes() const { return static_cast<uint64_t>(global_memory_gib * double(1ull << 30)); }
  } gpu;

  struct Sm {
    uint32_t warp_size = 0;
    uint32_t max_threads = 0;
    uint32_t max_warps = 0;
    uint32_t max_blocks = 0;
    uint32_t registers = 0;
    uint32_t register_alloc_unit = 0;  // registers, per warp
    uint32_t max_registers_per_thread = 0;
    uint32_t max_registers_per_block = 0;
    uint32_t shared_kib = 0;
    uint32_t shared_per_block_kib = 0;
    uint32_t shared_per_block_optin_kib = 0;
    uint32_t shared_alloc_unit = 0;          // bytes
    uint32_t shared_reserved_per_block = 0;  // bytes
    std::vector<uint32_t> shared_carveouts_kib;  // rising, the last equals shared_kib
    uint32_t max_threads_per_block = 0;
    uint32_t schedulers = 0;
    uint32_t issue_width = 0;
    std::string divergence;    // sm.divergence: func::divergence_unit_names() (func/divergence)
    uint32_t yield_after = 0;  // sm.yield_after: backward branches before a group yields
    uint32_t large_warp_size = 0;  // sm.large_warp_size: warps per large warp (large-warp)
    uint64_t shared_bytes() const { return uint64_t(shared_kib) * 1024; }
    uint64_t shared_per_block_bytes() const { return uint64_t(shared_per_block_kib) * 1024; }
    uint64_t shared_per_block_optin_bytes() const { return uint64_t(shared_per_block_optin_kib) * 1024; }
  } sm;

  struct Pipeline {
    UnitTiming integer, fp32, fp64, sfu, tensor, ldst;
  } pipeline;

  struct Memory {
    bool hierarchy = true;  // memory.model: "hierarchy" (true) or "fixed-latency"
    uint32_t shared_latency = 0, global_latency = 0, local_latency = 0, constant_latency = 0, texture_latency = 0;
    uint32_t constant_cache_kib = 0, constant_cache_ways = 0;
    std::string coalescing;  // memory.coalescing: sectored, gt200, g80
    uint32_t shared_banks = 0, shared_bank_bytes = 0, shared_group_lanes = 0;
  } memory;

  // The L1 data cache of each SM (memory.model = hierarchy).
  struct L1 {
    uint32_t unified_kib = 0, ways = 0, line_bytes = 0, sector_bytes = 0;
    std::string replacement;
    uint32_t hit_latency = 0, mshr_entries = 0, mshr_max_merge = 0, miss_queue = 0, lsu_queue = 0;
  } l1;

  // The L2, in slices of gpu.l2_kib / slices each.
  struct L2 {
    uint32_t slices = 0, ways = 0;
    std::string replacement;
    uint32_t hit_latency = 0, atomic_latency = 0, mshr_entries = 0, mshr_max_merge = 0, queue = 0;
    bool xor_hash = true;  // l2.hash: "xor" (true) or "linear"
    uint32_t sides = 1;    // 2: near and far partitions (mem/memory_system.h)
    uint32_t far_latency = 0;
  } l2;

  struct Interconnect {
    uint32_t latency = 0, flit_bytes = 0, queue = 0;
  } interconnect;

  struct Dram {
    uint32_t channels = 0, bus_bytes = 0, banks = 0, row_bytes = 0;
    uint32_t t_rcd = 0, t_rp = 0, t_ras = 0, t_cl = 0, t_wl = 0, t_ccd = 0;  // DRAM clocks
    uint32_t read_queue = 0, write_queue = 0, controller_latency = 0;
    std::string scheduler;  // dram.scheduler: fr-fcfs, fcfs
  } dram;

  struct ICache {
    uint32_t sets = 0, ways = 0, line_bytes = 0, miss_latency = 0;
    std::string replacement;  // icache.replacement: a name of mem/replacement/ (fifo, lru)
  } icache;

  // Which opcodes run on which unit (the [opcodes] table): space-separated PTX forms, an
  // opcode ("sin") or an opcode with one of its modifiers ("rcp.approx"). An instruction not
  // listed runs on fp64 when it has an f64 type modifier, fp32 when it has a float type
  // (f32, f16, bf16, ...), int otherwise.
  struct Opcodes {
    std::vector<std::string> sfu, tensor, ldst, fp64, fp32, integer;
  } opcodes;

  // The policies and sizes of the cycle-level model (--mode timing).
  struct Timing {
    std::string warp_scheduler;      // timing.warp_scheduler: lrr, gto, two-level
    uint32_t fetch_group_size = 0;   // timing.fetch_group_size: two-level warps per group
    std::string scoreboard;          // timing.scoreboard: bitmap, rid-table
    uint32_t rid_entries = 0;        // timing.rid_entries: rid-table entries per warp
    uint32_t ibuffer_entries = 0;    // timing.ibuffer_entries: decoded instructions per warp
    uint32_t fetch_width = 0;        // timing.fetch_width: instructions one fetch decodes
    uint32_t collector_units = 0;    // timing.collector_units: operand collectors per scheduler
    uint32_t register_banks = 0;     // timing.register_banks: register-file banks per scheduler
    uint32_t bank_reads_per_cycle = 1;  // timing.bank_reads_per_cycle: operand reads a bank serves per cycle
    bool bank_by_warp = true;        // timing.bank_mapping: "warp-offset" (true) or "register"
    uint32_t writeback_ports = 0;    // timing.writeback_ports: results written per scheduler per cycle
    uint32_t simt_push_cycles = 0;   // timing.simt_push_cycles: cost of a SIMT-stack push
    uint32_t simt_pop_cycles = 0;    // timing.simt_pop_cycles: cost of a SIMT-stack pop
    std::string cta_scheduler;       // timing.cta_scheduler: round-robin
    bool fold_immediate_moves = false;  // timing.immediate_moves: "fold" (true) or "issue"
    uint32_t block_launch_cycles = 0;  // timing.block_launch_cycles: from placement to first fetch
    bool kernel_overlap = false;       // timing.kernel_overlap: "tail" (true) or "serial"
  } timing;

  // The deadlock watchdog of both modes (the [run] table; docs/functional-model.md and
  // docs/timing-model.md, "No silent hang"). The initialisers are the presets' values, for
  // callers that build options without a preset.
  struct Run {
    // Timing mode: cycles without a finished block before the first state hash; the interval
    // then doubles, up to 64 times this.
    uint64_t watchdog_interval_cycles = uint64_t{1} << 16;
    // Timing mode: cycles without a finished block after which the launch fails as a deadlock
    // even when no state repeats (0: no limit).
    uint64_t watchdog_limit_cycles = uint64_t{1} << 32;
    // Functional mode: warp instructions without a finished block between state hashes.
    uint64_t watchdog_interval_instructions = uint64_t{1} << 20;
    // Functional mode: warp instructions the resident blocks run without one finishing, after
    // which the launch fails as a deadlock (0: no limit).
    uint64_t watchdog_limit_instructions = uint64_t{1} << 38;
  } run;
};

// Reads every field and checks the values against each other (a block must fit an SM, the
// shared-memory limits must nest, ...); throws ConfigError naming the keys involved.
GpuConfig make_gpu_config(const ConfigValues& values, std::string_view preset);
// The preset with the overrides ("key=value") applied, checked.
GpuConfig load_gpu_config(std::string_view preset, const std::vector<std::string>& overrides = {});
// The preset with the overrides applied, as values (for printing); checked as load_gpu_config does.
ConfigValues effective_values(std::string_view preset, const std::vector<std::string>& overrides = {});

}  // namespace lockstep::config
