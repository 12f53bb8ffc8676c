#pragma once
// Private to the replacement folder: the stamp search both stamp-ordered policies share. Users go
// through make_replacement_policy.
#include <cstdint>
#include <span>

#include "mem/replacement/replacement_policy.h"

namespace lockstep::mem::replacement_detail {

// The candidate way of `set` with the smallest stamp (stamp 0 = empty, so empty ways come first),
// the lowest way among equals. `stamps` has one entry per line; candidates is not zero.
inline uint32_t oldest_way(std::span<const uint64_t> stamps, uint32_t set, uint32_t ways,
                           uint64_t candidates) {
  const uint64_t* row = stamps.data() + static_cast<uint64_t>(set) * ways;
  uint32_t best = UINT32_MAX;
  for (uint32_t way = 0; way < ways; ++way) {
    if (((candidates >> way) & 1u) == 0) continue;
    if (best == UINT32_MAX || row[way] < row[best]) best = way;
  }
  return best;
}

}  // namespace lockstep::mem::replacement_detail
