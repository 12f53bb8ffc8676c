// The registry of DRAM scheduler policies. Each policy file defines its own name, description and
// factory in a *_info() function; this table lists those functions, so that linking the static
// library cannot drop a policy (nothing registers itself from a static initializer). Adding a
// policy: one file, one declaration and one table line here.
#include "mem/dram/scheduler/dram_scheduler.h"

#include <fmt/format.h>

#include <array>
#include <stdexcept>
#include <string>

namespace lockstep::mem {

// Defined in the policy files.
DramSchedulerInfo fr_fcfs_scheduler_info();
DramSchedulerInfo fcfs_scheduler_info();

std::span<const DramSchedulerInfo> dram_schedulers() {
  static const std::array<DramSchedulerInfo, 2> kSchedulers = {fr_fcfs_scheduler_info(), fcfs_scheduler_info()};
  return kSchedulers;
}

std::unique_ptr<DramScheduler> make_dram_scheduler(std::string_view name) {
  std::string known;
  for (const DramSchedulerInfo& info : dram_schedulers()) {
    if (info.name == name) return info.make();
    known += known.empty() ? "" : ", ";
    known += info.name;
  }
  throw std::invalid_argument(fmt::format("unknown dram scheduler '{}' (known: {})", name, known));
}

}  // namespace lockstep::mem
