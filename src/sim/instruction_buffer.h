#pragma once
// The I-buffer (seed 001 §3.4, fig 3-23): per warp a few decoded instructions waiting to issue, in
// program order. Decode fills an entry and sets its valid bit; the readiness check (scoreboard and
// the like, done by the SM) sets its ready bit; only a valid, ready head issues, which frees the
// entry so fetch can bring the next instruction. A taken branch flushes the warp's entries (they
// were fetched down the wrong path) and fetch refills from the new PC.
//
// Plain storage: it calls no other unit. Each entry keeps the scoreboard token of its instruction,
// so the SM can hand it back to the scoreboard (can_issue, reserve at pop, discard at flush).
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "sim/scoreboard/scoreboard.h"

namespace lockstep::sim {

struct InstructionBufferOptions {
  uint32_t warps = 64;             // warps per SM
  uint32_t entries_per_warp = 2;   // decoded instructions per warp, at least 1
};

struct IBufferEntry {
  bool valid = false;          // holds a decoded instruction
  bool ready = false;          // passed the readiness check; may be chosen by the warp scheduler
  uint32_t pc = 0;             // the instruction's ir::Pc (index in the kernel's instruction array)
  ScoreboardToken token = 0;   // from Scoreboard::on_decode
};

class InstructionBuffer {
 public:
  explicit InstructionBuffer(const InstructionBufferOptions& options);

  uint32_t entries_per_warp() const { return options_.entries_per_warp; }
  uint32_t size(uint32_t warp) const;  // valid entries
  bool empty(uint32_t warp) const { return size(warp) == 0; }
  bool full(uint32_t warp) const { return size(warp) == options_.entries_per_warp; }

  // The position-th oldest entry (0: the head). Positions at or past size() read as invalid;
  // throws std::out_of_range for position >= entries_per_warp.
  const IBufferEntry& entry(uint32_t warp, uint32_t position) const;
  const IBufferEntry& head(uint32_t warp) const { return entry(warp, 0); }

  // Unchecked forms for the SM's per-cycle path (warp < warps, the caller's invariant).
  uint32_t count(uint32_t warp) const { return count_[warp]; }
  bool has_room(uint32_t warp) const { return count_[warp] < options_.entries_per_warp; }
  const IBufferEntry& front(uint32_t warp) const {
    return slots_[size_t{warp} * options_.entries_per_warp + head_[warp]];
  }

  // Decode appends an instruction behind the others, valid and not ready. Throws std::logic_error
  // when the warp's entries are full (fetch must check full() first: back-pressure, not a drop).
  void push(uint32_t warp, uint32_t pc, ScoreboardToken token);

  // Sets or clears the ready bit of a valid entry (std::logic_error for an invalid one).
  void set_ready(uint32_t warp, uint32_t position, bool ready);

  // Issue: removes and returns the head. Throws std::logic_error unless it is valid and ready.
  IBufferEntry pop(uint32_t warp);

  // Taken branch: clears every entry of the warp, calling on_discard(entry) for each valid one,
  // oldest first, before clearing (so the caller can discard its scoreboard token).
  template <typename OnDiscard>
  void flush(uint32_t warp, OnDiscard&& on_discard) {
    const uint32_t n = size(warp);
    for (uint32_t p = 0; p < n; ++p) on_discard(entry(warp, p));
    clear(warp);
  }
  void flush(uint32_t warp) {
    flush(warp, [](const IBufferEntry&) {});
  }

 private:
  size_t index(uint32_t warp, uint32_t position) const;  // into slots_
  // The same, unchecked (warp < warps, position < entries_per_warp): a wrap, not a division.
  size_t ring_index(uint32_t warp, uint32_t position) const {
    const uint32_t ring = head_[warp] + position;
    return size_t{warp} * options_.entries_per_warp + (ring >= options_.entries_per_warp ? ring - options_.entries_per_warp : ring);
  }
  IBufferEntry& slot(uint32_t warp, uint32_t position);
  void check_warp(uint32_t warp) const;
  void clear(uint32_t warp);

  const InstructionBufferOptions options_;
  std::vector<IBufferEntry> slots_;  // warps x entries_per_warp, a ring per warp
  std::vector<uint32_t> head_;       // per warp: ring index of the oldest entry
  std::vector<uint32_t> count_;      // per warp: valid entries
};

}  // namespace lockstep::sim
