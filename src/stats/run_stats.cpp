#include "stats/run_stats.h"

#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

#include "fmt/format.h"

namespace lockstep::stats {

namespace {

// The three reasons other than `issued` that took the most warp-cycles, each as a share of all
// warp-cycles: "memory_dependency 40.2%, not_selected 20.1%, ...". Reasons with no cycles are
// left out; equal counts keep the enum order (a stable sort), so the line is deterministic.
std::string top_stalls(const sim::StallCounts& stalls) {
  const uint64_t total = std::accumulate(stalls.begin(), stalls.end(), uint64_t{0});
  std::vector<size_t> reasons;
  for (size_t r = 0; r < sim::kStallReasonCount; ++r)
    if (static_cast<sim::StallReason>(r) != sim::StallReason::kIssued && stalls[r] > 0)
      reasons.push_back(r);
  std::stable_sort(reasons.begin(), reasons.end(),
                   [&](size_t a, size_t b) { return stalls[a] > stalls[b]; });
  if (reasons.size() > 3) reasons.resize(3);
  if (reasons.empty()) return "none";
  std::string text;
  for (size_t r : reasons) {
    if (!text.empty()) text += ", ";
    text += fmt::format("{} {:.1f}%", sim::stall_reason_name(static_cast<sim::StallReason>(r)),
                        100.0 * double(stalls[r]) / double(total));
  }
  return text;
}

// The cycle-level line that follows a timed launch's own line.
std::string timing_line(const LaunchRecord& r, const sim::KernelTiming& t) {
  return fmt::format(
      "lockstep:   cycles {} IPC {:.2f} issue slots {:.1f}% SIMT {:.1f}% occupancy {:.1f}% "
      "(theoretical {} blocks/SM, limited by {}; {} registers{}) top stalls: {}\n",
      t.cycles, t.ipc(), 100.0 * t.issue_slot_utilisation(), 100.0 * r.simt_efficiency(),
      100.0 * t.achieved_occupancy(), t.blocks_per_sm, t.occupancy_limited_by, t.registers_per_thread,
      t.registers_estimated ? ", estimated" : "", top_stalls(t.warp_stalls));
}

// The memory hierarchy's line (memory.model = hierarchy).
std::string memory_line(const sim::KernelTiming& t) {
  const sim::MemoryTiming& m = t.memory;
  const double shared_passes = m.shared_accesses ? double(m.shared_passes) / double(m.shared_accesses) : 0.0;
  // Far hits only where there were some (presets with one L2 side have none).
  const std::string far = m.l2_far_hits ? fmt::format(" (far hits {})", m.l2_far_hits) : "";
  return fmt::format(
      "lockstep:   memory: {:.2f} transactions/access, shared {:.2f} passes/access, L1 hit {:.1f}% of {}, "
      "L2 hit {:.1f}% of {}{}, DRAM {:.3g} MB row hits {:.1f}% bus {:.1f}%, load latency {:.1f}\n",
      m.transactions_per_access(), shared_passes, 100.0 * m.l1.hit_rate(), m.l1.accesses, 100.0 * m.l2.hit_rate(),
      m.l2.accesses, far, double(m.dram_bytes) / 1e6, 100.0 * m.row_buffer_hit_rate(),
      100.0 * m.dram_utilisation(t.cycles), m.average_load_latency());
}

// The divergence units' line, for launches whose warps split at least once or waited at a
// barrier of their own (a launch without divergence would only repeat zeros).
// Formed warps appear only when a block-level unit formed some, so that the line of the
// per-warp units reads as it always has.
std::string divergence_line(const LaunchRecord& r) {
  const func::DivergenceCounters& d = r.divergence;
  const std::string formed =
      d.formed_warps == 0 ? std::string()
                          : fmt::format("{} formed warps ({} threads), ", d.formed_warps, d.formed_threads);
  return fmt::format(
      "lockstep:   divergence: {} divergent branches, {} reconvergences, {} barrier waits, {} yields, "
      "{}{:.2f} active lanes per warp instruction\n",
      d.divergent_branches, d.reconvergences, d.barrier_waits, d.yields, formed, r.average_active_lanes());
}

}  // namespace

double LaunchRecord::simt_efficiency() const {
  if (warp_instructions == 0 || warp_size == 0) return 1.0;
  return double(thread_instructions) / (double(warp_instructions) * double(warp_size));
}

double LaunchRecord::average_active_lanes() const {
  // The counts simt_efficiency() divides, without the width (which would round differently).
  return warp_instructions == 0 ? 0.0 : double(thread_instructions) / double(warp_instructions);
}

std::string RunStats::summary() const {
  std::string text;
  uint64_t timed_launches = 0;
  std::vector<std::pair<uint64_t, uint64_t>> spans;  // the timed launches on the device clock
  for (const LaunchRecord& s : launches_) {
    text += fmt::format("lockstep: kernel {} grid ({},{},{}) block ({},{},{}) {} warp instructions {} thread "
                        "instructions\n",
                        s.kernel, s.grid[0], s.grid[1], s.grid[2], s.block[0], s.block[1], s.block[2],
                        s.warp_instructions, s.thread_instructions);
    if (s.divergence != func::DivergenceCounters{}) text += divergence_line(s);
    if (s.timing) {
      text += timing_line(s, *s.timing);
      if (s.timing->memory.modelled) text += memory_line(*s.timing);
      ++timed_launches;
      spans.emplace_back(s.timing->start_cycle, s.timing->start_cycle + s.timing->cycles);
    }
  }
  // The device time some launch ran: overlapping launches (a child grid beside its parent, tail
  // overlap) count their shared cycles once; launches one after another add up.
  std::sort(spans.begin(), spans.end());
  uint64_t timed_cycles = 0, covered_to = 0;
  for (const auto& [start, end] : spans) {
    const uint64_t from = std::max(start, covered_to);
    if (end > from) timed_cycles += end - from;
    covered_to = std::max(covered_to, end);
  }
  // One timed launch already shows its cycles; the total only helps when there are several.
  if (timed_launches > 1)
    text += fmt::format("lockstep: total cycles {} over {} launches\n", timed_cycles, timed_launches);
  return text;
}

}  // namespace lockstep::stats
