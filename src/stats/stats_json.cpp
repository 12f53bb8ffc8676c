#include "stats/stats_json.h"

#include <map>
#include <optional>

#include <nlohmann/json.hpp>

namespace lockstep::stats {

namespace {

using nlohmann::ordered_json;

ordered_json dims(const std::array<uint32_t, 3>& d) { return ordered_json::array({d[0], d[1], d[2]}); }

// The divergence units' counts, in the order of docs/stats-json.md.
ordered_json divergence_json(const func::DivergenceCounters& d) {
  ordered_json j;
  j["divergent_branches"] = d.divergent_branches;
  j["reconvergences"] = d.reconvergences;
  j["barrier_waits"] = d.barrier_waits;
  j["yields"] = d.yields;
  j["formed_warps"] = d.formed_warps;
  j["formed_threads"] = d.formed_threads;
  return j;
}

// Every reason in enum order, zeros included, so readers find the same keys in every launch.
ordered_json stall_counts(const sim::StallCounts& counts) {
  ordered_json j = ordered_json::object();
  for (size_t r = 0; r < sim::kStallReasonCount; ++r)
    j[std::string(sim::stall_reason_name(static_cast<sim::StallReason>(r)))] = counts[r];
  return j;
}

// Each unit's issue-slot cycles over the launch's issue slots of one instruction per scheduler
// per cycle (busy_cycles is summed over every partition of every SM).
ordered_json unit_usage(const sim::KernelTiming& t) {
  const double scheduler_cycles = double(t.cycles) * t.sm_count * t.schedulers_per_sm;
  ordered_json j = ordered_json::object();
  for (size_t u = 0; u < sim::kUnitKindCount; ++u) {
    const sim::UnitUsage& usage = t.units[u];
    ordered_json unit;
    unit["warp_instructions"] = usage.warp_instructions;
    unit["busy_cycles"] = usage.busy_cycles;
    unit["utilisation"] = scheduler_cycles > 0 ? double(usage.busy_cycles) / scheduler_cycles : 0.0;
    j[std::string(sim::unit_kind_name(static_cast<sim::UnitKind>(u)))] = std::move(unit);
  }
  return j;
}

ordered_json cache_json(const sim::CacheFigures& c) {
  ordered_json j;
  j["accesses"] = c.accesses;
  j["hits"] = c.hits;
  j["hit_reserved"] = c.hit_reserved;
  j["misses"] = c.misses;
  j["sector_misses"] = c.sector_misses;
  j["reservation_fails"] = c.reservation_fails;
  j["mshr_merges"] = c.mshr_merges;
  j["writes"] = c.writes;
  j["write_hits"] = c.write_hits;
  j["evictions"] = c.evictions;
  j["dirty_evictions"] = c.dirty_evictions;
  j["hit_rate"] = c.hit_rate();
  return j;
}

// The memory hierarchy's figures (memory.model = hierarchy), or null under fixed latencies.
ordered_json memory_json(const sim::KernelTiming& t) {
  const sim::MemoryTiming& m = t.memory;
  if (!m.modelled) return nullptr;
  ordered_json j;
  ordered_json ldst;
  ldst["global_accesses"] = m.global_accesses;
  ldst["transactions"] = m.transactions;
  ldst["sectors"] = m.sectors;
  ldst["transactions_per_access"] = m.transactions_per_access();
  ldst["shared_accesses"] = m.shared_accesses;
  ldst["shared_passes"] = m.shared_passes;
  ldst["shared_conflict_degree"] = m.shared_conflict_degree;
  ldst["throttle_cycles"] = m.throttle_cycles;
  ldst["loads"] = m.loads;
  ldst["average_load_latency"] = m.average_load_latency();
  j["ldst"] = std::move(ldst);
  j["l1"] = cache_json(m.l1);
  j["l2"] = cache_json(m.l2);
  j["l2"]["far_hits"] = m.l2_far_hits;
  j["constant"] = cache_json(m.constant);
  ordered_json dram;
  dram["reads"] = m.dram_reads;
  dram["writes"] = m.dram_writes;
  dram["bytes"] = m.dram_bytes;
  dram["row_hits"] = m.dram_row_hits;
  dram["row_misses"] = m.dram_row_misses;
  dram["row_conflicts"] = m.dram_row_conflicts;
  dram["row_buffer_hit_rate"] = m.row_buffer_hit_rate();
  dram["bus_busy_cycles"] = m.dram_bus_busy_cycles;
  dram["bandwidth_utilisation"] = m.dram_utilisation(t.cycles);
  dram["average_read_latency"] = m.dram_reads ? double(m.dram_read_latency_total) / double(m.dram_reads) : 0.0;
  dram["read_latency_histogram"] = m.dram_read_latency_histogram;
  j["dram"] = std::move(dram);
  return j;
}

ordered_json timing_json(const sim::KernelTiming& t) {
  ordered_json j;
  j["cycles"] = t.cycles;
  j["start_cycle"] = t.start_cycle;
  j["end_cycle"] = t.end_cycle;
  j["ipc"] = t.ipc();
  j["issue_slot_utilisation"] = t.issue_slot_utilisation();
  j["achieved_occupancy"] = t.achieved_occupancy();
  ordered_json theoretical;
  theoretical["blocks_per_sm"] = t.blocks_per_sm;
  theoretical["limited_by"] = t.occupancy_limited_by;
  theoretical["registers_per_thread"] = t.registers_per_thread;
  theoretical["registers_estimated"] = t.registers_estimated;
  j["theoretical"] = std::move(theoretical);
  j["warp_stalls"] = stall_counts(t.warp_stalls);
  j["scheduler_stalls"] = stall_counts(t.scheduler_stalls);
  j["icache"] = {{"hits", t.icache_hits}, {"misses", t.icache_misses}};
  j["register_banks"] = {{"conflicts", t.bank_conflicts}, {"conflict_cycles", t.bank_conflict_cycles}};
  j["units"] = unit_usage(t);
  j["memory"] = memory_json(t);
  j["sm_count"] = t.sm_count;
  j["schedulers_per_sm"] = t.schedulers_per_sm;
  return j;
}

// Figures summed over several launches.
struct Totals {
  uint64_t launches = 0;
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  uint64_t lane_slots = 0;  // warp instructions × warp width
  func::DivergenceCounters divergence;
  std::optional<uint64_t> cycles;  // summed over the launches with timing; none: no launch had it

