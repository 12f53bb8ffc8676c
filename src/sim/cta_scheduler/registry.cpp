// The registry of CTA schedulers: one entry per policy, each defined in its own file of this
// folder (<name>.cpp). Adding a policy is that file plus its line below.
#include <array>
#include <stdexcept>
#include <string>

#include "sim/cta_scheduler/cta_scheduler.h"

namespace lockstep::sim {

// Defined in the policy files; constant-initialised, so reading them here needs no ordering.
extern const CtaSchedulerInfo kRoundRobinCtaScheduler;

std::span<const CtaSchedulerInfo> cta_schedulers() {
  // Built once from the constant entries, never changed (the order error messages list them in).
  static const std::array kTable{
      kRoundRobinCtaScheduler,
  };
  return kTable;
}

std::vector<std::string_view> cta_scheduler_names() { return policy::names(cta_schedulers()); }

std::unique_ptr<CtaScheduler> make_cta_scheduler(std::string_view name, const CtaSchedulerOptions& options) {
  if (options.sm_count == 0) throw std::invalid_argument("a CTA scheduler needs at least one SM (sm_count is 0)");
  if (const CtaSchedulerInfo* info = policy::find(cta_schedulers(), name)) return info->make(options);
  throw std::invalid_argument("unknown CTA scheduler '" + std::string(name) +
                              "' (accepted: " + policy::accepted(cta_schedulers()) + ")");
}

}  // namespace lockstep::sim
