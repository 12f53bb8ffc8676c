#include "mem/dram/dram_device.h"

#include <algorithm>

namespace lockstep::mem {

DramDevice::DramDevice(const DramClock& clock, const DramTiming& timing, uint32_t banks)
    : clock_(clock),
      t_{clock.clocks(timing.tRCD), clock.clocks(timing.tRP),  clock.clocks(timing.tRAS), clock.clocks(timing.tCL),
         clock.clocks(timing.tWL),  clock.clocks(timing.tCCD), clock.clocks(timing.tRTW), clock.clocks(timing.tWTR),
         clock.clocks(timing.tRRD), clock.clocks(timing.tRTP), clock.clocks(timing.tWR)},
      banks_(banks) {}

DramCommand DramDevice::next_command(uint32_t bank, uint64_t row, bool write) const {
  const DramBankState& b = banks_[bank];
  if (!b.open) return DramCommand::kActivate;
  if (b.row != row) return DramCommand::kPrecharge;
  return write ? DramCommand::kWrite : DramCommand::kRead;
}

uint64_t DramDevice::earliest(DramCommand command, uint32_t bank, uint64_t from) const {
  const DramBankState& b = banks_[bank];
  uint64_t at = from;
  switch (command) {
    case DramCommand::kActivate:
      at = std::max({at, b.next_activate, next_activate_});
      break;
    case DramCommand::kPrecharge:
      at = std::max(at, b.next_precharge);
      break;
    case DramCommand::kRead:
      at = std::max({at, b.next_column, next_column_, read_data_from_ > t_.tCL ? read_data_from_ - t_.tCL : 0});
      break;
    case DramCommand::kWrite:
      at = std::max({at, b.next_column, next_column_, write_data_from_ > t_.tWL ? write_data_from_ - t_.tWL : 0});
      break;
  }
  return clock_.edge_at_or_after(at);
}

uint64_t DramDevice::issue(DramCommand command, uint32_t bank, uint64_t row, uint64_t at, uint64_t burst) {
  DramBankState& b = banks_[bank];
  switch (command) {
    case DramCommand::kActivate:
      b.open = true;
      b.row = row;
      b.next_column = at + t_.tRCD;
      b.next_precharge = std::max(b.next_precharge, at + t_.tRAS);
      next_activate_ = at + t_.tRRD;
      return at;
    case DramCommand::kPrecharge:
      b.open = false;
      b.next_activate = at + t_.tRP;
      return at;
    case DramCommand::kRead: {
      const uint64_t end = at + t_.tCL + burst;
      read_data_from_ = end;
      write_data_from_ = end + t_.tRTW;
      next_column_ = at + t_.tCCD;
      b.next_precharge = std::max(b.next_precharge, at + t_.tRTP);
      return end;
    }
    case DramCommand::kWrite: {
      const uint64_t end = at + t_.tWL + burst;
      write_data_from_ = end;
      read_data_from_ = end + t_.tWTR;
      next_column_ = at + t_.tCCD;
      b.next_precharge = std::max(b.next_precharge, end + t_.tWR);
      return end;
    }
  }
  return at;
}

}  // namespace lockstep::mem
