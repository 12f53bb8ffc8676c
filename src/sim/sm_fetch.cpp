// The SM's side of its front end (sm.h, step 3 of a cycle; the stage itself is fetch_unit.h):
// the fetch unit's tick, and the I-cache fills the memory hierarchy brings back.
#include "sim/sm.h"

namespace lockstep::sim {

void Sm::take_instruction_fills(uint64_t now) {
  for (uint64_t address : ldst_->instruction_fills())
    if (fetch_->fill(address, now)) mark_dirty();
}

bool Sm::fetch(uint64_t now) {
  const bool changed = fetch_->tick(now);
  for (uint32_t slot : fetch_->touched()) {
    // A fetch or a miss changes the warp's stall reason (no instruction, fetch).
    partitions_[partition_of(slot)].dirty = true;
    if (warps_[slot].formed) mark_dirty();  // the formed warp it joins may issue through another partition
  }
  return changed;
}

}  // namespace lockstep::sim
