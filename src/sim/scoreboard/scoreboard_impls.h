#pragma once
// Private to the scoreboard folder: the checks the implementations share (scoreboard.cpp). Not
// for users of Scoreboard; they go through make_scoreboard.
#include "sim/scoreboard/scoreboard.h"

namespace lockstep::sim::scoreboard_detail {

// Throws std::out_of_range when a range is empty or reaches registers_per_warp or beyond.
void check_ranges(const InstOperands& ops, uint32_t registers_per_warp);

// Throws std::out_of_range for warp >= warps.
void check_warp(uint32_t warp, uint32_t warps);

}  // namespace lockstep::sim::scoreboard_detail
