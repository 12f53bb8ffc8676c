#include "sim/operand_collector.h"

#include <algorithm>
#include <stdexcept>

namespace lockstep::sim {

OperandCollector::OperandCollector(const OperandCollectorOptions& options)
    : options_(options), banks_(options.banks), collector_free_(options.collectors, 0) {
  if (options.banks == 0 || options.reads_per_cycle == 0)
    throw std::invalid_argument("an operand collector needs at least one register bank and one read per cycle");
}

uint64_t OperandCollector::accept(uint64_t now, const OperandRead& read) {
  const uint64_t dispatch = read_banks(now, read);
  stats_.bank_conflict_cycles += dispatch - now;
  for (uint64_t& collector : collector_free_) {
    if (collector <= now) {
      collector = dispatch + 1;
      break;
    }
  }
  return dispatch;
}

uint64_t OperandCollector::accept_beside(uint64_t now, const OperandRead& read, uint64_t dispatch) {
  // Operands later than the other path's hold these lanes back by as many cycles.
  const uint64_t own_dispatch = std::max(dispatch, read_banks(now, read));
  stats_.bank_conflict_cycles += own_dispatch - dispatch;
  return own_dispatch;
}

uint64_t OperandCollector::read_banks(uint64_t now, const OperandRead& read) {
  const uint32_t banks = static_cast<uint32_t>(banks_.size());
  uint64_t last_read = now;
  for (const RegRange& r : read.operands->srcs()) {
    if (read.already_read != nullptr &&
        std::find(read.already_read->srcs().begin(), read.already_read->srcs().end(), r) !=
            read.already_read->srcs().end())
      continue;
    for (uint32_t i = 0; i < r.count; ++i) {
      const uint32_t reg = r.first + i;
      if (reg >= options_.register_slots) continue;  // predicates have their own file
      Bank& bank = banks_[(options_.bank_by_warp ? reg + read.warp : reg) % banks];
      if (bank.cycle < now) bank = {now, 0};
      if (bank.reads == options_.reads_per_cycle) bank = {bank.cycle + 1, 0};
      ++bank.reads;
      const uint64_t cycle = bank.cycle;
      if (cycle > now) ++stats_.bank_conflicts;
      last_read = std::max(last_read, cycle);
    }
  }
  return last_read;
}

}  // namespace lockstep::sim
