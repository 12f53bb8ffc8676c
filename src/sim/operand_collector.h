#pragma once
// A scheduler partition's register banks and operand collectors (docs/timing-model.md, "Sm",
// step 2): an issued instruction takes a collector, reads its source registers through the
// banks, and dispatches to its unit once the last read is done. A stage of the SM's issue path
// (pipeline_unit.h).
//
// Banks: timing.bank_reads_per_cycle reads per bank per cycle, from the issue cycle on; a read
// that finds its bank's reads of the cycle taken goes a cycle later (a bank conflict), and the
// instruction's dispatch waits for its latest read. Register r of the warp in local slot w is in
// bank (r + w) % banks (timing.bank_mapping = "warp-offset") or r % banks ("register"); predicates have
// their own file and take no bank read.
// Collectors: timing.collector_units per partition; one is held from issue until dispatch + 1.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/pipeline_unit.h"
#include "sim/scoreboard_operands.h"

namespace lockstep::sim {

struct OperandCollectorOptions {
  uint32_t banks = 1;            // timing.register_banks, >= 1
  uint32_t reads_per_cycle = 1;  // timing.bank_reads_per_cycle, >= 1
  bool bank_by_warp = true;      // timing.bank_mapping = "warp-offset"
  uint32_t collectors = 1;       // timing.collector_units
  uint32_t register_slots = 0;   // registers at or past this are predicates: no bank read
};

struct OperandCollectorStats {
  uint64_t bank_conflicts = 0;        // reads that waited for their bank
  uint64_t bank_conflict_cycles = 0;  // cycles dispatches waited for their reads
};

// One instruction's operand reads.
struct OperandRead {
  uint32_t warp = 0;                           // its warp's local slot in the partition
  const InstOperands* operands = nullptr;      // its sources are read
  const InstOperands* already_read = nullptr;  // sources another path of the issue read (null: none)
};

class OperandCollector {
 public:
  using Request = OperandRead;
  // Throws std::invalid_argument for zero banks or reads per cycle.
  explicit OperandCollector(const OperandCollectorOptions& options);

  // A collector is free in `now`. (Inline, as next_event: the issue scan asks every cycle.)
  bool can_accept(uint64_t now) const {
    return std::any_of(collector_free_.begin(), collector_free_.end(), [now](uint64_t free) { return free <= now; });
  }
  // An instruction issued in `now`: reads its sources and takes a free collector (the caller
  // checked can_accept) until dispatch + 1; returns the dispatch cycle (`now` with no conflict).
  uint64_t accept(uint64_t now, const OperandRead& read);
  // A co-issued path (sbi, swi) beside an instruction that dispatches at `dispatch`: reads its
  // sources after that instruction's, in its collector; returns when its own lanes dispatch
  // (never before `dispatch`).
  uint64_t accept_beside(uint64_t now, const OperandRead& read, uint64_t dispatch);
  // Nothing advances by itself: banks and collectors free with the clock.
  bool tick(uint64_t /*now*/) { return false; }
  // The first cycle after `now` at which a collector held now frees; UINT64_MAX: none is held.
  uint64_t next_event(uint64_t now) const {
    uint64_t next = UINT64_MAX;
    for (uint64_t free : collector_free_)
      if (free > now) next = std::min(next, free);
    return next;
  }

  const OperandCollectorStats& stats() const { return stats_; }

 private:
  // The cycle the last of the sources of `read` is read in (`now` when there is none).
  uint64_t read_banks(uint64_t now, const OperandRead& read);

  struct Bank {
    uint64_t cycle = 0;  // the last cycle it served reads in
    uint32_t reads = 0;  // and how many
  };
  OperandCollectorOptions options_;
  std::vector<Bank> banks_;
  std::vector<uint64_t> collector_free_;  // the cycle each collector is free from
  OperandCollectorStats stats_;
};

static_assert(PipelineUnit<OperandCollector>);

}  // namespace lockstep::sim
