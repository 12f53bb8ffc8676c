// "fcfs": first come, first served. Requests are served strictly in arrival order: only the
// oldest request's next command may issue, and nothing issues while it waits, so no younger
// request overtakes it (not even to another bank). The baseline FR-FCFS is measured against.
#include "mem/dram/scheduler/dram_scheduler.h"

namespace lockstep::mem {
namespace {

class FcfsScheduler final : public DramScheduler {
 public:
  std::size_t pick(std::span<const DramCandidate> candidates) const override {
    return !candidates.empty() && candidates.front().ready ? 0 : kNone;
  }
};

std::unique_ptr<DramScheduler> make() { return std::make_unique<FcfsScheduler>(); }

}  // namespace

DramSchedulerInfo fcfs_scheduler_info() {
  return {"fcfs", "first come, first served: only the oldest request's next command, in arrival order", make};
}

}  // namespace lockstep::mem
