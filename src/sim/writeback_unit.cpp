#include "sim/writeback_unit.h"

#include <stdexcept>
#include <utility>

namespace lockstep::sim {

WritebackUnit::WritebackUnit(const WritebackUnitOptions& options) : options_(options), ports_(options.partitions) {
  if (options.partitions == 0 || options.ports == 0)
    throw std::invalid_argument("a writeback unit needs at least one partition and one write port");
  std::vector<Completion> storage;
  storage.reserve(options.capacity);
  waiting_ = decltype(waiting_)(std::greater<>{}, std::move(storage));
  retired_.reserve(options.capacity);
}

bool WritebackUnit::retire(uint64_t now) {
  while (!waiting_.empty() && waiting_.top().cycle <= now) {
    Completion c = waiting_.top();
    waiting_.pop();
    if (c.writes.count != 0) {
      PortUse& use = ports_[c.warp_slot % options_.partitions];
      if (use.cycle != now) use = {now, 0};
      if (use.writes == options_.ports) {  // every write port of the partition is taken: next cycle
        c.cycle = now + 1;
        waiting_.push(c);
        continue;
      }
      ++use.writes;
    }
    retired_.push_back(c);
  }
  return !retired_.empty();
}

}  // namespace lockstep::sim
