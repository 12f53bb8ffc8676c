#pragma once
// The channel's time unit. The simulator runs in core cycles; a DRAM channel lives in DRAM clocks
// and moves one data transfer (a "beat") per 1 / transfers_per_clock of a clock. The channel
// counts time in units of 1 / units_per_cycle() of a core cycle, a fixed point whose denominator
// is chosen here, once, so that a core cycle, a DRAM clock and a beat are each a whole number of
// units. Every DRAM timing is then an exact integer and a channel moving 21.2 bytes per core
// cycle stays exact over any run (no per-request rounding, no drift): the only rounding is to
// the core cycle in which the caller observes an event.
//
// The clocks are taken to 1 kHz. Their ratio, reduced, must have both terms at most 2^20
// (any two whole-MHz clocks qualify); otherwise the constructor throws.
#include <cstdint>

namespace lockstep::mem {

class DramClock {
 public:
  static constexpr uint64_t kNever = UINT64_MAX;

  // Throws std::invalid_argument for a clock that is not positive and finite, no transfers per
  // clock, or a ratio too fine for the fixed point.
  DramClock(double core_clock_mhz, double dram_clock_mhz, uint32_t transfers_per_clock);

  uint64_t units_per_cycle() const { return per_cycle_; }
  uint64_t units_per_beat() const { return per_beat_; }
  uint64_t units_per_clock() const { return per_clock_; }

  // The start of core cycle `cycle` (saturates at kNever). Cycle c spans [start(c), start(c+1)).
  uint64_t cycle_start(uint64_t cycle) const { return saturating_mul(cycle, per_cycle_); }
  // The core cycle whose span holds `units` (kNever stays kNever).
  uint64_t cycle_holding(uint64_t units) const { return units == kNever ? kNever : units / per_cycle_; }
  // The first core cycle starting at or after `units`: when a result ready at `units` can be
  // used (kNever stays kNever).
  uint64_t cycle_after(uint64_t units) const {
    return units == kNever ? kNever : units / per_cycle_ + (units % per_cycle_ != 0 ? 1 : 0);
  }
  // The first DRAM clock edge at or after `units`; edges are at whole multiples of a clock.
  uint64_t edge_at_or_after(uint64_t units) const {
    if (units == kNever) return kNever;
    const uint64_t rem = units % per_clock_;
    return rem == 0 ? units : saturating_add(units, per_clock_ - rem);
  }
  uint64_t clocks(uint64_t dram_clocks) const { return saturating_mul(dram_clocks, per_clock_); }
  uint64_t beats(uint64_t count) const { return saturating_mul(count, per_beat_); }

  static uint64_t saturating_add(uint64_t a, uint64_t b) { return a > kNever - b ? kNever : a + b; }
  static uint64_t saturating_mul(uint64_t a, uint64_t b) { return b != 0 && a > kNever / b ? kNever : a * b; }

 private:
  uint64_t per_cycle_ = 1;  // units per core cycle
  uint64_t per_beat_ = 1;   // units per data transfer
  uint64_t per_clock_ = 1;  // units per DRAM clock (per_beat_ * transfers_per_clock)
};

}  // namespace lockstep::mem
