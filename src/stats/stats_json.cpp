#include "stats/stats_json.h"

#include <map>

#include <nlohmann/json.hpp>

namespace lockstep::stats {

namespace {

using nlohmann::ordered_json;

ordered_json dims(const std::array<uint32_t, 3>& d) { return ordered_json::array({d[0], d[1], d[2]}); }

// Figures summed over several launches.
struct Totals {
  uint64_t launches = 0;
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  uint64_t lane_slots = 0;  // warp instructions × warp width

  void add(const LaunchRecord& r) {
    ++launches;
    warp_instructions += r.warp_instructions;
    thread_instructions += r.thread_instructions;
    lane_slots += r.warp_instructions * r.warp_size;
  }
  void write(ordered_json& j) const {
    j["launches"] = launches;
    j["warp_instructions"] = warp_instructions;
    j["thread_instructions"] = thread_instructions;
    j["simt_efficiency"] = lane_slots == 0 ? 1.0 : double(thread_instructions) / double(lane_slots);
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
    l["fault"] = r.fault.empty() ? ordered_json(nullptr) : ordered_json(r.fault);
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
