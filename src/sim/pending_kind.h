#pragma once
// What produces a pending register write, for the stall reason of a warp waiting on it (the
// SM's pending_kind_ table: sm.cpp, sm_formation.cpp).
#include <cstdint>

#include "sim/instruction_timing.h"

namespace lockstep::sim {

enum PendingKind : uint8_t { kNotPending = 0, kArithmetic = 1, kMemory = 2, kConstantMissing = 3, kTextureFetch = 4 };

inline PendingKind pending_kind(const InstTiming& t) {
  if (t.space == MemorySpace::kTexture) return kTextureFetch;
  if (t.space != MemorySpace::kNone) return kMemory;
  return kArithmetic;
}

}  // namespace lockstep::sim
