#pragma once
// CTA barriers (bar.sync / bar.arrive / bar.red / barrier.sync): 16 named barriers per CTA,
// plus one for the cluster barrier (barrier.cluster.*).
// Arrival is counted per warp, as PTX specifies (a warp arriving counts all its threads).
#include <array>
#include <cstdint>
#include <vector>

#include "func/lanes.h"

namespace lockstep::func {

class Warp;

enum class BarrierReduction : uint8_t { None, Popc, And, Or };

struct BarrierState {
  uint32_t arrived = 0;           // warps arrived in this phase
  uint32_t expected = 0;          // warps that must arrive (0 = every live warp of the CTA)
  std::vector<uint32_t> waiting;  // warps blocked on this barrier
  uint32_t popc = 0;              // bar.red accumulators
  bool all = true;
  bool any = false;
};

class CtaBarriers {
 public:
  // Warp `w` arrives at barrier `id` expecting `expected_warps` (0 = all live warps);
  // returns true when the barrier completed with this arrival (waiters were released).
  bool arrive(std::vector<Warp>& warps, Warp& w, uint32_t id, uint32_t expected_warps, bool wait,
              BarrierReduction red, LaneMask predicate_true);
  // Re-checks every barrier after warps exit (live_warps fell); releases what completes.
  void on_warp_exit(std::vector<Warp>& warps, uint32_t live_warps);
  void reset() { barriers_ = {}; }
  const std::array<BarrierState, 17>& state() const { return barriers_; }

 private:
  void release(std::vector<Warp>& warps, uint32_t id);
  std::array<BarrierState, 17> barriers_{};
};

}  // namespace lockstep::func
