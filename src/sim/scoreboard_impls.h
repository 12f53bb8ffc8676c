#pragma once
// Private to the scoreboard files: the factories the registry (scoreboard.cpp) lists and checks
// the implementations share. Not for users of Scoreboard; they go through make_scoreboard.
#include <memory>

#include "sim/scoreboard.h"

namespace lockstep::sim::scoreboard_detail {

std::unique_ptr<Scoreboard> make_bitmap(const ScoreboardOptions& options);
std::unique_ptr<Scoreboard> make_rid_table(const ScoreboardOptions& options);

// Throws std::out_of_range when a range is empty or reaches registers_per_warp or beyond.
void check_ranges(const InstOperands& ops, uint32_t registers_per_warp);

// Throws std::out_of_range for warp >= warps.
void check_warp(uint32_t warp, uint32_t warps);

}  // namespace lockstep::sim::scoreboard_detail
