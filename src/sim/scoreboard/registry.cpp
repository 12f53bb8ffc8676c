// The registry of scoreboards: one entry per implementation, each defined in its own file of this
// folder (<name>.cpp). Adding one is that file plus its line below.
#include <array>
#include <stdexcept>
#include <string>

#include "sim/scoreboard/scoreboard.h"

namespace lockstep::sim {

// Defined in the implementation files; constant-initialised, so reading them here needs no ordering.
extern const ScoreboardKind kBitmapScoreboard;
extern const ScoreboardKind kRidTableScoreboard;

std::span<const ScoreboardKind> scoreboard_kinds() {
  // Built once from the constant entries, never changed (the order error messages list them in).
  static const std::array kTable{
      kBitmapScoreboard,
      kRidTableScoreboard,
  };
  return kTable;
}

std::unique_ptr<Scoreboard> make_scoreboard(std::string_view name, const ScoreboardOptions& options) {
  if (options.warps == 0) throw std::invalid_argument("scoreboard: warps must be at least 1");
  if (options.registers_per_warp == 0) throw std::invalid_argument("scoreboard: registers_per_warp must be at least 1");
  if (const ScoreboardKind* kind = policy::find(scoreboard_kinds(), name)) return kind->make(options);
  throw std::invalid_argument("unknown scoreboard '" + std::string(name) +
                              "' (accepted: " + policy::accepted(scoreboard_kinds()) + ")");
}

}  // namespace lockstep::sim
