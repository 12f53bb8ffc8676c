// What the scoreboards share: the names of the issue checks and the argument checks. The
// registry of implementations is registry.cpp in this folder.
#include "sim/scoreboard/scoreboard.h"

#include <stdexcept>
#include <string>

#include "sim/scoreboard/scoreboard_impls.h"

namespace lockstep::sim {

std::string_view issue_check_name(IssueCheck check) {
  switch (check) {
    case IssueCheck::kReady: return "ready";
    case IssueCheck::kRawHazard: return "raw hazard";
    case IssueCheck::kWawHazard: return "waw hazard";
    case IssueCheck::kTableFull: return "table full";
  }
  return "?";
}

namespace scoreboard_detail {

void throw_bad_range(const RegRange& r, uint32_t registers_per_warp) {
  throw std::out_of_range("scoreboard: register range " + std::to_string(r.first) + "+" + std::to_string(r.count) +
                          " outside the warp's " + std::to_string(registers_per_warp) + " slots");
}

void throw_bad_warp(uint32_t warp, uint32_t warps) {
  throw std::out_of_range("scoreboard: warp " + std::to_string(warp) + " of " + std::to_string(warps));
}

}  // namespace scoreboard_detail
}  // namespace lockstep::sim
