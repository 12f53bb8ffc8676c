// The registry of warp scheduler policies: one entry per policy, each defined in its own file of
// this folder (<name>.cpp). Adding a policy is that file plus its line below.
#include <array>
#include <stdexcept>
#include <string>

#include "sim/warp_scheduler/warp_scheduler.h"

namespace lockstep::sim {

// Defined in the policy files; constant-initialised, so reading them here needs no ordering.
extern const WarpSchedulerInfo kLrrWarpScheduler;
extern const WarpSchedulerInfo kGtoWarpScheduler;
extern const WarpSchedulerInfo kTwoLevelWarpScheduler;

std::span<const WarpSchedulerInfo> warp_schedulers() {
  // Built once from the constant entries, never changed (the order error messages list them in).
  static const std::array kTable{
      kLrrWarpScheduler,
      kGtoWarpScheduler,
      kTwoLevelWarpScheduler,
  };
  return kTable;
}

std::unique_ptr<WarpScheduler> make_warp_scheduler(std::string_view name,
                                                   const WarpSchedulerOptions& options) {
  const WarpSchedulerInfo* info = policy::find(warp_schedulers(), name);
  if (info == nullptr)
    throw std::invalid_argument("unknown warp scheduler '" + std::string(name) +
                                "' (accepted: " + policy::accepted(warp_schedulers()) + ")");
  if (options.warp_slots == 0)
    throw std::invalid_argument("warp scheduler '" + std::string(name) +
                                "' needs at least one warp slot");
  return info->make(options);
}

}  // namespace lockstep::sim
