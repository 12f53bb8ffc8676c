#pragma once
// The stats JSON document (`lockstep run --stats-json FILE`). Its schema is documented in
// docs/stats-json.md; `version` changes whenever a field changes meaning or goes away (new
// fields may appear without a version change).
#include <string>
#include <vector>

#include "stats/run_stats.h"

namespace lockstep::stats {

// 2: launch "timing", kernel and total "cycles"; 3: timing "memory"; 4: "average_active_lanes" and
// "divergence" in launches, kernels and totals.
inline constexpr int kStatsJsonVersion = 5;

// What the run was: the program, the modelled GPU, the simulation mode.
struct RunContext {
  std::string mode = "functional";
  std::string gpu_preset;       // e.g. "h100"
  std::string gpu_name;         // what cudaGetDeviceProperties reports
  uint32_t warp_size = 32;
  std::vector<std::string> program;  // argv of the simulated program
};

// The document, pretty-printed with two-space indentation and a final newline.
std::string stats_json(const RunStats& stats, const RunContext& context);

}  // namespace lockstep::stats
