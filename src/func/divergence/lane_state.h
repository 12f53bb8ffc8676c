#pragma once
// Per-lane state of the divergence units with a PC per thread (branch_barrier.cpp,
// thread_frontier.cpp): one entry per lane, written and queried by lane masks.
#include <cstdint>
#include <string>
#include <vector>

#include "func/lanes.h"

namespace lockstep::func {

// A lane mask of `width` lanes written thread 0 first, as the seed's figures write them.
inline std::string lane_bits(LaneMask m, uint32_t width) {
  std::string s;
  for (uint32_t l = 0; l < width; ++l) s.push_back((m >> l & 1) != 0 ? '1' : '0');
  return s;
}

// per_lane[l] = value for every lane l of `lanes`.
template <class T>
void assign_lanes(std::vector<T>& per_lane, LaneMask lanes, const T& value) {
  for_each_lane(lanes, [&](uint32_t l) { per_lane[l] = value; });
}

// The lanes of `lanes` whose entry is `value`.
template <class T>
LaneMask lanes_where(const std::vector<T>& per_lane, LaneMask lanes, const T& value) {
  LaneMask m = 0;
  for_each_lane(lanes, [&](uint32_t l) {
    if (per_lane[l] == value) m |= LaneMask{1} << l;
  });
  return m;
}

}  // namespace lockstep::func
