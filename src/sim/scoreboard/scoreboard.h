#pragma once
// Scoreboards (seed 001 §3.5): whether a warp's decoded instruction may issue without a RAW or WAW
// hazard on a register write still in flight. WAR cannot happen in an in-order pipeline (§3.5.2),
// so only writes are tracked. Implementations, selected by name:
//   bitmap     one bit per register per warp (seed 001 §3.5.2)
//   rid-table  per warp N entries of (first register, size) and a dependency mask per decoded
//              instruction (seed 001 §3.5.3, fig 3-32; the NVIDIA patent's N = 6)
//
// Life of an instruction, per warp (the SM calls these; one warp's calls come in program order):
//   on_decode  when it enters the I-buffer          -> token, kept in the I-buffer entry
//   can_issue  each cycle it is the I-buffer head   -> ready / RAW / WAW / table full
//   reserve    when it issues (after kReady)        -> one WriteHandle per destination range
//   discard    instead of reserve, when the I-buffer is flushed (taken branch)
//   release    at writeback of each WriteHandle, in any order
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "policy/policy_registry.h"
#include "sim/scoreboard_operands.h"

namespace lockstep::sim {

// The default of each implementation parameter is its declaration's (the implementation's file);
// the contract test checks the two agree.
struct ScoreboardOptions {
  uint32_t warps = 64;                 // warps per SM
  uint32_t registers_per_warp = 256;   // register slots per warp; every range must lie below this
  uint32_t rid_entries = 6;            // rid-table: pending writes per warp, 1..32 (fig 3-32: 6)
  uint32_t decoded_per_warp = 2;       // rid-table: tokens alive at once per warp (I-buffer depth)
};

// Why an instruction may not issue. Data hazards are reported before a full table: an instruction
// waiting on a write would wait even with a free entry.
enum class IssueCheck : uint8_t {
  kReady,
  kRawHazard,  // a source overlaps a pending write
  kWawHazard,  // a destination overlaps a pending write
  kTableFull,  // rid-table: fewer free entries than destination ranges (a structural stall)
};
std::string_view issue_check_name(IssueCheck check);

using ScoreboardToken = uint32_t;

// One pending write, returned by reserve and handed back to release at writeback.
struct WriteHandle {
  RegRange range;
  uint32_t entry = 0;  // rid-table entry index; 0 for bitmap
  friend bool operator==(const WriteHandle&, const WriteHandle&) = default;
};

struct Reservation {
  std::array<WriteHandle, kMaxDstRanges> handles{};
  uint32_t count = 0;
};

class Scoreboard {
 public:
  virtual ~Scoreboard() = default;

  // The instruction enters warp's I-buffer. Throws std::out_of_range for a range beyond
  // registers_per_warp, std::logic_error when more than decoded_per_warp tokens would be alive,
  // std::invalid_argument when it has more destination ranges than the table has entries (it
  // could never issue).
  virtual ScoreboardToken on_decode(uint32_t warp, const InstOperands& ops) = 0;

  // Caller: ops and token are those of one on_decode of this warp, not yet reserved or discarded.
  // No state changes. A kReady answer holds until this warp's next reserve or discard: releases,
  // later decodes and other warps' calls never take it back (the SM asks a head once).
  virtual IssueCheck can_issue(uint32_t warp, const InstOperands& ops, ScoreboardToken token) const = 0;

  // The instruction issues: its destinations become pending and its token dies. Throws
  // std::logic_error unless can_issue would say kReady.
  virtual Reservation reserve(uint32_t warp, const InstOperands& ops, ScoreboardToken token) = 0;

  // The instruction leaves the I-buffer without issuing; its token dies.
  virtual void discard(uint32_t warp, ScoreboardToken token) = 0;

  // A write completed. Throws std::logic_error for a handle that is not pending.
  virtual void release(uint32_t warp, const WriteHandle& handle) = 0;

  // Destination ranges issued and not yet released (observability for stats and tests).
  virtual uint32_t pending_writes(uint32_t warp) const = 0;
};

using ScoreboardFactory = std::unique_ptr<Scoreboard> (*)(const ScoreboardOptions& options);
using ScoreboardKind = policy::Entry<ScoreboardFactory>;

// The registered implementations, in the order error messages list them (an immutable table;
// sim/scoreboard/registry.cpp, one file per implementation in that folder).
std::span<const ScoreboardKind> scoreboard_kinds();

// Throws std::invalid_argument "unknown scoreboard '<name>' (accepted: bitmap, rid-table)", or for
// options out of range (0 warps, rid_entries outside 1..32, ...).
std::unique_ptr<Scoreboard> make_scoreboard(std::string_view name, const ScoreboardOptions& options);

}  // namespace lockstep::sim
