#pragma once
// One DRAM channel (an HBM channel, say) and its controller: bounded read and write queues, a
// scheduler policy choosing which queued request's next command issues at each DRAM clock, and
// the banks and data bus as timing state (dram_device.h). Open-page policy: a row stays open
// until a request for another row of the bank closes it.
//
// Timing, in DRAM clocks, for a request whose command is not delayed by others:
//   row hit (its row open)       : tCL + burst after it is seen (tWL + burst for a write)
//   row miss (bank closed)       : tRCD + tCL + burst
//   row conflict (another row)   : tRP + tRCD + tCL + burst, the precharge no earlier than tRAS
//                                  after the activation that opened the row
// where burst = bytes / (bus_bytes * transfers_per_clock) clocks (whole transfers: a request
// smaller than a transfer still takes one). Column commands are spaced by
// tCCD; one command issues per DRAM clock; the data bus is shared, bursts back to back, so peak
// bandwidth is bus_bytes * transfers_per_clock per DRAM clock. Commands to different banks
// overlap. A request completes (a read returns its data, a write is acknowledged) when its burst
// ends.
//
// Cycles: the caller speaks core cycles; the channel keeps exact fixed-point time (dram_clock.h).
// tick(now) plays core cycle `now`: the DRAM clock edges inside it issue commands. A request
// pushed in cycle `now` before tick(now) is seen from the first edge at or after the start of
// `now`; pushed after tick(now), from the first edge after that cycle. A request whose burst ends
// at time t is returned in the first cycle starting at or after t (1:1 clocks: the cycle it ends).
//
// Writes: served while no read waits, and drained in a batch (reads held back) once the write
// queue holds write_high_watermark, until it is down to write_low_watermark.
// Determinism: ties are broken by arrival order; nothing depends on object addresses.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "mem/dram/dram_address.h"
#include "mem/dram/dram_clock.h"
#include "mem/dram/dram_device.h"
#include "mem/dram/dram_options.h"
#include "mem/dram/dram_request.h"
#include "mem/dram/dram_stats.h"
#include "mem/dram/scheduler/dram_scheduler.h"
#include "mem/ring.h"

namespace lockstep::mem {

class DramChannel {
 public:
  // Throws std::invalid_argument naming the first bad option, or for an unknown scheduler.
  explicit DramChannel(const DramOptions& options);

  // Whether the read (write) queue has room. A "no" is counted as a refusal.
  bool can_accept(bool write) const;
  // Caller: can_accept(request.write), and `now` no earlier than the last tick. Throws
  // std::invalid_argument for a request of no bytes or one that crosses a row.
  void push(const DramRequest& request, uint64_t now);
  // Plays core cycle `now` (caller: non-decreasing; may skip cycles that next_event said are
  // idle): issues the commands the scheduler picks at every DRAM clock edge before the end of
  // `now` and appends to `completed` the requests whose bursts have ended by the start of `now`,
  // in completion order. Returns whether anything happened (a command issued or a request
  // completed). Allocates only if `completed` must grow.
  bool tick(uint64_t now, std::vector<DramRequest>& completed);
  // After tick(now): the first core cycle after `now` in which tick would do something (a command
  // can issue or a request completes), assuming no push in between; UINT64_MAX when idle.
  uint64_t next_event(uint64_t now) const;

  bool idle() const { return reads_.empty() && writes_.empty() && in_flight_.empty(); }
  std::size_t queued(bool write) const { return write ? writes_.size() : reads_.size(); }
  bool draining_writes() const { return draining_; }
  const DramStats& stats() const { return stats_; }
  const DramOptions& options() const { return options_; }
  const DramClock& clock() const { return clock_; }
  const DramAddressMap& address_map() const { return map_; }
  const DramBankState& bank(uint32_t index) const { return device_.bank(index); }

 private:
  struct Pending {
    DramRequest request;
    uint64_t pushed = 0;   // core cycle
    uint64_t visible = 0;  // the first edge at which the controller sees it (units)
    uint64_t burst = 0;    // its data time (units)
    uint64_t row = 0;
    uint32_t bank = 0;
    bool classified = false;  // counted as a hit, miss or conflict yet
  };
  struct InFlight {
    DramRequest request;
    uint64_t pushed = 0;  // core cycle
    uint64_t done = 0;    // when its burst ends (units)
  };
  struct Choice {
    uint64_t at = DramClock::kNever;  // the edge it issues at
    std::size_t index = 0;            // in the queue being served
  };

  bool serving_writes() const { return draining_ || (reads_.empty() && !writes_.empty()); }
  // next_issue's answer, kept until a push or an issue changes what it reads (see there).
  Choice next_issue() const;
  Choice compute_next_issue() const;
  // Brings candidates_, ready_at_ and bank_hits_ up to date with `queue` (the one being served).
  void scan_candidates(const std::vector<Pending>& queue, bool write) const;
  void issue(const Choice& choice);
  bool retire(uint64_t upto, std::vector<DramRequest>& completed);
  void count_first_command(DramCommand command);

  const DramOptions options_;
  const DramClock clock_;
  const DramAddressMap map_;
  const std::unique_ptr<DramScheduler> scheduler_;
  DramDevice device_;
  std::vector<Pending> reads_;   // arrival order; capacity reserved once, never grows
  std::vector<Pending> writes_;
  RingBuffer<InFlight> in_flight_;  // column command issued, burst not ended; completion order
  uint64_t next_edge_ = 0;          // the first edge tick has not passed (units)
  bool draining_ = false;
  mutable DramStats stats_;  // mutable for the refusal counts of can_accept
  mutable Choice cached_choice_;
  mutable bool choice_valid_ = false;
  // The candidates of the queue being served (scan_write_), its first scanned_ requests, valid
  // until an issue (scan_valid_); sized once. ready_at_: the later of a request's visible edge
  // and its bank's constraint (next_edge_ moves on its own). bank_hits_: per bank, the
  // candidates whose command is a column command.
  mutable std::vector<DramCandidate> candidates_;
  mutable std::vector<uint64_t> ready_at_;
  mutable std::vector<uint32_t> bank_hits_;
  mutable bool scan_valid_ = false;
  mutable bool scan_write_ = false;
  mutable std::size_t scanned_ = 0;
  // Per bank and command: its ready_edge, valid when constraint_scan_ holds this scan's number.
  mutable std::vector<uint64_t> constraint_;
  mutable std::vector<uint64_t> constraint_scan_;
  mutable uint64_t scan_ = 0;
};

}  // namespace lockstep::mem
