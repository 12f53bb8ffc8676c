#pragma once
// Private to the scoreboard folder: the checks the implementations share (scoreboard.cpp). Not
// for users of Scoreboard; they go through make_scoreboard.
#include "sim/scoreboard/scoreboard.h"

namespace lockstep::sim::scoreboard_detail {

// The errors of the checks below, out of line: the checks run at every decode and issue.
[[noreturn]] void throw_bad_range(const RegRange& r, uint32_t registers_per_warp);
[[noreturn]] void throw_bad_warp(uint32_t warp, uint32_t warps);

// Throws std::out_of_range when a range is empty or reaches registers_per_warp or beyond.
inline void check_ranges(const InstOperands& ops, uint32_t registers_per_warp) {
  for (const RegRange& r : ops.dsts())
    if (r.count == 0 || r.end() > registers_per_warp) [[unlikely]] throw_bad_range(r, registers_per_warp);
  for (const RegRange& r : ops.srcs())
    if (r.count == 0 || r.end() > registers_per_warp) [[unlikely]] throw_bad_range(r, registers_per_warp);
}

// Throws std::out_of_range for warp >= warps.
inline void check_warp(uint32_t warp, uint32_t warps) {
  if (warp >= warps) [[unlikely]] throw_bad_warp(warp, warps);
}

}  // namespace lockstep::sim::scoreboard_detail
