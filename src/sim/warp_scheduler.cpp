// WarpSet and the registry of warp scheduler policies. Each policy lives in its own file
// (warp_scheduler_<name>.cpp) with no public header; its factory is listed in the table below,
// so adding a policy is one file, one declaration and one table line.
#include "sim/warp_scheduler.h"

#include <array>
#include <bit>
#include <stdexcept>
#include <string>

namespace lockstep::sim {

WarpSet::WarpSet(uint32_t capacity) : capacity_(capacity), words_((capacity + 63) / 64, 0) {}

void WarpSet::clear() {
  for (uint64_t& word : words_) word = 0;
}

bool WarpSet::empty() const {
  for (uint64_t word : words_)
    if (word != 0) return false;
  return true;
}

uint32_t WarpSet::count() const {
  uint32_t n = 0;
  for (uint64_t word : words_) n += static_cast<uint32_t>(std::popcount(word));
  return n;
}

// Defined in the policy files.
std::unique_ptr<WarpScheduler> make_lrr_warp_scheduler(const WarpSchedulerOptions& options);
std::unique_ptr<WarpScheduler> make_gto_warp_scheduler(const WarpSchedulerOptions& options);
std::unique_ptr<WarpScheduler> make_two_level_warp_scheduler(const WarpSchedulerOptions& options);

namespace {

constexpr std::array<WarpSchedulerInfo, 3> kWarpSchedulers = {{
    {"lrr", "loose round robin: the first ready warp after the last one issued (seed 001 fig 3-24)",
     make_lrr_warp_scheduler},
    {"gto",
     "greedy then oldest: the last warp issued while it is ready, else the oldest ready warp "
     "(seed 001 fig 3-24)",
     make_gto_warp_scheduler},
    {"two-level",
     "fetch groups in priority order, round robin inside; a group whose warps all wait on "
     "long-latency operations drops to the lowest priority (seed 001 figs 3-25, 3-26)",
     make_two_level_warp_scheduler},
}};

}  // namespace

std::span<const WarpSchedulerInfo> warp_schedulers() {
  return kWarpSchedulers;
}

std::unique_ptr<WarpScheduler> make_warp_scheduler(std::string_view name,
                                                   const WarpSchedulerOptions& options) {
  for (const WarpSchedulerInfo& info : kWarpSchedulers) {
    if (info.name != name) continue;
    if (options.warp_slots == 0)
      throw std::invalid_argument("warp scheduler '" + std::string(name) +
                                  "' needs at least one warp slot");
    return info.make(options);
  }
  std::string accepted;
  for (const WarpSchedulerInfo& info : kWarpSchedulers) {
    if (!accepted.empty()) accepted += ", ";
    accepted += info.name;
  }
  throw std::invalid_argument("unknown warp scheduler '" + std::string(name) +
                              "' (accepted: " + accepted + ")");
}

}  // namespace lockstep::sim
