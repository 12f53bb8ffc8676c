#pragma once
// DRAM request scheduler policies: at each DRAM clock, which queued request's next command the
// channel issues. The channel owns the queues and the timing; a policy sees one queue as a
// read-only list of candidates, oldest first, and only orders. Created by name: fr-fcfs, fcfs.
// Each policy lives in its own file here, named as users select it, with no public header.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "mem/dram/dram_device.h"

namespace lockstep::mem {

// One queued request as a policy sees it at one DRAM clock.
struct DramCandidate {
  uint32_t bank = 0;
  DramCommand command = DramCommand::kActivate;  // the command it needs next
  bool ready = false;        // that command may issue at this clock
  bool closes_wanted = false;  // that command is a precharge of a row another candidate hits
  bool row_hit() const { return is_column(command); }
};

class DramScheduler {
 public:
  static constexpr std::size_t kNone = SIZE_MAX;

  virtual ~DramScheduler() = default;

  // Caller: `candidates` are the requests of one queue (reads, or writes while the channel drains
  // them) in arrival order, index 0 the oldest, with ties already broken by arrival. Returns the
  // index of a candidate that is ready, or kNone to issue nothing this clock (always kNone when
  // none is ready). Depends only on `candidates`: the channel also asks it ahead of time to
  // predict its next event, so a policy must not change state here.
  virtual std::size_t pick(std::span<const DramCandidate> candidates) const = 0;
};

using DramSchedulerFactory = std::unique_ptr<DramScheduler> (*)();

struct DramSchedulerInfo {
  std::string_view name;
  std::string_view description;
  DramSchedulerFactory make;
};

// The registered policies, in a fixed order (an immutable table).
std::span<const DramSchedulerInfo> dram_schedulers();

// Throws std::invalid_argument "unknown dram scheduler '<name>' (known: fr-fcfs, fcfs)".
std::unique_ptr<DramScheduler> make_dram_scheduler(std::string_view name);

}  // namespace lockstep::mem