  void add(const LaunchRecord& r) {
    ++launches;
    warp_instructions += r.warp_instructions;
    thread_instructions += r.thread_instructions;
    lane_slots += r.warp_instructions * r.warp_size;
    divergence += r.divergence;
    if (r.timing) cycles = cycles.value_or(0) + r.timing->cycles;
  }
  void write(ordered_json& j) const {
    j["launches"] = launches;
    j["warp_instructions"] = warp_instructions;
    j["thread_instructions"] = thread_instructions;
    j["simt_efficiency"] = lane_slots == 0 ? 1.0 : double(thread_instructions) / double(lane_slots);
    j["average_active_lanes"] =
        warp_instructions == 0 ? 0.0 : double(thread_instructions) / double(warp_instructions);
    j["divergence"] = divergence_json(divergence);
    j["cycles"] = cycles ? ordered_json(*cycles) : ordered_json(nullptr);
  }
};

}  // namespace

std::string stats_json(const RunStats& stats, const RunContext& context) {
  ordered_json doc;
  doc["schema"] = "lockstep-stats";
  doc["version"] = kStatsJsonVersion;
  doc["mode"] = context.mode;
  doc["program"] = context.program;
  doc["gpu"] = {{"preset", context.gpu_preset}, {"name", context.gpu_name}, {"warp_size", context.warp_size}};

  ordered_json launches = ordered_json::array();
  Totals all;
  // Per kernel name, in order of first launch.
  std::vector<std::string> order;
  std::map<std::string, Totals> by_kernel;
  for (size_t i = 0; i < stats.launches().size(); ++i) {
    const LaunchRecord& r = stats.launches()[i];
    ordered_json l;
    l["index"] = i;
    l["kernel"] = r.kernel;
    l["grid"] = dims(r.grid);
    l["block"] = dims(r.block);
    l["dynamic_shared_bytes"] = r.dynamic_shared;
    l["warp_instructions"] = r.warp_instructions;
    l["thread_instructions"] = r.thread_instructions;
    l["simt_efficiency"] = r.simt_efficiency();
    l["average_active_lanes"] = r.average_active_lanes();
    l["divergence"] = divergence_json(r.divergence);
    l["fault"] = r.fault.empty() ? ordered_json(nullptr) : ordered_json(r.fault);
    l["timing"] = r.timing ? timing_json(*r.timing) : ordered_json(nullptr);
    launches.push_back(std::move(l));
    all.add(r);
    if (by_kernel.find(r.kernel) == by_kernel.end()) order.push_back(r.kernel);
    by_kernel[r.kernel].add(r);
  }
  doc["launches"] = std::move(launches);
  ordered_json kernels = ordered_json::array();
  for (const std::string& name : order) {
    ordered_json k;
    k["kernel"] = name;
    by_kernel[name].write(k);
    kernels.push_back(std::move(k));
  }
  doc["kernels"] = std::move(kernels);
  ordered_json totals;
  all.write(totals);
  doc["totals"] = std::move(totals);
  return doc.dump(2) + "\n";
}

}  // namespace lockstep::stats
