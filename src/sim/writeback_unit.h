#pragma once
// The SM's writeback stage (docs/timing-model.md, "Sm", step 1): the results of issued
// instructions wait here until they are due, then go through their scheduler partition's write
// ports, timing.writeback_ports results with register writes per partition per cycle; a result
// that finds the ports of its cycle taken waits for the next cycle. Results due in one cycle
// leave in issue order. A stage of the SM's issue path (pipeline_unit.h): the SM hands it
// results as instructions issue (accept) and, each cycle, takes the ones that retire
// (tick, then retired()) to release their scoreboard entries.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "sim/pipeline_unit.h"
#include "sim/scoreboard/scoreboard.h"

namespace lockstep::sim {

// One warp's result of an issued instruction.
struct Completion {
  uint64_t cycle = 0;      // due: written from this cycle on, ports permitting
  uint64_t sequence = 0;   // issue order (accept sets it): due together, they leave in it
  uint32_t warp_slot = 0;  // the SM's warp slot; its partition is warp_slot % partitions
  bool memory = false;     // a memory instruction's (its warp's memory_in_flight)
  bool long_latency = false;
  Reservation writes;      // none: it takes no write port
  // The asynchronous copy it completes (sim/async_copies.h; UINT32_MAX: none).
  uint32_t async_copy = UINT32_MAX;
  bool operator>(const Completion& o) const {
    return cycle != o.cycle ? cycle > o.cycle : sequence > o.sequence;
  }
};

struct WritebackUnitOptions {
  uint32_t partitions = 1;  // sm.schedulers, >= 1
  uint32_t ports = 1;       // timing.writeback_ports: per partition per cycle, >= 1
  size_t capacity = 0;      // results in flight the storage is sized for at the start
};

class WritebackUnit {
 public:
  using Request = Completion;
  // Throws std::invalid_argument for zero partitions or ports.
  explicit WritebackUnit(const WritebackUnitOptions& options);

  // Always: every issued instruction's result waits here (storage sized at the launch); what
  // throttles is the write ports, which only delay results.
  bool can_accept(uint64_t /*now*/) const { return true; }
  // A result of an instruction issued (or a memory access finished) in `now`, due at its
  // `cycle`; it leaves behind the results handed over before it that are due in the same cycle.
  void accept(uint64_t /*now*/, Completion result) {
    result.sequence = next_sequence_++;
    waiting_.push(result);
  }
  // Cycle `now`: the results due by now leave, in due and issue order, through their
  // partitions' write ports (one without writes takes none); the rest of a full partition's
  // wait for now + 1. True when any left; retired() lists them until the next tick.
  bool tick(uint64_t now) {
    retired_.clear();
    // Most cycles nothing is due: that answer stays inline.
    return !waiting_.empty() && waiting_.top().cycle <= now && retire(now);
  }
  const std::vector<Completion>& retired() const { return retired_; }
  // When the earliest result waiting is due (after tick(now), later than now); UINT64_MAX: none.
  uint64_t next_event(uint64_t /*now*/) const { return waiting_.empty() ? UINT64_MAX : waiting_.top().cycle; }
  bool empty() const { return waiting_.empty(); }

 private:
  // tick() with a result due: fills retired_.
  bool retire(uint64_t now);

  struct PortUse {
    uint64_t cycle = 0;   // the last cycle results went through the partition's ports
    uint32_t writes = 0;  // and how many
  };
  WritebackUnitOptions options_;
  std::priority_queue<Completion, std::vector<Completion>, std::greater<>> waiting_;
  std::vector<PortUse> ports_;  // by partition
  std::vector<Completion> retired_;
  uint64_t next_sequence_ = 0;
};

static_assert(PipelineUnit<WritebackUnit>);

}  // namespace lockstep::sim
