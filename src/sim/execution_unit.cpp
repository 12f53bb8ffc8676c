#include "sim/execution_unit.h"

#include <algorithm>
#include <stdexcept>

namespace lockstep::sim {

ExecutionUnit::ExecutionUnit(const ExecutionUnitOptions& options) : options_(options) {
  if (options.latency == 0 || options.initiation_interval == 0 || options.lanes == 0)
    throw std::invalid_argument("an execution unit needs latency, initiation_interval and lanes of at least 1");
}

uint32_t ExecutionUnit::occupancy(uint32_t threads) const {
  const uint32_t passes = (threads + options_.lanes - 1) / options_.lanes;
  return std::max(options_.initiation_interval, passes);
}

uint64_t ExecutionUnit::accept(uint64_t cycle, uint32_t threads) {
  if (!can_accept(cycle)) throw std::logic_error("execution unit: issue while the issue slot is held");
  if (threads == 0) throw std::logic_error("execution unit: a warp instruction with no threads");
  const uint32_t held = occupancy(threads);
  next_free_ = cycle + held;
  ++stats_.warp_instructions;
  stats_.busy_cycles += held;
  // A result is whole only once its last lane group has gone through: with fewer lanes than
  // threads in an unusual configuration (64-wide warps on 8 LD/ST lanes) that binds, not latency.
  return cycle + std::max(options_.latency, held);
}

}  // namespace lockstep::sim
