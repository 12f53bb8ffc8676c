#pragma once
// The contract every stage unit of the SM's issue path follows (docs/timing-model.md, "Sm"):
// the operand collector, the execution units, the LD/ST unit and the writeback unit. The SM
// wires them together and moves work between them; each unit sees only what it is handed.
//
//   using Request = ...;                           what one accept() hands the unit
//   bool can_accept(uint64_t now) const;           room for one more request in cycle `now`
//   ... accept(uint64_t now, const Request& r);    takes it; the caller checked can_accept(now)
//                                                  (what it returns is the unit's own: a
//                                                  dispatch cycle, a result cycle, an id)
//   bool tick(uint64_t now);                       advances the unit by cycle `now`; true when
//                                                  it made progress (its outputs or its room
//                                                  changed). Cycles passed are increasing.
//   uint64_t next_event(uint64_t now) const;       the first cycle after `now` at which the unit
//                                                  can change on its own (its room grows, an
//                                                  output falls due); UINT64_MAX: none. The SM's
//                                                  idle skipping jumps to the least of these.
//
// A unit whose state is only the cycles its resources free at (an execution unit's issue slot,
// the operand collectors) has nothing to advance: its tick() reports no progress and next_event()
// says when the next resource frees. Outputs that a tick produces (the results the writeback
// unit retires, the accesses the LD/ST unit finishes) wait in a port the unit owns, read by the
// SM until the next tick; ports are sized when the launch starts, so a cycle allocates nothing.
//
// A concept, not a base class: the SM calls its units directly, with no virtual call per cycle.
#include <concepts>
#include <cstdint>

namespace lockstep::sim {

template <typename Unit>
concept PipelineUnit = requires(Unit& unit, const Unit& view, uint64_t now, const typename Unit::Request& request) {
  { view.can_accept(now) } -> std::same_as<bool>;
  unit.accept(now, request);
  { unit.tick(now) } -> std::same_as<bool>;
  { view.next_event(now) } -> std::same_as<uint64_t>;
};

}  // namespace lockstep::sim
