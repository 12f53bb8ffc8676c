#pragma once
// The DRAM side of one channel as timing state: each bank's open row and the earliest time each
// command may next reach it, plus the constraints the banks share (the data bus, column-command
// spacing, bus turnarounds, activate spacing). It knows nothing of requests or queues: the
// controller (DramChannel) asks what a command needs and when it may issue, then issues it.
// All times are in channel units (dram_clock.h); commands issue on DRAM clock edges.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "mem/dram/dram_clock.h"
#include "mem/dram/dram_timing.h"

namespace lockstep::mem {

enum class DramCommand : uint8_t { kActivate, kPrecharge, kRead, kWrite };
inline constexpr std::size_t kDramCommandCount = 4;

inline bool is_column(DramCommand command) {
  return command == DramCommand::kRead || command == DramCommand::kWrite;
}

// Plain data: one bank.
struct DramBankState {
  bool open = false;
  uint64_t row = 0;             // the open row, when open
  uint64_t next_activate = 0;   // tRP after the last precharge
  uint64_t next_precharge = 0;  // tRAS after the activate; tRTP after a read; tWR after a write's data
  uint64_t next_column = 0;     // tRCD after the activate
};

class DramDevice {
 public:
  // Caller: banks >= 1.
  DramDevice(const DramClock& clock, const DramTiming& timing, uint32_t banks);

  // The command a request for (bank, row) needs next: its column command on a hit, an activate
  // when the bank is closed, a precharge when another row is open.
  DramCommand next_command(uint32_t bank, uint64_t row, bool write) const;

  // The first clock edge at or after `from` at which `command` may issue to `bank` given the
  // commands issued so far. A column command's data follows it by exactly tCL (tWL) and cannot
  // wait, so the command waits until the data bus will be free for it.
  uint64_t earliest(DramCommand command, uint32_t bank, uint64_t from) const;
  // earliest(command, bank, 0): the bank's and the channel's own constraint. For an edge `from`,
  // earliest(command, bank, from) == max(from, ready_edge(command, bank)).
  uint64_t ready_edge(DramCommand command, uint32_t bank) const { return earliest(command, bank, 0); }

  // Issues `command` at `at` (caller: at == some earliest(command, bank, ..)). `burst` (units) is
  // a column command's data time. Returns, for a column command, the time its burst ends (the
  // request's completion); for the others, `at`.
  uint64_t issue(DramCommand command, uint32_t bank, uint64_t row, uint64_t at, uint64_t burst);

  const DramBankState& bank(uint32_t index) const { return banks_[index]; }

 private:
  // The timing parameters in units.
  struct Units {
    uint64_t tRCD, tRP, tRAS, tCL, tWL, tCCD, tRTW, tWTR, tRRD, tRTP, tWR;
  };

  const DramClock clock_;
  const Units t_;
  std::vector<DramBankState> banks_;
  uint64_t read_data_from_ = 0;   // a read's data may start here: the bus free (+ tWTR after a write)
  uint64_t write_data_from_ = 0;  // a write's data may start here: the bus free (+ tRTW after a read)
  uint64_t next_column_ = 0;      // tCCD after any column command
  uint64_t next_activate_ = 0;    // tRRD after any activate
};

}  // namespace lockstep::mem
