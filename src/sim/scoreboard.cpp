// The scoreboard registry: an immutable table of implementations by name, and the checks they
// share.
#include "sim/scoreboard.h"

#include <array>
#include <stdexcept>
#include <string>

#include "sim/scoreboard_impls.h"

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

namespace {

constexpr std::array<ScoreboardKind, 2> kKinds = {{
    {"bitmap", "one pending bit per register per warp (seed 001 §3.5.2)", scoreboard_detail::make_bitmap},
    {"rid-table", "per-warp table of N (first register, size) entries with dependency masks (seed 001 fig 3-32)",
     scoreboard_detail::make_rid_table},
}};

}  // namespace

std::span<const ScoreboardKind> scoreboard_kinds() { return kKinds; }

std::unique_ptr<Scoreboard> make_scoreboard(std::string_view name, const ScoreboardOptions& options) {
  if (options.warps == 0) throw std::invalid_argument("scoreboard: warps must be at least 1");
  if (options.registers_per_warp == 0) throw std::invalid_argument("scoreboard: registers_per_warp must be at least 1");
  for (const ScoreboardKind& kind : scoreboard_kinds())
    if (kind.name == name) return kind.make(options);
  std::string accepted;
  for (const ScoreboardKind& kind : scoreboard_kinds()) {
    if (!accepted.empty()) accepted += ", ";
    accepted += kind.name;
  }
  throw std::invalid_argument("unknown scoreboard '" + std::string(name) + "' (accepted: " + accepted + ")");
}

namespace scoreboard_detail {

void check_ranges(const InstOperands& ops, uint32_t registers_per_warp) {
  auto check = [&](const RegRange& r) {
    if (r.count == 0 || r.end() > registers_per_warp)
      throw std::out_of_range("scoreboard: register range " + std::to_string(r.first) + "+" + std::to_string(r.count) +
                              " outside the warp's " + std::to_string(registers_per_warp) + " slots");
  };
  for (const RegRange& r : ops.dsts()) check(r);
  for (const RegRange& r : ops.srcs()) check(r);
}

void check_warp(uint32_t warp, uint32_t warps) {
  if (warp >= warps)
    throw std::out_of_range("scoreboard: warp " + std::to_string(warp) + " of " + std::to_string(warps));
}

}  // namespace scoreboard_detail
}  // namespace lockstep::sim
