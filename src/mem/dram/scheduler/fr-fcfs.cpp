// "fr-fcfs": first ready, first come first served (Rixner et al., ISCA 2000). Among the requests
// whose next command may issue now, the oldest row hit goes first (its column command uses the
// row already open); failing that, the oldest other request. A precharge that would close a row
// some queued request still hits is held back, so a younger hit is never turned into a conflict
// by an older request (the price: a steady stream of hits to one row can delay a conflict in
// that bank indefinitely, as in the original policy).
#include "mem/dram/scheduler/dram_scheduler.h"

namespace lockstep::mem {
namespace {

class FrFcfsScheduler final : public DramScheduler {
 public:
  std::size_t pick(std::span<const DramCandidate> candidates) const override {
    for (std::size_t i = 0; i < candidates.size(); ++i)
      if (candidates[i].ready && candidates[i].row_hit()) return i;
    for (std::size_t i = 0; i < candidates.size(); ++i)
      if (candidates[i].ready && !candidates[i].closes_wanted) return i;
    return kNone;
  }
};

std::unique_ptr<DramScheduler> make() { return std::make_unique<FrFcfsScheduler>(); }

}  // namespace

DramSchedulerInfo fr_fcfs_scheduler_info() {
  return {"fr-fcfs", "first ready, first come first served: the oldest ready row hit, else the oldest ready request",
          make};
}

}  // namespace lockstep::mem
