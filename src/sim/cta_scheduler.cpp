// The CTA scheduler registry: an immutable table of (name, description, factory). Adding a
// policy is one file defining its factory plus one row here.
#include "sim/cta_scheduler.h"

#include <array>
#include <stdexcept>
#include <string>

namespace lockstep::sim {

// Defined in cta_scheduler_<policy>.cpp, one file per policy.
std::unique_ptr<CtaScheduler> make_round_robin_cta_scheduler(const CtaSchedulerOptions& options);

namespace {

struct CtaSchedulerEntry {
  std::string_view name;
  std::string_view description;
  std::unique_ptr<CtaScheduler> (*make)(const CtaSchedulerOptions&);
};

constexpr std::array kCtaSchedulers{
    CtaSchedulerEntry{"round-robin", "rounds over the SMs, then each freed slot in completion order (seed 001 fig 3-33)",
                      &make_round_robin_cta_scheduler},
};

}  // namespace

std::vector<std::string_view> cta_scheduler_names() {
  std::vector<std::string_view> names;
  for (const CtaSchedulerEntry& entry : kCtaSchedulers) names.push_back(entry.name);
  return names;
}

std::unique_ptr<CtaScheduler> make_cta_scheduler(std::string_view name, const CtaSchedulerOptions& options) {
  if (options.sm_count == 0) throw std::invalid_argument("a CTA scheduler needs at least one SM (sm_count is 0)");
  for (const CtaSchedulerEntry& entry : kCtaSchedulers)
    if (entry.name == name) return entry.make(options);
  std::string accepted;
  for (const CtaSchedulerEntry& entry : kCtaSchedulers) {
    if (!accepted.empty()) accepted += ", ";
    accepted += entry.name;
  }
  throw std::invalid_argument("unknown CTA scheduler '" + std::string(name) + "' (accepted: " + accepted + ")");
}

}  // namespace lockstep::sim
